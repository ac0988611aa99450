import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeInvokeServiceRequest } from '../invoke-service/codec.js';
import { decodeMtRequest } from '../mt-request/codec.js';
import type { MtRequest } from '../mt-request/schema.js';
import { parseBasicAuthorization } from './basic-auth.js';
import { buildInvokeServiceRequest, buildLookupRequest, buildSendRequest, buildStatusRequest } from './requests.js';
import { parseInvokeServiceResponse, parseLookupResponse, parseSendResponse, parseStatusResponse } from './responses.js';

const context = { endpoints: { baseUrl: 'http://127.0.0.1:4010' }, credentials: { accountId: 'acct-1', password: 'p@ss:word' } };
const mt = JSON.parse(loadFixture('mt-request/valid/expected/with-delivery.json')) as MtRequest;

describe('request builders', () => {
  it.each(['json', 'xml'] as const)('send (%s): POST /sms/v4/mt, Basic auth, content type, a body the service decodes to the same request', (format) => {
    const req = buildSendRequest(context, mt, format);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://127.0.0.1:4010/sms/v4/mt');
    expect(parseBasicAuthorization(req.headers['authorization'])).toEqual(context.credentials);
    expect(req.headers['content-type']).toBe(format === 'json' ? 'application/json; charset=UTF-8' : 'application/xml; charset=UTF-8');
    expect(decodeMtRequest(req.body as string, format)).toEqual({ ok: true, value: mt });
  });

  it('status and lookup: GET with Accept, XML by default', () => {
    const status = buildStatusRequest(context, '44101-0922I-13413-21GDL');
    expect(status).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:4010/sms/v4/mt/44101-0922I-13413-21GDL/status', headers: { accept: 'application/xml' } });
    expect(status.body).toBeUndefined();
    expect(buildLookupRequest(context, '14255550100', 'json')).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:4010/sms/v4/preview/14255550100', headers: { accept: 'application/json' } });
  });

  it('refuses path-breaking ticket IDs and phone numbers as programmer errors', () => {
    expect(() => buildStatusRequest(context, '../../admin')).toThrow(TypeError);
    expect(() => buildLookupRequest(context, '+14255550100')).toThrow(TypeError);
  });

  it('invoke: POST /service/v1/invokeService/<id> with a JSON body the service decodes', () => {
    const request = { endUser: { phoneNumber: '14255550100' } };
    const req = buildInvokeServiceRequest({ ...context, endpoints: { baseUrl: 'http://x', urls: { invokeService: 'https://sm.example' } } }, 'a1b2c3', request);
    expect(req.url).toBe('https://sm.example/service/v1/invokeService/a1b2c3');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(decodeInvokeServiceRequest(req.body as string)).toEqual({ ok: true, value: request });
  });
});

describe('parseSendResponse', () => {
  it('202 + Location → the ticket ID and request ID', () => {
    const r = parseSendResponse({
      status: 202,
      headers: new Headers({ location: 'https://smsc.openmarket.com/sms/v4/mt/44101-0922I-13413-21GDL', 'x-request-id': '001-3-72879E62' }),
      body: '',
    });
    expect(r).toEqual({ ok: true, value: { ticketId: '44101-0922I-13413-21GDL', location: 'https://smsc.openmarket.com/sms/v4/mt/44101-0922I-13413-21GDL', requestId: '001-3-72879E62', httpStatus: 202 } });
  });

  it('202 without Location is an unexpected response, not a success', () => {
    const r = parseSendResponse({ status: 202, headers: {}, body: '' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'unexpected-response', httpStatus: 202, description: '202 without a Location header' } });
  });

  it.each([
    ['error-record/540-content-empty.json', 'application/json', '540', 'Invalid request - message content must have a value'],
    ['error-record/540-content-empty.xml', 'application/xml', '540', 'Invalid request - message content must have a value'],
  ])('400 with %s → the API error with its code and description', (fixture, type, code, description) => {
    const r = parseSendResponse({ status: 400, headers: { 'Content-Type': type, 'X-Request-Id': 'r-1' }, body: loadFixture(fixture) });
    expect(r).toEqual({ ok: false, error: { kind: 'api-error', operation: 'send', httpStatus: 400, code, description, requestId: 'r-1', retry: { retryable: false } } });
  });

  it('1010 carries the catalogue retry guidance (10 s or more); 1000 is not retryable', () => {
    const e1010 = parseSendResponse({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":"1010","description":"Temporary system error"}}' });
    expect(e1010).toMatchObject({ ok: false, error: { code: '1010', retry: { retryable: true, minIntervalMs: 10_000 } } });
    const e1000 = parseSendResponse({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":"1000","description":"Temporary error processing request"}}' });
    expect(e1000).toMatchObject({ ok: false, error: { code: '1000', retry: { retryable: false } } });
  });

  it('415 with an empty body and an HTML gateway page are unexpected responses', () => {
    expect(parseSendResponse({ status: 415, headers: {}, body: '' })).toMatchObject({ ok: false, error: { kind: 'unexpected-response', httpStatus: 415 } });
    const html = parseSendResponse({ status: 502, headers: { 'content-type': 'text/html' }, body: loadFixture('http/gateway-error.html') });
    expect(html).toMatchObject({ ok: false, error: { kind: 'unexpected-response', httpStatus: 502 } });
  });
});

describe('parseStatusResponse and parseLookupResponse', () => {
  it('decodes a status in XML and the same status in JSON', () => {
    const xml = parseStatusResponse({ status: 200, headers: { 'content-type': 'application/xml;charset=UTF-8' }, body: loadFixture('mt-status/single-delivered.xml') });
    const json = parseStatusResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: loadFixture('mt-status/single-delivered.json') });
    expect(xml.ok && xml.value.status).toMatchObject({ ticketId: '44101-0922I-13413-21GDL', code: 4 });
    expect(json.ok && json.value.status).toEqual(xml.ok && xml.value.status);
  });

  it('711 for an unknown ticket is an API error', () => {
    const r = parseStatusResponse({ status: 404, headers: { 'content-type': 'application/xml' }, body: loadFixture('error-record/711-ticket-not-found.xml') });
    expect(r).toMatchObject({ ok: false, error: { kind: 'api-error', operation: 'status', code: '711', description: 'Ticket ID not found' } });
  });

  it('a 200 whose body is not a status document is unexpected', () => {
    const r = parseStatusResponse({ status: 200, headers: { 'content-type': 'application/xml' }, body: '<preview/>' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'unexpected-response', httpStatus: 200 } });
  });

  it('decodes a lookup, sniffing the format when Content-Type is missing', () => {
    const r = parseLookupResponse({ status: 200, headers: {}, body: loadFixture('preview/us-wireless.xml') });
    expect(r.ok && r.value.preview.mobileOperator).toMatchObject({ mobileOperatorId: 383, mobileOperatorName: 'AT&T Wireless', textLength: 160 });
  });
});

describe('parseInvokeServiceResponse', () => {
  it('202 and 200 are accepted', () => {
    expect(parseInvokeServiceResponse({ status: 202, headers: { 'x-request-id': 'abc' }, body: '' })).toEqual({ ok: true, value: { httpStatus: 202, requestId: 'abc' } });
    expect(parseInvokeServiceResponse({ status: 200, headers: {}, body: '' })).toEqual({ ok: true, value: { httpStatus: 200 } });
  });

  it('an error body carries the integer code and the catalogue retry guidance', () => {
    const r = parseInvokeServiceResponse({ status: 400, headers: { 'content-type': 'application/json' }, body: loadFixture('error-record/invoke-12002.json') });
    expect(r).toMatchObject({ ok: false, error: { kind: 'api-error', code: 12002, description: 'Invalid JSON in the payload - endUser.phoneNumber is missing', retry: { retryable: false } } });
    const retry = parseInvokeServiceResponse({ status: 500, headers: {}, body: loadFixture('error-record/invoke-1010.json') });
    expect(retry).toMatchObject({ ok: false, error: { code: 1010, retry: { retryable: true, minIntervalMs: 900_000 } } });
  });
});

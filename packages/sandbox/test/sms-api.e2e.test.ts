/** The SMS endpoints over real HTTP, in both formats: send, status, lookup, 415, 404, 405, 540. */
import {
  decodeErrorRecord,
  decodeMtStatus,
  decodePreview,
  encodeMtRequest,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  MT_INVALID,
  SMS_ERRORS,
  type MtRequest,
} from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type SandboxServer } from '../src/index.js';
import { auth } from './helpers.js';

const clock = createManualClock();
const sandbox = createSandbox({ clock });
let server: SandboxServer;

beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

const message: MtRequest = {
  destination: { address: '14155550100' },
  source: { address: '12345', ton: 3 },
  message: { type: 'text', content: 'Hello from the sandbox' },
  options: { note1: 'order 42' },
};

const send = (body: string, contentType: string | undefined, authorization = auth()): Promise<Response> =>
  fetch(`${server.url}/sms/v4/mt`, {
    method: 'POST',
    headers: { authorization, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    body,
  });

describe('send', () => {
  it.each([
    ['json', 'application/json; charset=UTF-8'],
    ['xml', 'application/xml'],
  ] as const)('accepts a %s send: 202, empty body, Location with a 23-character ticket, X-Request-Id', async (format, contentType) => {
    const res = await send(encodeMtRequest(message, format), contentType);
    expect(res.status).toBe(202);
    expect(res.headers.get('content-length')).toBe('0');
    expect(await res.text()).toBe('');
    const location = res.headers.get('location') ?? '';
    expect(location.startsWith(`${server.url}/sms/v4/mt/`)).toBe(true);
    const ticketId = location.split('/').pop() ?? '';
    expect(ticketId).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(requestId.length).toBeGreaterThan(0);
    expect(requestId.length).toBeLessThanOrEqual(45);
  });

  it('issues a different ticket ID for every send', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await send(encodeMtRequest(message, 'json'), 'application/json');
      ids.add(res.headers.get('location') ?? '');
    }
    expect(ids.size).toBe(20);
  });

  it.each([undefined, 'text/plain', 'application/json; charset=ISO-8859-1'])('answers 415 with no body for Content-Type %j', async (contentType) => {
    const res = await send(encodeMtRequest(message, 'json'), contentType);
    expect(res.status).toBe(415);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['json', '{"mobileTerminate":{"destination":{"address":"+14155550100"},"message":{"type":"text","content":"x"}}}', MT_INVALID.destinationAddress],
    ['json', '{"mobileTerminate":', MT_INVALID.invalidJson],
    ['json', '{"mobileTerminate":{"destination":{"address":"14155550100"},"message":{"type":"text","content":"x","mlc":"Segment"}}}', MT_INVALID.mlc],
    ['xml', '<mobileTerminate><destination address="14155550100"/></mobileTerminate>', MT_INVALID.messageRequired],
    ['xml', '<!DOCTYPE x [<!ENTITY a "b">]><mobileTerminate/>', MT_INVALID.invalidXml],
  ] as const)('rejects an invalid %s body with 540 in the request format: %s', async (format, body, description) => {
    const res = await send(body, format === 'json' ? 'application/json' : 'application/xml');
    expect(res.status).toBe(SMS_ERRORS['540'].httpStatus);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain(format);
    const record = decodeErrorRecord(await res.text(), format);
    expect(record.ok && record.value).toEqual({ code: '540', description });
  });

  it('rejects a body over 64 KiB with 540 before parsing it', async () => {
    const res = await send(`{"mobileTerminate":{"x":"${'a'.repeat(70_000)}"}}`, 'application/json');
    expect(res.status).toBe(400);
    const record = decodeErrorRecord(await res.text(), 'json');
    expect(record.ok && record.value.code).toBe('540');
  });
});

describe('status', () => {
  it('reports 2, then 3, then 4 in XML by default and in JSON on request', async () => {
    const res = await send(encodeMtRequest(message, 'json'), 'application/json');
    const ticketId = (res.headers.get('location') ?? '').split('/').pop() as string;
    const status = async (accept?: string) => {
      const r = await fetch(`${server.url}/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth(), ...(accept ? { accept } : {}) } });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-request-id')).toBeTruthy();
      const format = accept === 'application/json' ? 'json' : 'xml';
      expect(r.headers.get('content-type')).toMatch(format === 'json' ? /^application\/json;\s*charset=UTF-8$/ : /^application\/xml;\s*charset=UTF-8$/);
      const decoded = decodeMtStatus(await r.text(), format);
      if (!decoded.ok) throw new Error(decoded.error.description);
      return decoded.value;
    };
    expect((await status()).code).toBe(2);
    await clock.advance(500);
    expect((await status('application/json')).code).toBe(3);
    await clock.advance(500);
    const final = await status();
    expect(final).toMatchObject({ ticketId, code: 4, description: 'Message delivered', mobileOperatorId: 383, note1: 'order 42' });
    expect(final.destination).toEqual({ address: '14155550100', mobileOperatorId: 383, alpha2Code: 'US' });
    expect(final.source).toEqual({ address: '12345', ton: 3 });
    expect(final.deliveryDate).toBe(new Date(clock.now()).toISOString());
    expect(final.segments).toBeUndefined();
  });

  it('answers 711 for an unknown ticket and for another account’s ticket', async () => {
    const res = await send(encodeMtRequest(message, 'json'), 'application/json');
    const ticketId = (res.headers.get('location') ?? '').split('/').pop() as string;
    for (const [id, who] of [
      ['AAAAA-BBBBB-CCCCC-DDDDD', auth()],
      [ticketId, auth('sms-only')],
    ] as const) {
      const r = await fetch(`${server.url}/sms/v4/mt/${id}/status`, { headers: { authorization: who } });
      expect(r.status).toBe(SMS_ERRORS['711'].httpStatus);
      const record = decodeErrorRecord(await r.text(), 'xml');
      expect(record.ok && record.value).toEqual({ code: '711', description: SMS_ERRORS['711'].description });
    }
  });
});

describe('lookup', () => {
  it.each(['xml', 'json'] as const)('answers the operator of a number in %s', async (format) => {
    const r = await fetch(`${server.url}/sms/v4/preview/447700900123`, {
      headers: { authorization: auth(), accept: format === 'json' ? 'application/json' : 'application/xml' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    const preview = decodePreview(await r.text(), format);
    expect(preview.ok && preview.value).toEqual({
      destination: { countryCode: 44, alpha2Code: 'GB', phoneNumber: '447700900123', wireless: true },
      mobileOperator: { mobileOperatorId: 900, mobileOperatorName: 'Sample EE', textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: true },
    });
  });

  it('answers 345 outside the table (as the real service outside AU, CA, US and GB)', async () => {
    const r = await fetch(`${server.url}/sms/v4/preview/4915123456789`, { headers: { authorization: auth() } });
    expect(r.status).toBe(SMS_ERRORS['345'].httpStatus);
    const record = decodeErrorRecord(await r.text(), 'xml');
    expect(record.ok && record.value.code).toBe('345');
  });

  it('uses its own description for bad credentials', async () => {
    const r = await fetch(`${server.url}/sms/v4/preview/447700900123`, { headers: { authorization: auth('sandbox', 'wrong') } });
    expect(r.status).toBe(SMS_ERRORS['420'].httpStatus);
    const record = decodeErrorRecord(await r.text(), 'xml');
    expect(record.ok && record.value).toEqual({ code: '420', description: LOOKUP_CREDENTIALS_DESCRIPTION });
  });
});

describe('paths and methods', () => {
  it('answers 404 with an error record for an unknown path', async () => {
    const r = await fetch(`${server.url}/sms/v5/mt`, { headers: { accept: 'application/json' } });
    expect(r.status).toBe(404);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    const record = decodeErrorRecord(await r.text(), 'json');
    expect(record.ok).toBe(true);
  });

  it.each([
    ['GET', '/sms/v4/mt', 'POST'],
    ['POST', '/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status', 'GET'],
    ['DELETE', '/sms/v4/preview/14155550100', 'GET'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const r = await fetch(`${server.url}${path}`, { method, headers: { authorization: auth() } });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe(allow);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    expect(decodeErrorRecord(await r.text(), 'xml').ok).toBe(true);
  });
});

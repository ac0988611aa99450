/** Arbitrary requests never crash the handler: every answer is a well-formed HTTP response. */
import { basicAuthorization, encodeMtRequest } from '@smsv4/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';

const sandbox = createSandbox({ timeScale: 1000, fetch: async () => new Response(null, { status: 200 }) });
afterAll(() => sandbox.close());

const validSend = encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content: 'hi' } }, 'json');
const validXml = encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'hexEncodedText', charset: 'UTF-16', content: '0048' } }, 'xml');

const paths = fc.oneof(
  fc.constantFrom(
    '/sms/v4/mt',
    '/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status',
    '/sms/v4/mt/%ZZ/status',
    '/sms/v4/preview/14155550100',
    '/sms/v4/preview/%E0%A4%A',
    '/service/v1/invokeService/abc',
    '/service/v1/invokeService/%zz',
    '/service/v9/x',
    '/__sandbox/',
    '/__sandbox/api/state',
    '/__sandbox/api/inbound',
    '/__sandbox/api/scenarios/14155550100',
    '/__sandbox/api/scenarios/%',
    '/__sandbox/api/faults',
    '/',
  ),
  fc.webPath(),
);

const bodies = fc.oneof(
  fc.constant(validSend),
  fc.constant(validXml),
  fc.constant('{"endUser":{"phoneNumber":14155550100}}'),
  fc.constant('{"from":"14155550100","to":"1","text":"x"}'),
  fc.string({ maxLength: 300 }),
  fc.json(),
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'application/xml', 'text/xml', 'text/plain', 'application/json; charset=latin1', ''),
    authorization: fc.oneof(fc.constant(basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' })), fc.string({ maxLength: 40 })),
    accept: fc.constantFrom('application/json', 'application/xml', '*/*', 'text/html;q=0', ''),
  },
  { requiredKeys: [] },
);

describe('robustness', () => {
  it('answers every request with a well-formed response and an X-Request-Id', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), paths, headers, bodies, async (method, path, head, body) => {
        const safeHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(head)) if (/^[\t\x20-\x7e]*$/.test(v)) safeHeaders[k] = v;
        const withBody = method !== 'GET' && method !== 'HEAD';
        const request = new Request(`http://sandbox.test${path}`, { method, headers: safeHeaders, ...(withBody ? { body } : {}) });
        const response = await sandbox.fetch(request);
        expect(response).toBeInstanceOf(Response);
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(600);
        expect(response.headers.get('x-request-id')).toMatch(/^.{1,45}$/);
        if (path.startsWith('/__sandbox/api/events')) await response.body?.cancel();
        else await response.arrayBuffer();
        if (response.status >= 500) throw new Error(`HTTP ${response.status} for ${method} ${path}`);
      }),
      { numRuns: 400 },
    );
  });
});

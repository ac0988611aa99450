/** Every account condition over real HTTP: 420, 431, 432, 577–580, 591, 592, 12001, 12008, 12009. */
import { decodeErrorRecord, decodeInvokeErrorBody, INVOKE_ERRORS, SMS_ERRORS, type SmsErrorCode } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, DEFAULT_ACCOUNTS, type SandboxServer } from '../src/index.js';
import { auth, jsonSend } from './helpers.js';

const clock = createManualClock({ start: Date.UTC(2025, 0, 31, 23, 0) });
const sandbox = createSandbox({
  clock,
  accounts: [
    ...DEFAULT_ACCOUNTS,
    { accountId: 'tiny-demo', password: 'tiny-demo-password', kind: 'demo', demo: { maxRequests: 2 } },
    { accountId: 'short-demo', password: 'short-demo-password', kind: 'demo', demo: { expiresAt: Date.UTC(2025, 1, 1) } },
    { accountId: 'europe', password: 'europe-password', regions: ['GB', '49'] },
  ],
});
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

const body = (destination = '14155550100', source?: string) =>
  jsonSend({ destination: { address: destination }, ...(source ? { source: { address: source, ton: 3 } } : {}), message: { type: 'text', content: 'hi' } });

async function send(authorization: string, payload = body(), contentType = 'application/json'): Promise<Response> {
  return fetch(`${server.url}/sms/v4/mt`, { method: 'POST', headers: { authorization, 'content-type': contentType }, body: payload });
}

async function expectSmsError(res: Response, code: SmsErrorCode, format: 'json' | 'xml' = 'json'): Promise<void> {
  expect(res.status).toBe(SMS_ERRORS[code].httpStatus);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const record = decodeErrorRecord(await res.text(), format);
  expect(record.ok && record.value).toEqual({ code, description: SMS_ERRORS[code].description });
}

describe('SMS account checks', () => {
  it.each([
    ['an unknown account', auth('nobody', 'x')],
    ['a wrong password', auth('sandbox', 'Sandbox-password')],
    ['a wrong-case account ID', auth('Sandbox', 'sandbox-password')],
    ['no Authorization', ''],
  ])('420 for %s', async (_, authorization) => {
    await expectSmsError(await send(authorization), '420');
  });

  it('420 in XML for an XML send', async () => {
    await expectSmsError(await send(auth('nobody'), '<mobileTerminate/>', 'application/xml'), '420', 'xml');
  });

  it('431 for an account not provisioned, 432 for a blocked one, also on status and lookup', async () => {
    await expectSmsError(await send(auth('not-provisioned')), '431');
    await expectSmsError(await send(auth('blocked')), '432');
    const status = await fetch(`${server.url}/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status`, { headers: { authorization: auth('blocked') } });
    await expectSmsError(status, '432', 'xml');
    const lookup = await fetch(`${server.url}/sms/v4/preview/14155550100`, { headers: { authorization: auth('not-provisioned') } });
    await expectSmsError(lookup, '431', 'xml');
  });

  it('checks provisioning before the Content-Type and the body', async () => {
    await expectSmsError(await send(auth('blocked'), 'not json', 'text/plain'), '432', 'xml');
    const res = await send(auth(), '{', 'text/plain');
    expect(res.status).toBe(415);
  });

  it('577 for the demo short code used by an account not provisioned for it; the demo account may use it', async () => {
    await expectSmsError(await send(auth(), body('14155550100', '55555')), '577');
    expect((await send(auth('demo'), body('14155550100', '55555'))).status).toBe(202);
  });

  it('578 once the demo time is over', async () => {
    await expectSmsError(await send(auth('demo-expired')), '578');
    expect((await send(auth('short-demo'))).status).toBe(202);
    await clock.advanceTo(Date.UTC(2025, 1, 1));
    await expectSmsError(await send(auth('short-demo')), '578');
  });

  it('579 for a destination outside the demo whitelist', async () => {
    await expectSmsError(await send(auth('demo'), body('14155550199')), '579');
    expect((await send(auth('demo'), body('447700900123'))).status).toBe(202);
  });

  it('580 beyond the demo request cap', async () => {
    expect((await send(auth('tiny-demo'))).status).toBe(202);
    expect((await send(auth('tiny-demo'))).status).toBe(202);
    await expectSmsError(await send(auth('tiny-demo')), '580');
  });

  it('591 beyond the monthly cap, counted per calendar month of the simulated clock', async () => {
    for (let i = 0; i < 3; i++) expect((await send(auth('capped'))).status).toBe(202);
    await expectSmsError(await send(auth('capped')), '591');
    await clock.advanceTo(Date.UTC(2025, 2, 1));
    expect((await send(auth('capped'))).status).toBe(202);
  });

  it('592 for a destination outside the reachable regions (calling code or alpha-2)', async () => {
    await expectSmsError(await send(auth('north-america'), body('447700900123')), '592');
    expect((await send(auth('north-america'), body('14165550100'))).status).toBe(202);
    expect((await send(auth('europe'), body('447700900123'))).status).toBe(202);
    expect((await send(auth('europe'), body('4915123456789'))).status).toBe(202);
    await expectSmsError(await send(auth('europe'), body('61400123456')), '592');
  });

  it('runs the 540 check before the account limits', async () => {
    const res = await send(auth('capped'), jsonSend({ destination: { address: 'x' }, message: { type: 'text', content: 'hi' } }));
    const record = decodeErrorRecord(await res.text(), 'json');
    expect(record.ok && record.value.code).toBe('540');
  });
});

describe('Invoke Service account checks', () => {
  const invoke = (authorization: string) =>
    fetch(`${server.url}/service/v1/invokeService/1a2b3c`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"endUser":{"phoneNumber":14155550100}}',
    });

  it('12009 for bad credentials, 12001 without the Invoke Service role, 12008 when blocked, 202 with it', async () => {
    for (const [authorization, code] of [
      [auth('nobody'), 12009],
      [auth('sandbox', 'nope'), 12009],
      [auth('sms-only'), 12001],
      [auth('invoke-blocked'), 12008],
    ] as const) {
      const res = await invoke(authorization);
      expect(res.status).toBe(INVOKE_ERRORS[code].httpStatus);
      const decoded = decodeInvokeErrorBody(await res.text());
      expect(decoded.ok && decoded.value).toEqual({ code, description: INVOKE_ERRORS[code].description });
    }
    const ok = await invoke(auth());
    expect(ok.status).toBe(202);
  });
});

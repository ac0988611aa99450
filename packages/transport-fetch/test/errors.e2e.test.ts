/**
 * Every error path: the service's rejections (from the sandbox), requests refused before they leave,
 * answers the spec does not describe (from a stub server), and misuse.
 */
import {
  INVOKE_ERRORS,
  INVOKE_INVALID,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  MT_INVALID,
  SMS_ERRORS,
  type InvokeErrorCode,
  type MtRequest,
  type SmsErrorCode,
} from '@smsv4/core';
import { createSandbox, DEFAULT_ACCOUNTS, type SandboxServer } from '@smsv4/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, SmsApiError, type FetchFunction, type SmsClient } from '../src/index.js';
import { account, fixture, globalFetch, invokeFixture, mtFixture, recordingFetch, sandboxFetch, startStub, type Stub } from './helpers.js';

const sandbox = createSandbox({
  accounts: [...DEFAULT_ACCOUNTS, { accountId: 'one-shot-demo', password: 'one-shot-demo-password', kind: 'demo', demo: { maxRequests: 1 } }],
});
let server: SandboxServer;
let stub: Stub;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  stub = await startStub();
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await stub.close();
});
beforeEach(() => sandbox.reset());

/** Runs `call` and returns what it rejected with (fails when it resolves or rejects with anything else). */
async function failure(call: Promise<unknown>): Promise<SmsApiError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(SmsApiError);
  return outcome.error as SmsApiError;
}

const text = mtFixture('mt-text.json');
const to = (address: string): MtRequest => ({ ...text, destination: { address } });

const transports: readonly [string, () => { baseUrl: string; fetch: FetchFunction }][] = [
  ['in-process handler', () => ({ baseUrl: 'http://sandbox.test', fetch: sandboxFetch(sandbox) })],
  ['real HTTP', () => ({ baseUrl: server.url, fetch: globalFetch })],
];

describe.each(transports)('rejections of the service over the %s', (_, transport) => {
  const client = (accountId = 'sandbox', password = `${accountId}-password`): SmsClient =>
    createClient({ ...transport(), accountId, password, retry: false });

  const expectSmsError = (error: SmsApiError, operation: string, code: SmsErrorCode, description: string = SMS_ERRORS[code].description) => {
    expect(error).toMatchObject({
      name: 'SmsApiError',
      kind: 'api-error',
      operation,
      code,
      description,
      httpStatus: SMS_ERRORS[code].httpStatus,
      retryable: false,
      reachedService: 'yes',
      attempts: 1,
    });
    expect(error.requestId).toMatch(/\S/);
    expect(error.raw?.response.status).toBe(SMS_ERRORS[code].httpStatus);
    expect(error.raw?.body).toContain(code);
    expect(error.message).toContain(code);
  };

  const expectInvokeError = (error: SmsApiError, code: InvokeErrorCode, description: string = INVOKE_ERRORS[code].description) => {
    expect(error).toMatchObject({ kind: 'api-error', operation: 'invokeService', code, description, httpStatus: INVOKE_ERRORS[code].httpStatus, reachedService: 'yes' });
    expect(error.requestId).toMatch(/\S/);
  };

  it('420 on every SMS operation with a wrong password (lookup spells it its own way)', async () => {
    const c = client('sandbox', 'wrong');
    expectSmsError(await failure(c.send(text)), 'send', '420');
    expectSmsError(await failure(c.getStatus('AAAAA-BBBBB-CCCCC-DDDDD')), 'status', '420');
    expectSmsError(await failure(c.lookup('14155550100')), 'lookup', '420', LOOKUP_CREDENTIALS_DESCRIPTION);
  });

  it('431 and 432 for accounts not provisioned or blocked', async () => {
    expectSmsError(await failure(client('not-provisioned').send(text)), 'send', '431');
    expectSmsError(await failure(client('blocked').send(text)), 'send', '432');
    expectSmsError(await failure(client('blocked').getStatus('AAAAA-BBBBB-CCCCC-DDDDD')), 'status', '432');
    expectSmsError(await failure(client('blocked').lookup('14155550100')), 'lookup', '432');
  });

  it("540 from the service, with the spec's description, when validation is turned off", async () => {
    const error = await failure(client().send(mtFixture('mt-invalid-destination.json'), { validate: false }));
    expectSmsError(error, 'send', '540', MT_INVALID.destinationAddress);
  });

  it('577 to 580, 591 and 592: the account limits of a send', async () => {
    expectSmsError(await failure(client().send(mtFixture('mt-demo-short-code.json'))), 'send', '577');
    expectSmsError(await failure(client('demo-expired').send(to('14155550100'))), 'send', '578');
    expectSmsError(await failure(client('demo').send(to('12125550100'))), 'send', '579');
    await client('one-shot-demo').send(text);
    expectSmsError(await failure(client('one-shot-demo').send(text)), 'send', '580');
    for (let i = 0; i < 3; i++) await client('capped').send(text);
    expectSmsError(await failure(client('capped').send(text)), 'send', '591');
    expectSmsError(await failure(client('north-america').send(mtFixture('mt-outside-north-america.json'))), 'send', '592');
  });

  it('711 for an unknown ticket, 345 for a number no operator serves', async () => {
    expectSmsError(await failure(client().getStatus('AAAAA-BBBBB-CCCCC-DDDDD')), 'status', '711');
    expectSmsError(await failure(client().lookup('4915112345678')), 'lookup', '345');
  });

  it('12009, 12001 and 12002 from Invoke Service', async () => {
    const request = invokeFixture('invoke-minimal.json');
    expectInvokeError(await failure(client('sandbox', 'wrong').invokeService('abc', request)), 12009);
    expectInvokeError(await failure(client('sms-only').invokeService('abc', request)), 12001);
    const reserved = { ...request, variables: { session: { NULL: 'x' } } };
    const error = await failure(client().invokeService('abc', reserved, { validate: false }));
    expectInvokeError(error, 12002, error.description);
    expect(error.description).toMatch(/^Invalid JSON in the payload - /);
  });
});

describe('requests refused before they leave', () => {
  const recorded = recordingFetch(sandboxFetch(sandbox));
  const c = createClient({ baseUrl: 'http://sandbox.test', ...account(), fetch: recorded });
  beforeEach(() => void recorded.calls.splice(0));

  it("refuses an invalid send with the service's 540 and description, without a network call", async () => {
    const error = await failure(c.send(mtFixture('mt-invalid-destination.json')));
    expect(error).toMatchObject({ kind: 'invalid-request', operation: 'send', code: '540', description: MT_INVALID.destinationAddress, reachedService: 'no', attempts: 0, retryable: false });
    expect(error.httpStatus).toBeUndefined();
    expect(recorded.calls).toHaveLength(0);
  });

  it('gives the same code and description the service gives for the same request', async () => {
    const local = await failure(c.send(mtFixture('mt-invalid-destination.json')));
    const remote = await failure(c.send(mtFixture('mt-invalid-destination.json'), { validate: false }));
    expect([local.code, local.description]).toEqual([remote.code, remote.description]);
    expect(recorded.calls).toHaveLength(1);
  });

  it('refuses an Invoke Service request the encoder cannot write, naming the rule (12002)', async () => {
    const empty = { endUser: { phoneNumber: '14155550100' }, variables: { session: {} } };
    const error = await failure(c.invokeService('abc', empty));
    expect(error).toMatchObject({ kind: 'invalid-request', code: 12002, description: INVOKE_INVALID.scopeEmpty.replace('{scope}', '"session"') });
    expect(recorded.calls).toHaveLength(0);
  });

  it('refuses a reserved variable key (12002) and a body over 8000 bytes (12007)', async () => {
    const reserved = await failure(c.invokeService('abc', { endUser: { phoneNumber: '14155550100' }, variables: { session: { NULL: 'x' } } }));
    expect(reserved).toMatchObject({ kind: 'invalid-request', code: 12002 });
    const big = 'x'.repeat(4000);
    const tooLarge = await failure(c.invokeService('abc', { endUser: { phoneNumber: '14155550100' }, variables: { session: { A: big, B: big } } }));
    expect(tooLarge).toMatchObject({ kind: 'invalid-request', code: 12007, description: INVOKE_ERRORS[12007].description });
    expect(recorded.calls).toHaveLength(0);
  });

  it('a malformed phone number is 12002 before it leaves', async () => {
    const error = await failure(c.invokeService('abc', { endUser: { phoneNumber: '+14155550100' } }));
    expect(error).toMatchObject({ kind: 'invalid-request', code: 12002, description: INVOKE_INVALID.phoneNumberMalformed });
  });
});

describe('answers the spec does not describe', () => {
  const c = (options: { retry?: false; maxResponseBytes?: number } = {}) => createClient({ baseUrl: stub.url, ...account(), ...options });

  it('202 without Location is an unexpected response, and the send is not repeated', async () => {
    stub.requests.splice(0);
    stub.script({ status: 202, headers: { 'x-request-id': 'req-1', 'content-length': '0' } });
    const error = await failure(c().send(text));
    expect(error).toMatchObject({ kind: 'unexpected-response', httpStatus: 202, requestId: 'req-1', reachedService: 'yes', retryable: false, attempts: 1 });
    expect(error.description).toMatch(/Location/);
    expect(stub.requests).toHaveLength(1);
  });

  it('an HTML error page from a proxy is an unexpected response; a send is not repeated', async () => {
    stub.requests.splice(0);
    stub.script({ status: 502, headers: { 'content-type': 'text/html' }, body: fixture('html-502.html') });
    const error = await failure(c().send(text));
    expect(error).toMatchObject({ kind: 'unexpected-response', httpStatus: 502, retryable: false });
    expect(error.raw?.body).toContain('502 Bad Gateway');
    expect(stub.requests).toHaveLength(1);
  });

  it('415 without a body is an unexpected response', async () => {
    stub.script({ status: 415, headers: { 'x-request-id': 'req-415', 'content-length': '0' } });
    const error = await failure(c().send(text));
    expect(error).toMatchObject({ kind: 'unexpected-response', httpStatus: 415, requestId: 'req-415' });
  });

  it('a 200 status whose body is not a status document is an unexpected response', async () => {
    stub.script({ status: 200, headers: { 'content-type': 'application/xml' }, body: fixture('error-1000.xml') });
    const error = await failure(c().getStatus('44101-0922I-13413-21GDL'));
    expect(error).toMatchObject({ kind: 'unexpected-response', operation: 'status', httpStatus: 200 });
  });

  it('a body over maxResponseBytes is not read', async () => {
    stub.script({ status: 200, headers: { 'content-type': 'application/xml' }, body: fixture('status-delivered.xml') });
    const error = await failure(c({ maxResponseBytes: 100 }).getStatus('44101-0922I-13413-21GDL'));
    expect(error).toMatchObject({ kind: 'unexpected-response', httpStatus: 200 });
    expect(error.description).toMatch(/over 100 bytes/);
  });

  it('reads a status document in the form the real service writes it', async () => {
    stub.script({ status: 200, headers: { 'content-type': 'application/xml;charset=UTF-8', 'x-request-id': '001-3-72879E62-6586-4F77-9E7B-1E74386F0223' }, body: fixture('status-delivered.xml') });
    const result = await c().getStatus('44101-0922I-13413-21GDL');
    expect(result.status).toMatchObject({ ticketId: '44101-0922I-13413-21GDL', code: 4, mobileOperatorId: 383 });
    expect(result.requestId).toBe('001-3-72879E62-6586-4F77-9E7B-1E74386F0223');
    expect(stub.requests.at(-1)?.headers.accept).toBe('application/xml');
  });
});

describe('misuse is a TypeError', () => {
  const c = createClient({ baseUrl: 'http://sandbox.test', ...account(), fetch: sandboxFetch(sandbox) });

  it('for a malformed ticket ID, phone number or service ID', async () => {
    await expect(c.getStatus('../../admin')).rejects.toBeInstanceOf(TypeError);
    await expect(c.lookup('+14155550100')).rejects.toBeInstanceOf(TypeError);
    await expect(c.invokeService('not-hex', invokeFixture('invoke-minimal.json'))).rejects.toBeInstanceOf(TypeError);
  });

  it('for bad options, at creation', () => {
    const base = { baseUrl: 'http://sandbox.test', ...account() };
    expect(() => createClient({ ...account() })).toThrow(TypeError);
    expect(() => createClient({ ...base, baseUrl: 'ftp://x' })).toThrow(TypeError);
    expect(() => createClient({ ...base, accountId: 'a:b' })).toThrow(TypeError);
    expect(() => createClient({ ...base, format: 'yaml' as 'json' })).toThrow(TypeError);
    expect(() => createClient({ ...base, timeoutMs: 0 })).toThrow(TypeError);
    expect(() => createClient({ ...base, retry: { send: { maxAttempts: 0 } } })).toThrow(TypeError);
    expect(() => createClient({ ...base, invokeServiceAuthentication: 'token' as 'basic' })).toThrow(TypeError);
  });

  it('for a bad per-call timeout', async () => {
    await expect(c.lookup('14155550100', { timeoutMs: -1 })).rejects.toBeInstanceOf(TypeError);
  });
});

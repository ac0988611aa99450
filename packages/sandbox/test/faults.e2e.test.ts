/** Fault injection over real HTTP: 1010, 1000, latency, drop-after-accept. */
import { decodeErrorRecord, decodeInvokeErrorBody, encodeMtRequest, INVOKE_ERRORS, SMS_ERRORS } from '@smsv4/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionDroppedError, createSandbox, type SandboxServer } from '../src/index.js';
import { auth, adminFetch } from './helpers.js';

const sandbox = createSandbox({ timeScale: 1000 });
const api = adminFetch(sandbox);
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

const body = encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content: 'fault test' } }, 'json');
const send = () => fetch(`${server.url}/sms/v4/mt`, { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body });
const addFault = (fault: Record<string, unknown>) =>
  api(`${server.url}/__sandbox/api/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });

describe('faults', () => {
  it('answers 1010 for the next N sends, stores nothing, then recovers', async () => {
    expect((await addFault({ operation: 'send', kind: '1010', count: 2 })).status).toBe(204);
    for (let i = 0; i < 2; i++) {
      const res = await send();
      expect(res.status).toBe(SMS_ERRORS['1010'].httpStatus);
      const record = decodeErrorRecord(await res.text(), 'json');
      expect(record.ok && record.value).toEqual({ code: '1010', description: SMS_ERRORS['1010'].description });
    }
    expect(sandbox.snapshot().messages).toHaveLength(0);
    expect((await send()).status).toBe(202);
  });

  it('answers 1000 on a send that was accepted all the same (the message may have gone out)', async () => {
    await addFault({ operation: 'send', kind: '1000' });
    const res = await send();
    expect(res.status).toBe(SMS_ERRORS['1000'].httpStatus);
    expect(res.headers.get('location')).toBeNull();
    const [message] = sandbox.snapshot().messages;
    expect(message?.timeline.map((t) => t.event)).toContain('answered 1000');
  });

  it('answers Invoke Service faults with its own codes', async () => {
    sandbox.addFault({ operation: 'invokeService', kind: '1010' });
    const res = await fetch(`${server.url}/service/v1/invokeService/abc`, {
      method: 'POST',
      headers: { authorization: auth(), 'content-type': 'application/json' },
      body: '{"endUser":{"phoneNumber":14155550100}}',
    });
    expect(res.status).toBe(INVOKE_ERRORS[1010].httpStatus);
    const decoded = decodeInvokeErrorBody(await res.text());
    expect(decoded.ok && decoded.value.code).toBe(1010);
  });

  it('delays a status request by latencyMs', async () => {
    await addFault({ operation: 'status', kind: 'latency', latencyMs: 300 });
    const started = performance.now();
    const res = await fetch(`${server.url}/sms/v4/mt/AAAAA-BBBBB-CCCCC-DDDDD/status`, { headers: { authorization: auth() } });
    expect(res.status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // The fault was for one call only.
    expect(await (await api(`${server.url}/__sandbox/api/faults`)).json()).toEqual([]);
  });

  it('drops the connection after accepting a send: the client sees a socket error, the status shows the message', async () => {
    await addFault({ operation: 'send', kind: 'drop-after-accept' });
    const error = await send().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    const [message] = sandbox.snapshot().messages;
    expect(message).toBeDefined();
    const res = await fetch(`${server.url}/sms/v4/mt/${message?.ticketId}/status`, { headers: { authorization: auth() } });
    expect(res.status).toBe(200);
    expect(message?.timeline.map((t) => t.event)).toContain('connection dropped');
    expect((await send()).status).toBe(202);
  });

  it('rejects in-process with a network-like TypeError', async () => {
    sandbox.addFault({ operation: 'send', kind: 'drop-after-accept' });
    const request = new Request('http://sandbox.test/sms/v4/mt', { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body });
    const error = await sandbox.fetch(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionDroppedError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as ConnectionDroppedError).ticketId).toBe(sandbox.snapshot().messages[0]?.ticketId);
  });

  it('refuses an invalid fault with 400 and clears faults with DELETE', async () => {
    const bad = await addFault({ operation: 'send', kind: 'explode' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid-fault');
    await addFault({ operation: 'send', kind: '1010', count: 5 });
    expect((await api(`${server.url}/__sandbox/api/faults`, { method: 'DELETE' })).status).toBe(204);
    expect((await send()).status).toBe(202);
  });
});

/** The sandbox's counters over real HTTP: the Prometheus text at /__sandbox/metrics and the snapshot's summary. */
import { encodeMtRequest, SMS_ERRORS } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type SandboxServer, type SandboxSnapshot } from '../src/index.js';
import { auth, startReceiver, type Receiver, adminFetch } from './helpers.js';

const clock = createManualClock();
let receiver: Receiver;
let sandbox: ReturnType<typeof createSandbox>;
let server: SandboxServer;
const api = adminFetch({ adminToken: 'admin-secret' });
beforeAll(async () => {
  receiver = await startReceiver();
  sandbox = createSandbox({ clock, retry: { initialDelayMs: 1_000 }, adminToken: 'admin-secret' });
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await receiver.close();
});

const admin = { authorization: 'Bearer admin-secret' };
const send = (destination: string) =>
  fetch(`${server.url}/sms/v4/mt`, {
    method: 'POST',
    headers: { authorization: auth(), 'content-type': 'application/json' },
    body: encodeMtRequest({ destination: { address: destination }, message: { type: 'text', content: 'Hi' }, delivery: { receiptRequested: 'final', url: `${receiver.url}/r` } }, 'json'),
  });

describe('sandbox metrics', () => {
  it('counts answers by operation, status and code, final parts and callback attempts, in the Prometheus text format', async () => {
    receiver.script(500);
    expect((await send('14155550100')).status).toBe(202);
    expect((await send('1')).status).toBe(SMS_ERRORS['540'].httpStatus);
    expect((await fetch(`${server.url}/sms/v4/nowhere`)).status).toBe(404);
    await clock.advance(1_000); // delivered: the receipt is refused once (500)…
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 50)); // the refusal is recorded and the retry scheduled
    await clock.advance(1_000); // …and delivered on the retry.
    await receiver.waitFor(2);
    await new Promise((r) => setTimeout(r, 50));

    const res = await fetch(`${server.url}/__sandbox/metrics`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text.split('\n')).toEqual([
      '# HELP smsv4_sandbox_requests_total Answers of the emulated service by operation, HTTP status and error code',
      '# TYPE smsv4_sandbox_requests_total counter',
      'smsv4_sandbox_requests_total{operation="send",status="202"} 1',
      `smsv4_sandbox_requests_total{operation="send",status="${SMS_ERRORS['540'].httpStatus}",code="540"} 1`,
      'smsv4_sandbox_requests_total{operation="other",status="404",code="12006"} 1',
      '# HELP smsv4_sandbox_final_parts_total Message parts that reached a final state, by code',
      '# TYPE smsv4_sandbox_final_parts_total counter',
      'smsv4_sandbox_final_parts_total{code="4"} 1',
      '# HELP smsv4_sandbox_callback_attempts_total Receipt and inbound callback attempts by kind and outcome',
      '# TYPE smsv4_sandbox_callback_attempts_total counter',
      'smsv4_sandbox_callback_attempts_total{kind="receipt",outcome="pending-retry"} 1',
      'smsv4_sandbox_callback_attempts_total{kind="receipt",outcome="delivered"} 1',
      '# HELP smsv4_sandbox_inbound_parts_total Inbound message parts injected',
      '# TYPE smsv4_sandbox_inbound_parts_total counter',
      'smsv4_sandbox_inbound_parts_total 0',
      '# HELP smsv4_sandbox_messages_stored Messages held in the store',
      '# TYPE smsv4_sandbox_messages_stored gauge',
      'smsv4_sandbox_messages_stored 1',
      '# HELP smsv4_sandbox_inbound_stored Inbound message parts held in the store',
      '# TYPE smsv4_sandbox_inbound_stored gauge',
      'smsv4_sandbox_inbound_stored 0',
      '',
    ]);

    const state = (await (await api(`${server.url}/__sandbox/api/state`, { headers: admin })).json()) as SandboxSnapshot;
    expect(state.metrics).toMatchObject({ sendsAccepted: 1, sendsRejected: 1, finalParts: { '4': 1 }, callbacks: { receipt: { 'pending-retry': 1, delivered: 1 } }, inbound: 0 });
  });

  it('asks for the admin token like the rest of the admin API, and starts again from zero on reset', async () => {
    expect((await fetch(`${server.url}/__sandbox/metrics`)).status).toBe(401);
    expect((await fetch(`${server.url}/__sandbox/metrics`, { method: 'POST', headers: admin })).status).toBe(405);
    await api(`${server.url}/__sandbox/api/reset`, { method: 'POST', headers: admin });
    const text = await (await fetch(`${server.url}/__sandbox/metrics`, { headers: admin })).text();
    expect(text).not.toContain('smsv4_sandbox_requests_total{');
    expect(text).toContain('smsv4_sandbox_messages_stored 0\n');
  });
});

describe('sandbox logger', () => {
  it('logs answers and callback attempts without credentials, numbers or content', async () => {
    const lines: [string, Record<string, unknown>, string][] = [];
    const logger = { info: (f: Record<string, unknown>, m: string) => void lines.push(['info', f, m]), warn: (f: Record<string, unknown>, m: string) => void lines.push(['warn', f, m]), error: (f: Record<string, unknown>, m: string) => void lines.push(['error', f, m]) };
    const logged = createSandbox({ clock, logger });
    const body = encodeMtRequest({ destination: { address: '14155550177' }, message: { type: 'text', content: 'secret code 4711' }, delivery: { receiptRequested: 'final', url: `${receiver.url}/r` } }, 'json');
    const res = await logged.fetch(new Request('http://sandbox.test/sms/v4/mt', { method: 'POST', headers: { authorization: auth(), 'content-type': 'application/json' }, body }));
    expect(res.status).toBe(202);
    const ticketId = res.headers.get('location')?.split('/').pop();
    await clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.map(([level, , message]) => [level, message])).toEqual([
      ['info', 'send answered 202'],
      ['info', `receipt callback for ${ticketId}: delivered`],
    ]);
    expect(lines[0]?.[1]).toMatchObject({ operation: 'send', status: 202, ticketId });
    const text = JSON.stringify(lines);
    for (const secret of ['14155550177', 'secret code', 'sandbox-password', auth()]) expect(text).not.toContain(secret);
    await logged.close();
  });
});

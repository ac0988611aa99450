/**
 * Passwords of callback URLs are never shown back: an inbound message injected with credentials in
 * its URL, and a send whose receipt URL carries them, show `user:***@` in the state, the message
 * pages, the admin API's answers, the change stream's snapshot and the log lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { auth, jsonSend, startReceiver, type Receiver } from './helpers.js';

const PASSWORD = 'pa55-w0rd!';
const clock = createManualClock();
const logs: string[] = [];
const record = (fields: unknown, message: string): void => void logs.push(JSON.stringify([fields, message]));
let sandbox: Sandbox;
let receiver: Receiver;
beforeAll(async () => {
  sandbox = createSandbox({ clock, logger: { info: record, warn: record, error: record } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

const admin = (path: string, init: RequestInit = {}): Promise<Response> =>
  sandbox.fetch(
    new Request(`http://127.0.0.1/__sandbox${path}`, {
      ...init,
      headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json', ...init.headers },
    }),
  );

/** Every surface where a callback URL could be shown. */
async function everythingShown(): Promise<string[]> {
  return [
    JSON.stringify(sandbox.snapshot()),
    JSON.stringify(sandbox.listMessages()),
    await (await admin('/api/state')).text(),
    await (await admin('/api/messages')).text(),
    logs.join('\n'),
  ];
}

describe('credentials of callback URLs', () => {
  it('are redacted for an inbound message injected through the admin API', async () => {
    const url = new URL(`${receiver.url}/in`);
    url.username = 'inbound-user';
    url.password = PASSWORD;
    const injected = await admin('/api/inbound', { method: 'POST', body: JSON.stringify({ from: '447700900123', to: '12345', text: 'hi', url: url.href }) });
    expect(injected.status).toBe(202);
    const before = receiver.received.length;
    await clock.advance(1000);
    await receiver.waitFor(before + 1);
    await expect.poll(() => sandbox.snapshot().callbacks.some((c) => c.kind === 'inbound' && c.outcome === 'delivered')).toBe(true);
    const shown = await everythingShown();
    for (const text of shown) expect(text).not.toContain(PASSWORD);
    const inbound = sandbox.snapshot().inbound[0];
    expect(inbound?.url).toBe(url.href.replace(`:${PASSWORD}@`, ':***@'));
  });

  it('are redacted for the receipt URL of a send, in the message and its callback attempts', async () => {
    const url = new URL(`${receiver.url}/receipts`);
    url.username = 'receipt-user';
    url.password = PASSWORD;
    const sent = await sandbox.fetch(
      new Request('http://127.0.0.1/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json' },
        body: jsonSend({ destination: { address: '14155550123' }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url: url.href } }),
      }),
    );
    expect(sent.status).toBe(202);
    const ticketId = sent.headers.get('location')?.split('/').pop();
    await clock.advance(1000);
    await expect.poll(() => sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketId)?.outcome).toBe('delivered');
    for (const text of await everythingShown()) expect(text).not.toContain(PASSWORD);
    const redacted = url.href.replace(`:${PASSWORD}@`, ':***@');
    expect(sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketId)?.url).toBe(redacted);
    expect(JSON.stringify(sandbox.snapshot().messages.find((m) => m.ticketId === ticketId))).toContain(redacted);
  });
});

/**
 * Callback timestamps at a chosen offset: receipts and inbound messages carry `deliveryDate` /
 * `submittedDate` in the time zone set at creation, through the admin API or `updateSettings`,
 * and denote the sandbox's own instant; status responses stay in UTC.
 */
import { decodeDeliveryReceipt, decodeMobileOriginate, decodeMtStatus, encodeMtRequest, parseTimestamp } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type SandboxChange, type SandboxServer } from '../src/index.js';
import { auth, startReceiver, type Receiver, adminFetch } from './helpers.js';

const START = Date.UTC(2025, 0, 1, 2, 30); // 02:30 UTC: at -05:00 it is still the day before
const clock = createManualClock({ start: START });
const sandbox = createSandbox({ clock, callbackTimestampOffset: '-05:00' });
const api = adminFetch(sandbox);
let receiver: Receiver;
let server: SandboxServer;
const changes: SandboxChange['kind'][] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  sandbox.subscribe((change) => changes.push(change.kind));
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await receiver.close();
});

async function send(format: 'json' | 'xml'): Promise<string> {
  const res = await sandbox.fetch(
    new Request('http://sandbox.test/sms/v4/mt', {
      method: 'POST',
      headers: { authorization: auth(), 'content-type': `application/${format}` },
      body: encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content: 'hi' }, delivery: { receiptRequested: 'final', url: receiver.url } }, format),
    }),
  );
  expect(res.status).toBe(202);
  return (res.headers.get('location') ?? '').split('/').pop() as string;
}

/** The next callback the receiver gets. */
async function next(): Promise<string> {
  const got = await receiver.waitFor(receiver.received.length + 1);
  return (got[got.length - 1] as { body: string }).body;
}

describe('callback timestamps at an offset', () => {
  it.each(['xml', 'json'] as const)('a %s receipt writes deliveryDate at the offset, denoting the delivery instant', async (format) => {
    const arriving = next();
    const ticketId = await send(format);
    await clock.advance(1000);
    const receipt = decodeDeliveryReceipt(await arriving, format);
    if (!receipt.ok) throw new Error(receipt.error.description);
    const date = receipt.value.mtStatus.deliveryDate as string;
    expect(date).toMatch(/^2024-12-31T21:\d\d:\d\d\.\d{3}-05:00$/);
    const read = parseTimestamp(date);
    expect(read.ok && read.value.epochMs).toBe(clock.now());
    // The status response stays in UTC.
    const status = await sandbox.fetch(new Request(`http://sandbox.test/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth() } }));
    const decoded = decodeMtStatus(await status.text(), 'xml');
    expect(decoded.ok && decoded.value.deliveryDate).toBe(new Date(clock.now()).toISOString());
  });

  it('an inbound message writes submittedDate at the offset; updateSettings changes it for what comes next', async () => {
    let arriving = next();
    sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'first', url: receiver.url });
    let mo = decodeMobileOriginate(await arriving, 'xml');
    expect(mo.ok && mo.value.submittedDate).toBe(new Date(clock.now() - 5 * 3_600_000).toISOString().replace('Z', '-05:00'));
    expect(sandbox.updateSettings({ callbackTimestampOffset: '+14:00' })).toStrictEqual({ callbackTimestampOffset: '+14:00' });
    expect(changes).toContain('settings');
    arriving = next();
    sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'second', url: receiver.url });
    mo = decodeMobileOriginate(await arriving, 'xml');
    const date = mo.ok ? (mo.value.submittedDate as string) : '';
    expect(date.endsWith('+14:00')).toBe(true);
    expect(parseTimestamp(date).ok && parseTimestamp(date)).toMatchObject({ value: { epochMs: clock.now(), offsetMinutes: 840 } });
    expect(sandbox.snapshot().settings).toStrictEqual({ callbackTimestampOffset: '+14:00' });
    sandbox.reset();
    expect(sandbox.settings()).toStrictEqual({ callbackTimestampOffset: '+14:00' });
    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
  });

  it('the admin API reads and changes the setting, and refuses an invalid one with the reason', async () => {
    const url = `${server.url}/__sandbox/api/settings`;
    expect(await (await api(url)).json()).toStrictEqual({ callbackTimestampOffset: '-05:00' });
    const put = (body: unknown) => api(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const changed = await put({ callbackTimestampOffset: 'Z' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toStrictEqual({ callbackTimestampOffset: 'Z' });
    const arriving = next();
    sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'utc', url: receiver.url });
    const mo = decodeMobileOriginate(await arriving, 'xml');
    expect(mo.ok && mo.value.submittedDate).toBe(new Date(clock.now()).toISOString());
    for (const [body, description] of [
      [{ callbackTimestampOffset: '+15:00' }, 'callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00 (offset +15:00 is beyond ±14:00)'],
      [{ callbackTimestampOffset: 'EST' }, 'callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00 (expected a time zone Z or ±hh:mm)'],
      [{ callbackTimestampOffset: -300 }, 'callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00'],
      [{ timeScale: 2 }, 'unknown setting "timeScale"'],
      [['Z'], 'the settings must be a JSON object'],
    ] as const) {
      const refused = await put(body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toStrictEqual({ error: { code: 'invalid-settings', description } });
    }
    expect((await api(url, { method: 'POST' })).status).toBe(405);
    expect(sandbox.settings()).toStrictEqual({ callbackTimestampOffset: 'Z' });
  });

  it('refuses an invalid offset at creation and in updateSettings with a TypeError', () => {
    expect(() => createSandbox({ callbackTimestampOffset: '+5' })).toThrow(
      new TypeError('callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00 (expected a time zone Z or ±hh:mm)'),
    );
    expect(() => sandbox.updateSettings({ callbackTimestampOffset: '-14:30' })).toThrow(
      new TypeError('callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00 (offset -14:30 is beyond ±14:00)'),
    );
  });

  it('writes UTC with milliseconds by default', async () => {
    const plain = createSandbox({ clock });
    expect(plain.settings()).toStrictEqual({ callbackTimestampOffset: 'Z' });
    await plain.close();
  });
});

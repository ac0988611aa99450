/**
 * Delivery simulation and receipts over real HTTP: receipts in both formats reaching a local
 * receiver with the right headers, retries after 500 and after a dropped connection, multipart
 * transitions (831 → 4, 831 → 830), 711 after five days, 811 expiry.
 */
import { decodeDeliveryReceipt, decodeErrorRecord, decodeMtStatus, encodeMtRequest, type MtRequest, type MtStatus } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type SandboxServer } from '../src/index.js';
import { auth, eventually, startReceiver, type Receiver } from './helpers.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function send(url: string, mt: MtRequest, format: 'json' | 'xml' = 'json'): Promise<string> {
  const res = await fetch(`${url}/sms/v4/mt`, {
    method: 'POST',
    headers: { authorization: auth(), 'content-type': format === 'json' ? 'application/json' : 'application/xml' },
    body: encodeMtRequest(mt, format),
  });
  expect(res.status).toBe(202);
  return (res.headers.get('location') ?? '').split('/').pop() as string;
}

async function status(url: string, ticketId: string): Promise<MtStatus> {
  const res = await fetch(`${url}/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth(), accept: 'application/json' } });
  const decoded = decodeMtStatus(await res.text(), 'json');
  if (!decoded.ok) throw new Error(`status ${res.status}: ${decoded.error.description}`);
  return decoded.value;
}

const withReceipt = (destination: string, content: string, extra: Partial<MtRequest['message']> = {}): MtRequest => ({
  destination: { address: destination },
  source: { address: 'ACME', ton: 5 },
  message: { type: 'text', content, ...extra },
  options: { note1: 'n1', note2: 'n2' },
  delivery: { receiptRequested: 'final', url: receiver.url },
});

describe('with a manual clock', () => {
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

  it.each(['xml', 'json'] as const)('posts one %s receipt with the headers of the spec', async (format) => {
    const before = receiver.received.length;
    const ticketId = await send(server.url, withReceipt('14155550100', 'Your code is 1234'), format);
    await clock.advance(1000);
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    expect(got?.method).toBe('POST');
    expect(got?.headers['x-api-version']).toBe('4');
    expect(got?.headers['content-type']).toMatch(format === 'json' ? /^application\/json;\s*charset=UTF-8$/ : /^application\/xml;\s*charset=UTF-8$/);
    expect(got?.headers['user-agent']).toBe('smsv4-sandbox');
    expect(Number(got?.headers['content-length'])).toBe(Buffer.byteLength(got?.body ?? ''));
    const receipt = decodeDeliveryReceipt(got?.body ?? '', format);
    if (!receipt.ok) throw new Error(receipt.error.description);
    expect(receipt.value).toEqual({
      type: 'final',
      mtStatus: {
        ticketId,
        deliveryDate: new Date(clock.now()).toISOString(),
        code: 4,
        description: 'Message delivered',
        note1: 'n1',
        note2: 'n2',
        mobileOperatorId: 383,
      },
      destination: { address: '14155550100', mobileOperatorId: 383, alpha2Code: 'US' },
      source: { address: 'ACME', ton: 5 },
    });
  });

  it('sends no receipt without delivery, and none when neither delivery.url nor the account has a URL', async () => {
    const before = receiver.received.length;
    const { delivery: _delivery, ...noDelivery } = withReceipt('14155550100', 'no receipt');
    const a = await send(server.url, noDelivery);
    const b = await send(server.url, { ...noDelivery, delivery: { receiptRequested: 'final' } });
    await clock.advance(2000);
    expect((await status(server.url, a)).code).toBe(4);
    expect((await status(server.url, b)).code).toBe(4);
    await new Promise((r) => setTimeout(r, 50));
    expect(receiver.received.length).toBe(before);
    const view = sandbox.snapshot().messages.find((m) => m.ticketId === b);
    expect(view?.timeline.some((t) => t.event === 'no receipt URL')).toBe(true);
  });

  it('moves a multipart message 2 → 3 → 831 → 4, one receipt per part', async () => {
    const before = receiver.received.length;
    const text = 'a'.repeat(300);
    const ticketId = await send(server.url, withReceipt('14155550101', text, { mlc: 'segment' }));
    const s0 = await status(server.url, ticketId);
    expect(s0.totalSegments).toBe(2);
    expect(s0.segments?.map((s) => s.code)).toEqual([2, 2]);
    await clock.advance(500);
    expect((await status(server.url, ticketId)).segments?.map((s) => s.code)).toEqual([3, 3]);
    await clock.advance(550);
    const middle = await status(server.url, ticketId);
    expect(middle.code).toBe(831);
    expect(middle.segments?.map((s) => s.code)).toEqual([4, 3]);
    expect(middle.segments?.[0]?.deliveryDate).toBeDefined();
    expect(middle.segments?.[1]?.deliveryDate).toBeUndefined();
    await clock.advance(100);
    const final = await status(server.url, ticketId);
    expect(final.code).toBe(4);
    expect(final.segments?.map((s) => [s.segmentNumber, s.code])).toEqual([
      [1, 4],
      [2, 4],
    ]);
    const receipts = (await receiver.waitFor(before + 2)).slice(before).map((r) => decodeDeliveryReceipt(r.body, 'json'));
    expect(receipts.map((r) => r.ok && [r.value.mtStatus.segmentNumber, r.value.mtStatus.totalSegments, r.value.mtStatus.code])).toEqual([
      [1, 2, 4],
      [2, 2, 4],
    ]);
    const view = sandbox.snapshot().messages.find((m) => m.ticketId === ticketId);
    expect(view?.parts.map((p) => p.text)).toEqual(['a'.repeat(153), 'a'.repeat(147)]);
    expect(view?.encoding).toBe('GSM');
  });

  it('summarises 830 when a part fails (scenario fail-part), and reports it in that part’s receipt', async () => {
    const before = receiver.received.length;
    sandbox.setScenario('14155550102', { kind: 'fail-part', segmentNumber: 2 });
    const ticketId = await send(server.url, withReceipt('14155550102', 'b'.repeat(200), { mlc: 'segment' }));
    await clock.advance(1050);
    expect((await status(server.url, ticketId)).code).toBe(831);
    await clock.advance(100);
    const final = await status(server.url, ticketId);
    expect(final).toMatchObject({ code: 830, description: 'Partial message delivery failure' });
    expect(final.segments?.map((s) => s.code)).toEqual([4, 811]);
    const receipts = (await receiver.waitFor(before + 2)).slice(before).map((r) => decodeDeliveryReceipt(r.body, 'json'));
    expect(receipts.map((r) => r.ok && [r.value.mtStatus.segmentNumber, r.value.mtStatus.code])).toEqual([
      [1, 4],
      [2, 811],
    ]);
  });

  it('keeps a part at 3 without a receipt under no-receipt (summary 831)', async () => {
    const before = receiver.received.length;
    sandbox.setScenario('14155550103', { kind: 'no-receipt', segmentNumber: 1 });
    const ticketId = await send(server.url, withReceipt('14155550103', 'c'.repeat(200), { mlc: 'segment' }));
    await clock.advance(60_000);
    const final = await status(server.url, ticketId);
    expect(final.code).toBe(831);
    expect(final.segments?.map((s) => s.code)).toEqual([3, 4]);
    const receipts = (await receiver.waitFor(before + 1)).slice(before);
    await new Promise((r) => setTimeout(r, 50));
    expect(receipts.length).toBe(1);
  });

  it('expires a message after its validity period (811) and, under expired, after an hour', async () => {
    sandbox.setScenario('14155550104', { kind: 'delayed', delayMs: 120_000 });
    const withValidity = await send(server.url, withReceipt('14155550104', 'short-lived', { validityPeriod: 60 }));
    sandbox.setScenario('14155550105', { kind: 'expired' });
    const noValidity = await send(server.url, withReceipt('14155550105', 'never arrives'));
    await clock.advance(59_999);
    expect((await status(server.url, withValidity)).code).toBe(3);
    await clock.advance(1);
    expect(await status(server.url, withValidity)).toMatchObject({ code: 811, description: 'Message expired before it reached handset' });
    expect((await status(server.url, noValidity)).code).toBe(3);
    await clock.advance(3_600_000);
    expect((await status(server.url, noValidity)).code).toBe(811);
  });

  it('fails the message with the mlc code when reject meets content over one part', async () => {
    const ticketId = await send(server.url, withReceipt('14155550106', 'd'.repeat(161)));
    await clock.advance(1000);
    const final = await status(server.url, ticketId);
    expect(final.code).toBe(351);
    expect(final.segments).toBeUndefined();
  });

  it('truncates under mlc truncate and refuses more parts than the operator takes under segment', async () => {
    const truncated = await send(server.url, withReceipt('14155550107', 'e'.repeat(400), { mlc: 'truncate' }));
    // Verizon (sample) takes 6 parts: 7 × 153 septets is too many.
    const tooLong = await send(server.url, withReceipt('12025550100', 'f'.repeat(153 * 6 + 1), { mlc: 'segment' }));
    const fits = await send(server.url, withReceipt('12025550101', 'f'.repeat(153 * 6), { mlc: 'segment' }));
    await clock.advance(2000);
    const views = sandbox.snapshot().messages;
    expect(views.find((m) => m.ticketId === truncated)?.parts.map((p) => p.text)).toEqual(['e'.repeat(160)]);
    expect((await status(server.url, truncated)).code).toBe(4);
    expect((await status(server.url, tooLong)).code).toBe(351);
    expect((await status(server.url, fits)).totalSegments).toBe(6);
  });

  it('answers 711 once five simulated days have passed', async () => {
    const ticketId = await send(server.url, withReceipt('14155550108', 'old news'));
    await clock.advance(5 * 24 * 3_600_000);
    expect((await status(server.url, ticketId)).code).toBe(4);
    await clock.advance(1);
    const res = await fetch(`${server.url}/sms/v4/mt/${ticketId}/status`, { headers: { authorization: auth() } });
    expect(res.status).toBe(404);
    const record = decodeErrorRecord(await res.text(), 'xml');
    expect(record.ok && record.value.code).toBe('711');
  });
});

describe('retries with a scaled clock', () => {
  // One simulated second per real millisecond: the first retry comes 10 ms after a failure.
  const sandbox = createSandbox({ timeScale: 1000 });
  let server: SandboxServer;
  beforeAll(async () => {
    server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
    await sandbox.close();
  });

  it.each([
    ['an HTTP 500', 500 as const],
    ['a dropped connection', 'drop' as const],
    ['an HTTP 201 (only 200 settles a receipt)', 201 as const],
  ])('retries a receipt after %s until the receiver takes it', async (_, failure) => {
    const before = receiver.received.length;
    receiver.script(failure, failure);
    const ticketId = await send(server.url, withReceipt('14155550100', 'retry me'));
    const got = (await receiver.waitFor(before + 3)).slice(before);
    expect(got.map((g) => g.answer)).toEqual([failure, failure, 200]);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    const attempts = await eventually(() => {
      const list = sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);
      return list.length === 3 ? list.reverse() : undefined;
    });
    expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'pending-retry'],
      [2, 'pending-retry'],
      [3, 'delivered'],
    ]);
    if (failure === 500) {
      expect(attempts[0]?.httpStatus).toBe(500);
      expect(attempts[0]?.responseBody).toBe('receiver says 500');
    } else if (failure === 201) {
      expect(attempts[0]?.httpStatus).toBe(201);
    } else {
      expect(attempts[0]?.httpStatus).toBeUndefined();
      expect(attempts[0]?.error).toBeTruthy();
    }
    expect(attempts[0]?.nextAttemptAt).toBeDefined();
    expect(attempts[2]?.httpStatus).toBe(200);
    expect(typeof attempts[2]?.durationMs).toBe('number');
    const timeline = sandbox.snapshot().messages.find((m) => m.ticketId === ticketId)?.timeline.map((t) => t.event);
    expect(timeline).toContain('receipt delivered');
  });

  it('counts a receiver that does not answer in time as a failure, and retries', async () => {
    const patient = createSandbox({ timeScale: 1000, callbackTimeoutMs: 200 });
    const patientServer = await patient.listen({ port: 0, host: '127.0.0.1' });
    try {
      receiver.script('hang');
      const ticketId = await send(patientServer.url, withReceipt('14155550100', 'slow receiver'));
      const attempts = await eventually(() => {
        const list = patient.snapshot().callbacks.filter((c) => c.ticketId === ticketId);
        return list.length === 2 ? list.reverse() : undefined;
      });
      expect(attempts[0]).toMatchObject({ outcome: 'pending-retry', error: 'timeout after 200 ms' });
      expect(attempts[0]?.durationMs).toBeGreaterThanOrEqual(190);
      expect(attempts[1]).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
    } finally {
      await patientServer.close();
      await patient.close();
    }
  });

  it('gives up once the retry window is spent', async () => {
    const clock = createManualClock();
    const quick = createSandbox({ clock, retry: { receiptWindowMs: 60_000, initialDelayMs: 10_000, maxDelayMs: 20_000 } });
    const quickServer = await quick.listen({ port: 0, host: '127.0.0.1' });
    try {
      receiver.script(...Array<number>(20).fill(503));
      const ticketId = await send(quickServer.url, withReceipt('14155550100', 'nobody home'));
      const attempts = () => quick.snapshot().callbacks.filter((c) => c.ticketId === ticketId).reverse();
      // Attempts at 1 s, 11 s, 31 s and 51 s; the next one (71 s) would fall past the 60 s window.
      for (const [step, count] of [
        [1000, 1],
        [10_000, 2],
        [20_000, 3],
        [20_000, 4],
      ] as const) {
        await clock.advance(step);
        await eventually(() => (attempts().length === count ? true : undefined));
      }
      expect(attempts().map((a) => a.outcome)).toEqual(['pending-retry', 'pending-retry', 'pending-retry', 'gave-up']);
      await clock.advance(3_600_000);
      expect(attempts()).toHaveLength(4);
      expect(quick.snapshot().messages[0]?.timeline.at(-1)?.event).toBe('receipt failed, gave up');
    } finally {
      receiver.script();
      await quickServer.close();
      await quick.close();
    }
  });
});

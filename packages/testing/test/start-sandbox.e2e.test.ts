/**
 * startSandbox: a real sandbox on loopback, on the stepping manual clock, posting to a recording
 * receiver; and the teardown scope of the runner entry (this package's own vitest setup file).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger, startCallbackReceiver, startSandbox, type CallbackReceiver, type TestSandbox } from '../src/index.js';

/** Whether something listens on a loopback port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });

describe('startSandbox', () => {
  let sms: TestSandbox;
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    sms = await startSandbox({ callbackTimeoutMs: 500 });
    receiver = await startCallbackReceiver();
  });

  it('listens on loopback with the first account and a manual clock', async () => {
    expect(sms.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sms.client).toEqual({ baseUrl: sms.url, accountId: 'sandbox', password: 'sandbox-password' });
    expect(sms.clock.now()).toBe(Date.UTC(2025, 0, 1));
    const response = await fetch(`${sms.url}/sms/v4/mt/44101-0922I-13413-21GDL/status`, { headers: { authorization: sms.authorization } });
    expect(response.status).toBe(404);
  });

  it('posts receipts when the clock moves, and has them answered before advance resolves', async () => {
    const sent = await sms.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' }, delivery: { receiptRequested: 'final', url: receiver.url } });
    if (!sent.ok) throw new Error(sent.error.description);
    expect(receiver.received).toHaveLength(0);
    await sms.advance(60_000);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.body).toBeDeliveryReceipt({ ticketId: sent.value.ticketId, code: 4 });
    // The recorded request itself: its Content-Type names the format.
    expect(receiver.received[0]).toBeDeliveryReceipt({ ticketId: sent.value.ticketId });
    expect(sms.callbacks(sent.value.ticketId)).toMatchObject([{ attempt: 1, outcome: 'delivered', httpStatus: 200 }]);
  });

  it('runs retries that fall due within one step, in order and on time', async () => {
    receiver.script(500, 'drop');
    const sent = await sms.send({ destination: { address: '14155550101' }, message: { type: 'text', content: 'retry' }, delivery: { receiptRequested: 'final', url: receiver.url } }, { format: 'xml' });
    if (!sent.ok) throw new Error(sent.error.description);
    const before = sms.clock.now();
    await sms.advance(120_000);
    const attempts = sms.callbacks(sent.value.ticketId);
    expect(attempts.map((a) => a.outcome)).toEqual(['pending-retry', 'pending-retry', 'delivered']);
    const at = attempts.map((a) => Date.parse(a.at) - before);
    expect(at[1]! - at[0]!).toBe(10_000);
    expect(at[2]! - at[1]!).toBe(20_000);
    expect(sms.clock.now() - before).toBe(120_000);
  });

  it('answers what the service answers: 540 for a request it rejects', async () => {
    const answer = await fetch(`${sms.url}/sms/v4/mt`, { method: 'POST', headers: { authorization: sms.authorization, 'content-type': 'application/json' }, body: '{"mobileTerminate":{"message":{"type":"text","content":"Hi"}}}' });
    expect({ status: answer.status, headers: answer.headers, body: await answer.text() }).toFailWith540('destination address is required');
  });
});

describe('teardown', () => {
  let port = 0;
  it('closes a sandbox started in a test after that test', async () => {
    const sms = await startSandbox();
    port = sms.port;
    expect(await listening(port)).toBe(true);
  });

  it('... so it is closed by the next one', async () => {
    expect(port).toBeGreaterThan(0);
    expect(await listening(port)).toBe(false);
  });

  it('closes once, by hand or with await using', async () => {
    const sms = await startSandbox({ teardown: 'manual' });
    await Promise.all([sms.close(), sms.close()]);
    expect(await listening(sms.port)).toBe(false);
    let disposed: number;
    {
      await using receiver = await startCallbackReceiver({ teardown: 'manual' });
      disposed = Number(new URL(receiver.url).port);
      expect(await listening(disposed)).toBe(true);
    }
    expect(await listening(disposed)).toBe(false);
  });

  it('hands the close function to a hook of your own', async () => {
    const closes: Array<() => Promise<void>> = [];
    const sms = await startSandbox({ teardown: (close) => closes.push(close) });
    expect(closes).toHaveLength(1);
    await closes[0]?.();
    expect(await listening(sms.port)).toBe(false);
  });

  it('refuses to start what nothing would close', async () => {
    const key = Symbol.for('@smsv4/testing/teardown-scope');
    const scope = (globalThis as Record<symbol, unknown>)[key];
    delete (globalThis as Record<symbol, unknown>)[key];
    try {
      await expect(startSandbox()).rejects.toThrow(
        "startSandbox cannot close itself: add '@smsv4/testing/vitest' (or '@smsv4/testing/jest') to the test runner's setup files, or pass { teardown: afterAll }, or { teardown: 'manual' } and call close()",
      );
      await expect(startCallbackReceiver()).rejects.toThrow('startCallbackReceiver cannot close itself');
    } finally {
      (globalThis as Record<symbol, unknown>)[key] = scope;
    }
  });
});

describe('a sandbox started in beforeAll', () => {
  let sms: TestSandbox;
  beforeAll(async () => {
    sms = await startSandbox();
  });
  afterAll(async () => {
    // Still open after the last test of the block: the file scope closes it after the file.
    expect(await listening(sms.port)).toBe(true);
  });
  it('stays open across the tests of the file', async () => {
    expect(await listening(sms.port)).toBe(true);
  });
  it('... still', async () => {
    expect(await listening(sms.port)).toBe(true);
  });
});

describe('a sandbox started with a logger', () => {
  it("hands the sandbox's logger option over: one line per answer and per callback attempt, without credentials, numbers or content", async () => {
    const logger = createMemoryLogger();
    const sms = await startSandbox({ logger });
    const receiver = await startCallbackReceiver();
    const sent = await sms.send({ destination: { address: '14155550177' }, message: { type: 'text', content: 'secret code 4711' }, delivery: { receiptRequested: 'final', url: receiver.url } });
    if (!sent.ok) throw new Error(sent.error.description);
    const { ticketId } = sent.value;
    await sms.advance(60_000);
    expect(receiver.received).toHaveLength(1);
    expect(logger.lines.map(({ level, message }) => [level, message])).toEqual([
      ['info', 'send answered 202'],
      ['info', `receipt callback for ${ticketId}: delivered`],
    ]);
    expect(logger.lines[0]?.fields).toMatchObject({ operation: 'send', status: 202, ticketId });
    expect(logger.lines[1]?.fields).toMatchObject({ kind: 'receipt', ticketId, attempt: 1, outcome: 'delivered', httpStatus: 200 });
    for (const secret of ['14155550177', 'secret code', 'sandbox-password', sms.authorization]) expect(logger.text()).not.toContain(secret);
  });
});

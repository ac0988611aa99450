/**
 * The retry policy against injected faults: what is retried, after how long, and above all that a
 * send whose fate is unknown is never sent twice.
 */
import { INVOKE_ERRORS, SMS_ERRORS } from '@smsv4/core';
import { createSandbox, type SandboxServer } from '@smsv4/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, SmsApiError, type AttemptEvent, type ClientOptions, type FetchFunction } from '../src/index.js';
import { account, fixture, freePort, globalFetch, invokeFixture, mtFixture, recordingFetch, sandboxFetch, startStub, type Stub } from './helpers.js';

const sandbox = createSandbox();
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
beforeEach(() => {
  sandbox.reset();
  stub.requests.splice(0);
});

const text = mtFixture('mt-text.json');
const invoke = invokeFixture('invoke-minimal.json');

async function failure(call: Promise<unknown>): Promise<SmsApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsApiError);
  return error as SmsApiError;
}

/** Polls until `check` holds (bounded). */
async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const transports: readonly [string, () => { baseUrl: string; fetch: FetchFunction }][] = [
  ['in-process handler', () => ({ baseUrl: 'http://sandbox.test', fetch: sandboxFetch(sandbox) })],
  ['real HTTP', () => ({ baseUrl: server.url, fetch: globalFetch })],
];

describe.each(transports)('sends over the %s', (_, transport) => {
  const client = (options: Partial<ClientOptions> = {}) => {
    const { baseUrl, fetch } = transport();
    const recorded = recordingFetch(fetch);
    const events: AttemptEvent[] = [];
    const c = createClient({ baseUrl, ...account(), fetch: recorded, onAttempt: (e) => events.push(e), ...options });
    return { c, recorded, events };
  };

  it('1010 then success: retried once, after the configured interval, one message', async () => {
    sandbox.addFault({ operation: 'send', kind: '1010' });
    const { c, recorded, events } = client({ retry: { send: { temporaryErrorDelayMs: 150 } } });
    const sent = await c.send(text);
    expect(sent.attempts).toBe(2);
    expect(recorded.calls).toHaveLength(2);
    expect(events.map((e) => e.error?.code)).toEqual(['1010', undefined]);
    expect(events[0]?.error).toMatchObject({ kind: 'api-error', retryable: true, httpStatus: SMS_ERRORS['1010'].httpStatus });
    expect(events[0]?.nextDelayMs).toBeGreaterThanOrEqual(150);
    const gap = (events[1]?.startedAt ?? 0) - ((events[0]?.startedAt ?? 0) + (events[0]?.durationMs ?? 0));
    expect(gap).toBeGreaterThanOrEqual(140);
    expect(sandbox.snapshot().messages.map((m) => m.ticketId)).toEqual([sent.ticketId]);
  });

  it('1010 with the default policy waits at least the 10 s the spec asks for (aborted during the wait)', async () => {
    sandbox.addFault({ operation: 'send', kind: '1010' });
    const controller = new AbortController();
    const { c, recorded, events } = client({ onAttempt: (e) => (events.push(e), setTimeout(() => controller.abort(new Error('shutting down')), 20)) });
    const error = await failure(c.send(text, { signal: controller.signal }));
    expect(events[0]?.nextDelayMs).toBeGreaterThanOrEqual(10_000);
    expect(events[0]?.nextDelayMs).toBeLessThanOrEqual(11_000);
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1, retryable: false });
    expect((error.cause as Error).message).toBe('shutting down');
    expect(recorded.calls).toHaveLength(1);
    expect(sandbox.snapshot().messages).toHaveLength(0);
  });

  it('1000 is not retried: the message may already have gone out', async () => {
    sandbox.addFault({ operation: 'send', kind: '1000' });
    const { c, recorded, events } = client();
    const error = await failure(c.send(text));
    expect(error).toMatchObject({ kind: 'api-error', code: '1000', retryable: false, attempts: 1, reachedService: 'yes' });
    expect(events[0]?.nextDelayMs).toBeUndefined();
    expect(recorded.calls).toHaveLength(1);
    expect(sandbox.snapshot().messages).toHaveLength(1);
  });

  it('a connection dropped after acceptance is not retried: one message, never two', async () => {
    sandbox.addFault({ operation: 'send', kind: 'drop-after-accept' });
    const { c, recorded } = client();
    const error = await failure(c.send(text));
    expect(error).toMatchObject({ kind: 'network', reachedService: 'unknown', retryable: false, attempts: 1 });
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(recorded.calls).toHaveLength(1);
    expect(sandbox.snapshot().messages).toHaveLength(1);
  });

  it('a timeout is not retried, even when the service takes the message after it', async () => {
    sandbox.addFault({ operation: 'send', kind: 'latency', latencyMs: 400 });
    const { c, recorded } = client({ timeoutMs: 100 });
    const error = await failure(c.send(text));
    // Handed back before the service answered: it has not taken the message yet.
    expect(sandbox.snapshot().messages).toHaveLength(0);
    expect(error).toMatchObject({ kind: 'timeout', reachedService: 'unknown', retryable: false, attempts: 1 });
    await eventually(() => sandbox.snapshot().messages.length > 0);
    expect(sandbox.snapshot().messages).toHaveLength(1);
    expect(recorded.calls).toHaveLength(1);
  });

  it('a send waits for a slow acceptance by default instead of timing out into an unknown outcome', async () => {
    sandbox.addFault({ operation: 'send', kind: 'latency', latencyMs: 300 });
    const { c, recorded } = client();
    const sent = await c.send(text);
    expect(sent.attempts).toBe(1);
    expect(recorded.calls[0]?.init.signal).toBeUndefined();
    expect(sandbox.snapshot().messages.map((m) => m.ticketId)).toEqual([sent.ticketId]);
  });

  it('a slow status is retried after its timeout', async () => {
    const { c: sender } = client();
    const { ticketId } = await sender.send(text);
    sandbox.addFault({ operation: 'status', kind: 'latency', latencyMs: 500 });
    const { c, events } = client({ timeoutMs: 150, retry: { status: { initialDelayMs: 10 } } });
    const result = await c.getStatus(ticketId);
    expect(result.attempts).toBe(2);
    expect(result.status.ticketId).toBe(ticketId);
    expect(events[0]?.error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('status and lookup 1010 are retried', async () => {
    const { c: sender } = client();
    const { ticketId } = await sender.send(text);
    sandbox.addFault({ operation: 'status', kind: '1010' });
    sandbox.addFault({ operation: 'lookup', kind: '1010' });
    const { c } = client({ retry: { status: { temporaryErrorDelayMs: 20 }, lookup: { temporaryErrorDelayMs: 20 } } });
    expect((await c.getStatus(ticketId)).attempts).toBe(2);
    expect((await c.lookup('14155550100')).attempts).toBe(2);
  });

  it('Invoke Service 1010 follows its own guidance: 15 minutes, so handed back by default', async () => {
    sandbox.addFault({ operation: 'invokeService', kind: '1010' });
    const { c, recorded } = client();
    const error = await failure(c.invokeService('abc', invoke));
    const guidance = INVOKE_ERRORS[1010].retry;
    expect(error).toMatchObject({ kind: 'api-error', code: 1010, retryable: true, attempts: 1 });
    expect(error.retryAfterMs).toBe(guidance.retryable ? guidance.minIntervalMs : NaN);
    expect(recorded.calls).toHaveLength(1);
  });

  it('Invoke Service 1010 is retried in the call when its interval is configured', async () => {
    sandbox.addFault({ operation: 'invokeService', kind: '1010' });
    const { c } = client({ retry: { invokeService: { temporaryErrorDelayMs: 30 } } });
    const result = await c.invokeService('abc', invoke);
    expect(result.attempts).toBe(2);
    expect(sandbox.snapshot().invocations.filter((i) => i.outcome === 'accepted')).toHaveLength(1);
  });

  it('Invoke Service 1000 is permanent: not retried', async () => {
    sandbox.addFault({ operation: 'invokeService', kind: '1000' });
    const { c, recorded } = client({ retry: { invokeService: { temporaryErrorDelayMs: 30 } } });
    expect(await failure(c.invokeService('abc', invoke))).toMatchObject({ code: 1000, retryable: false });
    expect(recorded.calls).toHaveLength(1);
  });

  it('aborts a call in flight', async () => {
    sandbox.addFault({ operation: 'lookup', kind: 'latency', latencyMs: 500 });
    const { c } = client();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await failure(c.lookup('14155550100', { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', operation: 'lookup', attempts: 1 });
    expect((error.cause as Error).message).toBe('user left');
  });

  it('never calls fetch with an already aborted signal', async () => {
    const { c, recorded, events } = client();
    const error = await failure(c.send(text, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'aborted', reachedService: 'no', attempts: 0 });
    expect(recorded.calls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it('a throwing onAttempt hook does not change the outcome', async () => {
    const { c } = client({
      onAttempt: () => {
        throw new Error('broken logger');
      },
    });
    expect((await c.send(text)).httpStatus).toBe(202);
  });
});

describe('sends whose request certainly did not leave', () => {
  it('are retried after a refused connection, and succeed once the service listens', async () => {
    const port = await freePort();
    let late: SandboxServer | undefined;
    const events: AttemptEvent[] = [];
    const c = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      ...account(),
      retry: { send: { initialDelayMs: 400 } },
      onAttempt: (e) => {
        events.push(e);
        if (e.attempt === 1) void sandbox.listen({ port, host: '127.0.0.1' }).then((s) => (late = s));
      },
    });
    try {
      const sent = await c.send(text);
      expect(sent.attempts).toBe(2);
      expect(events[0]?.error).toMatchObject({ kind: 'network', reachedService: 'no', retryable: true });
      expect(events[0]?.error?.description).toContain('ECONNREFUSED');
      expect(sandbox.snapshot().messages).toHaveLength(1);
    } finally {
      await late?.close();
    }
  });

  it('give up after maxAttempts with a network error that says the request did not leave', async () => {
    const port = await freePort();
    const events: AttemptEvent[] = [];
    const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, ...account(), retry: { send: { initialDelayMs: 5, maxAttempts: 3 } }, onAttempt: (e) => events.push(e) });
    const error = await failure(c.send(text));
    expect(error).toMatchObject({ kind: 'network', reachedService: 'no', retryable: true, attempts: 3 });
    expect(events.map((e) => e.nextDelayMs === undefined)).toEqual([false, false, true]);
  });
});

describe('reads against a failing proxy', () => {
  it('retries a 5xx HTML page with jittered backoff up to maxAttempts', async () => {
    stub.script(
      { status: 502, headers: { 'content-type': 'text/html' }, body: fixture('html-502.html') },
      { status: 502, headers: { 'content-type': 'text/html' }, body: fixture('html-502.html') },
      { status: 502, headers: { 'content-type': 'text/html' }, body: fixture('html-502.html') },
    );
    const events: AttemptEvent[] = [];
    const c = createClient({ baseUrl: stub.url, ...account(), retry: { lookup: { initialDelayMs: 40, maxAttempts: 3 }, random: () => 0.5 }, onAttempt: (e) => events.push(e) });
    const error = await failure(c.lookup('14155550100'));
    expect(error).toMatchObject({ kind: 'unexpected-response', httpStatus: 502, retryable: true, attempts: 3 });
    expect(stub.requests).toHaveLength(3);
    // Backoff doubles, jittered between half and all of it: random 0.5 → 75 %.
    expect(events.map((e) => e.nextDelayMs)).toEqual([30, 60, undefined]);
  });

  it('honours Retry-After', async () => {
    stub.script(
      { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: fixture('error-1010.json') },
      { status: 200, headers: { 'content-type': 'application/xml' }, body: fixture('status-delivered.xml') },
    );
    const c = createClient({ baseUrl: stub.url, ...account(), retry: { status: { temporaryErrorDelayMs: 10 } } });
    const result = await c.getStatus('44101-0922I-13413-21GDL');
    expect(result.attempts).toBe(2);
    const [first, second] = stub.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('hands back a Retry-After longer than maxWaitMs instead of waiting', async () => {
    stub.script({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '120' }, body: fixture('error-1010.json') });
    const c = createClient({ baseUrl: stub.url, ...account() });
    const error = await failure(c.getStatus('44101-0922I-13413-21GDL'));
    expect(error).toMatchObject({ kind: 'api-error', code: '1010', retryable: true, retryAfterMs: 120_000, attempts: 1 });
    expect(stub.requests).toHaveLength(1);
  });

  it('a per-call timeout overrides the client timeout', async () => {
    stub.script({ status: 200, headers: { 'content-type': 'application/xml' }, body: fixture('status-delivered.xml'), delayMs: 300 });
    const c = createClient({ baseUrl: stub.url, ...account(), timeoutMs: 10_000, retry: false });
    const error = await failure(c.getStatus('44101-0922I-13413-21GDL', { timeoutMs: 50 }));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 1, retryable: true });
  });
});

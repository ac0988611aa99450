/**
 * Receivers that scale out: three Express receiver processes behind a round-robin proxy on
 * loopback, sharing one redis-server (duplicate store and reassembly store), and @smsv4/sandbox
 * posting thousands of delivery receipts and multipart inbound messages (8- and 16-bit references)
 * through the proxy, which holds some requests back (parts out of order), duplicates some and
 * replays some after their answer. Handlers fail now and then (the service retries), and one
 * receiver process is killed with SIGKILL mid-run, then started again.
 *
 * The handlers are idempotent as the README recommends (one `SET ... NX` keyed by the event: its
 * effect). Asserted: every receipt and every inbound message has exactly one effect, the message
 * whole and complete; parts did complete messages out of order; no orphan; nothing left in Redis.
 * Handler calls are counted apart: a second call of an event is allowed only where a SIGKILL makes
 * it unavoidable (the killed process called the handler for a request it never answered), and
 * then it has no second effect.
 */
import { basicAuthorization, encodeMtRequest, type MtRequest } from '@smsv4/core';
import { createSandbox, type Sandbox } from '@smsv4/sandbox';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { startReceiver, type ReceiverInstance } from './scale-out/receiver-instances.js';
import type { ReceiverConfig, ReceiverEffect, ReceiverEvent } from './scale-out/receiver-process.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './scale-out/round-robin-proxy.js';

const MT_COUNT = 1500; // a third each of 1, 2 and 3 parts: 3 000 receipts
const INBOUND_COUNT = 300; // 2 to 4 parts each, half with 16-bit references: about 900 parts
const BATCHES = 20;
const KILL_AFTER_BATCH = 7;

const authorization = basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' });
const PREFIX = 'scale:';

/** GSM text of `parts` parts of a multipart SMS (153 characters a part). */
const mtText = (i: number, parts: number): string => `MT ${i} `.padEnd(parts === 1 ? 120 : parts === 2 ? 250 : 400, 'abcdefghij');
const inboundText = (i: number): string => {
  const body = i % 5 === 0 ? `Привет, сообщение ${i}. ` : `Inbound message ${i}, a long reply from a handset. `;
  return body.repeat(i % 5 === 0 ? 4 + (i % 3) * 2 : 5 + (i % 3) * 3);
};


describe('three receiver processes behind a round-robin proxy, one Redis, the sandbox, and a SIGKILL', () => {
  let redis: TestRedis;
  let proxy: RoundRobinProxy;
  let sandbox: Sandbox;
  let inspector: Redis;
  const ports: number[] = [];
  const instances: ReceiverInstance[] = [];
  /** Handler calls per event key (`receipt:<ticket>:<segment>`, `inbound:<tickets>`): who called. */
  const calls = new Map<string, number[]>();
  const errors: Array<Extract<ReceiverEvent, { kind: 'error' }>> = [];

  const record = (event: ReceiverEvent): void => {
    if (event.kind === 'call') calls.set(event.key, [...(calls.get(event.key) ?? []), event.pid]);
    else if (event.kind === 'error') errors.push(event);
  };

  /** The effects written to Redis by the handlers, by event key. */
  const effects = async (): Promise<Map<string, ReceiverEffect>> => {
    const keys = await inspector.keys(`${PREFIX}effect:*`);
    const values = keys.length === 0 ? [] : await inspector.mget(keys);
    return new Map(keys.map((k, i) => [k.slice(`${PREFIX}effect:`.length), JSON.parse(values[i] ?? 'null') as ReceiverEffect]));
  };

  const config = (name: string, port = 0): ReceiverConfig => ({
    name,
    port,
    redisPort: redis.port,
    keyPrefix: PREFIX,
    failRate: 0.03,
    leaseMs: 1500,
    handlerTimeoutMs: 1000,
    reassemblyTimeoutMs: 120_000,
    orphanSweepMs: 1000,
    journal: true,
  });

  beforeAll(async () => {
    redis = await startRedis();
    inspector = new Redis(redis.port, redis.host);
    for (const name of ['a', 'b', 'c']) instances.push(await startReceiver(config(name), record));
    ports.push(...instances.map((i) => i.port));
    proxy = await startRoundRobinProxy(ports, { delayRate: 0.25, maxDelayMs: 25, duplicateRate: 0.05, replayRate: 0.03, replayDelayMs: 40 });
    // 250 simulated ms per real ms: the service's retry backoff (10 s, 20 s, ... at most 1 h) runs in
    // 40 ms to 14.4 s, and its retry windows (receipts 24 h, inbound messages 3 days) last 346 s and
    // 17 min, longer than the test may run: on a busy machine, where answers take seconds, the
    // service keeps retrying as it would, rather than giving up after a few slow attempts.
    sandbox = createSandbox({ timeScale: 250, maxMessages: 50_000, callbackTimeoutMs: 20_000 });
  });

  afterAll(async () => {
    await sandbox?.close();
    await proxy?.close();
    await Promise.all(instances.map((i) => i.close()));
    inspector?.disconnect();
    await redis?.stop();
  });

  async function send(i: number, parts: number): Promise<string> {
    const mt: MtRequest = {
      destination: { address: '14155550100' },
      message: { type: 'text', content: mtText(i, parts), mlc: 'segment' },
      delivery: { receiptRequested: 'final', url: `${proxy.url}/callbacks` },
    };
    const format = i % 2 === 0 ? 'json' : 'xml';
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', {
        method: 'POST',
        headers: { authorization, 'content-type': format === 'json' ? 'application/json' : 'application/xml' },
        body: encodeMtRequest(mt, format),
      }),
    );
    expect(response.status).toBe(202);
    return (response.headers.get('location') ?? '').split('/').pop() as string;
  }

  it('gives every receipt and every inbound message, whole, exactly one effect, while one instance dies', { timeout: 360_000 }, async () => {
    const started = Date.now();
    const expectedReceipts = new Map<string, { ticketId: string; segment: number; total: number }>();
    const expectedInbound = new Map<string, string>();
    let killed: { pid: number; port: number; inFlight: number } | undefined;
    let restarting: Promise<void> | undefined;

    for (let batch = 0; batch < BATCHES; batch++) {
      for (let i = batch * (MT_COUNT / BATCHES); i < (batch + 1) * (MT_COUNT / BATCHES); i++) {
        const parts = (i % 3) + 1;
        const ticketId = await send(i, parts);
        for (let s = 1; s <= parts; s++) expectedReceipts.set(`receipt:${ticketId}:${s}`, { ticketId, segment: s, total: parts });
      }
      for (let i = batch * (INBOUND_COUNT / BATCHES); i < (batch + 1) * (INBOUND_COUNT / BATCHES); i++) {
        const text = inboundText(i);
        const { ticketIds } = sandbox.injectInbound({
          from: `4477009${String(i).padStart(5, '0')}`,
          to: '24273',
          text,
          referenceBits: i % 2 === 0 ? 8 : 16,
          format: i % 3 === 0 ? 'json' : 'xml',
          url: `${proxy.url}/callbacks`,
        });
        expect(ticketIds.length).toBeGreaterThanOrEqual(2);
        expectedInbound.set(`inbound:${ticketIds.join(',')}`, text);
      }
      if (batch === KILL_AFTER_BATCH) {
        // Mid-run, while the next batches go out: SIGKILL one instance, start it again on its port.
        restarting = (async () => {
          const victim = instances[1] as ReceiverInstance;
          // Kill it while it has requests in hand (waiting at most 5 s for some).
          for (let waited = 0; waited < 2500 && proxy.inFlight(victim.port) < 2; waited++) await new Promise((r) => setTimeout(r, 2));
          killed = { pid: victim.pid, port: victim.port, inFlight: proxy.inFlight(victim.port) };
          await victim.kill();
          await new Promise((r) => setTimeout(r, 400));
          instances[1] = await startReceiver(config('b', victim.port), record);
        })();
      }
      await new Promise((r) => setTimeout(r, 60));
    }
    await restarting;
    const sent = Date.now();

    // Everything handled (bounded: the test fails rather than waits for ever). On a busy machine the
    // retries take longer: it waits while effects keep coming, at most 45 s without a new one (three
    // times the longest retry backoff) and 240 s in all.
    const expected = new Set([...expectedReceipts.keys(), ...expectedInbound.keys()]);
    const deadline = Date.now() + 240_000;
    let done = await effects();
    let progress = { size: done.size, at: Date.now() };
    const missing = (): string[] => [...expected].filter((k) => !done.has(k));
    while (missing().length > 0 && Date.now() < deadline && Date.now() - progress.at < 45_000) {
      await new Promise((r) => setTimeout(r, 250));
      done = await effects();
      if (done.size > progress.size) progress = { size: done.size, at: Date.now() };
    }
    if (missing().length > 0) {
      // Say where the missing events are, before failing.
      console.error(`${missing().length} events without effect ${((Date.now() - started) / 1000).toFixed(1)} s after the start (sent after ${((sent - started) / 1000).toFixed(1)} s; last new effect ${((Date.now() - progress.at) / 1000).toFixed(1)} s ago)`);
      for (const key of missing().filter((k) => k.startsWith('inbound:')).slice(0, 3)) {
        const tickets = key.slice('inbound:'.length).split(',');
        const state = await Promise.all(tickets.map(async (t) => [t, await inspector.keys(`${PREFIX}*${t}*`), sandbox.snapshot().callbacks.filter((c) => c.ticketId === t).map((c) => `${c.outcome}:${c.httpStatus}`)]));
        console.error('missing inbound', key, JSON.stringify(state), JSON.stringify(await inspector.keys(`${PREFIX}parts:*group:*`)));
      }
      for (const key of missing().filter((k) => k.startsWith('receipt:')).slice(0, 4)) {
        const ticket = key.split(':')[1] as string;
        const segment = Number(key.split(':')[2]);
        let stored: ReturnType<Sandbox['listMessages']>['messages'][number] | undefined;
        for (let offset = 0, page = sandbox.listMessages({ offset, limit: 1000 }); stored === undefined && page.messages.length > 0; offset += 1000, page = sandbox.listMessages({ offset, limit: 1000 })) {
          stored = page.messages.find((m) => m.ticketId === ticket);
        }
        const timeline = (stored?.timeline ?? []).filter((t) => t.event.includes(`part ${segment}`) || !t.event.includes('part')).map((t) => `${t.event} ${t.detail ?? ''}`);
        console.error('missing receipt', key, 'calls', JSON.stringify(calls.get(key) ?? []), 'redis', JSON.stringify(await inspector.keys(`${PREFIX}*${ticket}*`)), 'timeline', JSON.stringify(timeline.slice(-12)));
      }
      console.error('sandbox callbacks', JSON.stringify(sandbox.snapshot().metrics.callbacks), 'answers', JSON.stringify(Object.fromEntries(proxy.answered)));
    }
    expect(missing()).toEqual([]);
    const handledAll = Date.now();
    // Then settled: the retries still due arrive (a message whose hand-over the SIGKILL cut short is
    // still held in Redis until the retry of its last part), and then quiet for 3 s (at most 60 s).
    const forwarded = (): number => [...proxy.forwarded.values()].reduce((a, b) => a + b, 0);
    let seen = -1;
    for (const settleBy = Date.now() + 60_000; Date.now() < settleBy; ) {
      if (seen === forwarded() && (await inspector.keys(`${PREFIX}parts:*deadlines`)).length === 0) break;
      seen = forwarded();
      await proxy.idle();
      await new Promise((r) => setTimeout(r, 3000));
    }
    done = await effects();

    // Exactly one effect per event: nothing lost, nothing made up (the effects are keyed by event,
    // so an event has one at most), and each the right one: the receipt it was, the message whole.
    expect(new Set(done.keys())).toEqual(expected);
    for (const [key, effect] of done) {
      if (effect.kind === 'receipt') {
        expect({ key, ticketId: effect.ticketId, segment: effect.segment, total: effect.total }).toEqual({ key, ...expectedReceipts.get(key) });
      } else {
        expect({ key, text: effect.text, complete: effect.complete, orphan: effect.orphan }).toEqual({ key, text: expectedInbound.get(key), complete: true, orphan: false });
      }
    }
    // Parts really came out of order: messages completed by a part other than their last.
    const inboundEffects = [...done.values()].filter((e): e is Extract<ReceiverEffect, { kind: 'inbound' }> => e.kind === 'inbound');
    const outOfOrder = inboundEffects.filter((e) => e.completedBy !== undefined && e.completedBy !== e.ticketIds.length).length;
    expect(outOfOrder).toBeGreaterThan(0);

    // Handler calls, apart from effects: every effect had its call, and an event's handler was called
    // twice only where a SIGKILL makes it unavoidable: once by the killed process, on a request it
    // never answered (it was in flight when the process died), then on the service's retry.
    const victim = killed as { pid: number; port: number; inFlight: number };
    expect(victim.inFlight).toBeGreaterThan(0);
    expect([...expected].filter((k) => !calls.has(k))).toEqual([]);
    expect([...calls.keys()].filter((k) => !expected.has(k))).toEqual([]);
    const calledTwice = [...calls.entries()].filter(([, pids]) => pids.length > 1);
    for (const [key, pids] of calledTwice) {
      expect({ key, calls: pids.length, byKilled: pids.filter((p) => p === victim.pid).length }).toEqual({ key, calls: 2, byKilled: 1 });
    }
    expect(calledTwice.length).toBeLessThanOrEqual(victim.inFlight);

    // No orphan, and nothing left behind in Redis.
    expect(await inspector.keys(`${PREFIX}parts:*deadlines`)).toEqual([]);
    expect(await inspector.keys(`${PREFIX}parts:*group:*`)).toEqual([]);
    // Late copies of taken events were answered 200 without handling, 409 while the message of a part
    // was being handed over (the service retries), or 502 while an instance was down.
    expect(proxy.copies.filter((c) => c.kind === 'replay' && ![200, 409, 502].includes(c.status))).toEqual([]);
    expect(errors.filter((e) => e.code === 'store-failed' || e.code === 'orphan-failed')).toEqual([]);

    const events = expectedReceipts.size + [...expectedInbound.keys()].reduce((n, k) => n + k.split(',').length, 0);
    console.info(
      `scale-out: ${expectedReceipts.size} receipts and ${expectedInbound.size} inbound messages (${events} callbacks) in ${((Date.now() - started) / 1000).toFixed(1)} s (sent in ${((sent - started) / 1000).toFixed(1)} s, all handled after ${((handledAll - started) / 1000).toFixed(1)} s); ` +
        `answers ${JSON.stringify(Object.fromEntries(proxy.answered))}; copies ${proxy.copies.length}; ` +
        `${outOfOrder} of ${inboundEffects.length} messages completed by a part other than their last; ` +
        `killed with ${victim.inFlight} requests in flight; handler called twice (one effect each): ${calledTwice.length}; receiver errors: ${JSON.stringify(errors.map((e) => e.code))}`,
    );
  });
});

/**
 * The Redis reassembly store against a real redis-server, through two clients (two "instances"):
 * a property over any interleaving of part arrivals, the race of the last two parts, orphans
 * claimed once, TTLs; with ioredis, and node-redis for the other client shape.
 */
import { buildUserDataHeader, bytesToHex, decodeCallback, encodeHex, encodeMobileOriginate, type InboundCallback } from '@smsv4/core';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import express from 'express';
import { createRedisReassemblyStore, createWebhookMiddleware, groupMessage, type PartAddOutcome, type RedisCommand, type RedisReassemblyStore } from '../src/index.js';
import { listen } from './helpers.js';
import { startRedis, type TestRedis } from '@smsv4/testing';

interface PartSpec {
  readonly reference: number;
  readonly referenceBits: 8 | 16;
  readonly sequence: number;
  readonly total: number;
  readonly text: string;
  readonly from?: string;
  readonly ticket?: string;
}

/** One part of a multipart inbound message, as the receiver decodes it (built with core's encoders). */
function part({ reference, referenceBits, sequence, total, text, from = '447700900123', ticket }: PartSpec): InboundCallback {
  const ticketId = ticket ?? `P${referenceBits}-${reference}-${sequence}-${from}`;
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence, referenceBits } }));
  const body = encodeMobileOriginate(
    { ticketId, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(text, 'GSM') } },
    sequence % 2 === 0 ? 'json' : 'xml',
  );
  const decoded = decodeCallback(body, sequence % 2 === 0 ? 'json' : 'xml');
  if (!decoded.ok || decoded.value.kind !== 'inbound-message') throw new Error('not a part');
  return decoded.value;
}

const FINISH = { handedOverTtlMs: 60_000 };

describe('the Redis reassembly store shared by two clients', () => {
  let server: TestRedis;
  let a: Redis;
  let b: Redis;
  let run = 0;
  /** Two stores on two connections, under a prefix of their own; `clock` drives both. */
  const pair = (clock: { now: number } = { now: Date.now() }) => {
    const keyPrefix = `t${++run}:`;
    const make = (client: Redis): RedisReassemblyStore =>
      createRedisReassemblyStore({ sendCommand: ([name = '', ...args]) => client.call(name, ...args), keyPrefix, now: () => clock.now });
    return { one: make(a), two: make(b), keyPrefix, clock };
  };

  beforeAll(async () => {
    server = await startRedis();
    a = new Redis(server.port, server.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
    b = new Redis(server.port, server.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await Promise.all([a.connect(), b.connect()]);
  });

  afterAll(async () => {
    await Promise.all([a?.quit(), b?.quit()]);
    await server?.stop();
  });

  it('hands each message over exactly once, whole, for any interleaving of arrivals over the two clients', async () => {
    const scenario = fc
      .array(fc.record({ total: fc.integer({ min: 2, max: 5 }), referenceBits: fc.constantFrom(8 as const, 16 as const) }), { minLength: 1, maxLength: 4 })
      .chain((messages) => {
        const parts = messages.flatMap((m, i) => Array.from({ length: m.total }, (_, k) => ({ message: i, sequence: k + 1 })));
        const arrival = fc.record({ part: fc.constantFrom(...parts), client: fc.constantFrom(0, 1) });
        return fc.record({
          messages: fc.constant(messages),
          // Every part once, in any order, on either client, plus repeats (the service's retries).
          order: fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length }),
          clients: fc.array(fc.constantFrom(0, 1), { minLength: parts.length, maxLength: parts.length }),
          repeats: fc.array(arrival, { maxLength: 6 }),
          // How many arrivals go out together (they race on the two connections).
          waves: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 30, maxLength: 30 }),
          failures: fc.array(fc.boolean(), { maxLength: 4 }),
        });
      });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ messages, order, clients, repeats, waves, failures }) => {
        const { one, two } = pair();
        const stores = [one, two];
        const text = (m: number, seq: number) => `M${m}P${seq} `;
        const spec = (m: number, sequence: number): PartSpec => ({
          reference: m * 61 + 3,
          referenceBits: messages[m]?.referenceBits ?? 8,
          sequence,
          total: messages[m]?.total ?? 2,
          text: text(m, sequence),
        });
        const queue: Array<{ part: InboundCallback; client: number }> = [
          ...order.map((p, i) => ({ part: part(spec(p.message, p.sequence)), client: clients[i] ?? 0 })),
          ...repeats.map((r) => ({ part: part(spec(r.part.message, r.part.sequence)), client: r.client })),
        ];
        const delivered = new Map<number, number>();
        let failed = 0;
        for (let wave = 0; queue.length > 0 && wave < 100; wave++) {
          const batch = queue.splice(0, waves[wave % waves.length] ?? 1);
          const outcomes = await Promise.all(batch.map(async (arrival) => ({ arrival, outcome: await (stores[arrival.client] as RedisReassemblyStore).add(arrival.part, { timeoutMs: 60_000, leaseMs: 60_000 }) })));
          for (const { arrival, outcome } of outcomes) {
            if (outcome.status === 'in-flight') queue.push(arrival); // answered 409: the service retries it
            if (outcome.status !== 'complete') continue;
            const store = stores[arrival.client] as RedisReassemblyStore;
            if (failures[failed++] === true) {
              await store.restore(outcome.group);
              queue.push({ part: arrival.part, client: 1 - arrival.client }); // retried, on the other instance
              continue;
            }
            const m = (outcome.group.concatenation.reference - 3) / 61;
            expect(groupMessage(outcome.group).text).toBe(Array.from({ length: messages[m]?.total ?? 0 }, (_, k) => text(m, k + 1)).join(''));
            expect(await store.finish(outcome.group, FINISH)).toBe(true);
            delivered.set(m, (delivered.get(m) ?? 0) + 1);
          }
        }
        expect([...delivered.entries()].sort(([x], [y]) => x - y)).toEqual(messages.map((_, m) => [m, 1]));
        expect(await one.size()).toBe(0);
        // Every byte counted against the budget was given back.
        expect(await one.pendingBytes()).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('gives one complete message, not two and not none, when the last two parts arrive at the same moment', async () => {
    const { one, two } = pair();
    for (let m = 0; m < 100; m++) {
      const spec = { reference: m, referenceBits: 16 as const, total: 3, from: '14155550100' };
      expect((await one.add(part({ ...spec, sequence: 2, text: 'b' }), { timeoutMs: 60_000, leaseMs: 60_000 })).status).toBe('stored');
      const outcomes: PartAddOutcome[] = await Promise.all([
        one.add(part({ ...spec, sequence: 1, text: 'a' }), { timeoutMs: 60_000, leaseMs: 60_000 }),
        two.add(part({ ...spec, sequence: 3, text: 'c' }), { timeoutMs: 60_000, leaseMs: 60_000 }),
      ]);
      const complete = outcomes.filter((o) => o.status === 'complete');
      expect(complete).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'stored')).toHaveLength(1);
      const [done] = complete;
      if (done?.status === 'complete') {
        expect(groupMessage(done.group).text).toBe('abc');
        expect(await two.finish(done.group, FINISH)).toBe(true);
      }
    }
    expect(await one.size()).toBe(0);
  });

  it('lets one client only claim each orphan, again once its claim ran out, and recognises its parts afterwards', async () => {
    const clock = { now: 1_000_000 };
    const { one, two } = pair(clock);
    const options = { timeoutMs: 1000, leaseMs: 500 };
    for (let m = 0; m < 20; m++) await (m % 2 === 0 ? one : two).add(part({ reference: m, referenceBits: 8, sequence: 1, total: 2, text: `o${m}` }), options);
    clock.now += 999;
    expect(await one.claimExpired({ leaseMs: 500, limit: 100 })).toEqual([]);
    clock.now += 1;
    const [first, second] = await Promise.all([one.claimExpired({ leaseMs: 500, limit: 100 }), two.claimExpired({ leaseMs: 500, limit: 100 })]);
    const claimed = [...first, ...second].map((g) => g.concatenation.reference).sort((x, y) => x - y);
    expect(claimed).toEqual(Array.from({ length: 20 }, (_, m) => m));
    expect(await one.size()).toBe(20);
    for (const group of first) expect(groupMessage(group)).toMatchObject({ complete: false, missingParts: [2] });
    // The reports of the second client failed (no finish): claimed again once their lease ran out.
    for (const group of first) expect(await one.finish(group, FINISH)).toBe(true);
    clock.now += 499;
    expect(await one.claimExpired({ leaseMs: 500, limit: 100 })).toEqual([]);
    clock.now += 1;
    const again = await two.claimExpired({ leaseMs: 500, limit: 100 });
    expect(again.map((g) => g.concatenation.reference).sort((x, y) => x - y)).toEqual(second.map((g) => g.concatenation.reference).sort((x, y) => x - y));
    for (const group of second) expect(await two.finish(group, FINISH)).toBe(false);
    for (const group of again) expect(await two.finish(group, FINISH)).toBe(true);
    expect(await one.size()).toBe(0);
    expect(await one.add(part({ reference: 0, referenceBits: 8, sequence: 1, total: 2, text: 'o0' }), options)).toEqual({ status: 'handed-over' });
  });

  it('keeps a part that arrives while its orphan is reported, for a deadline of its own', async () => {
    const clock = { now: 5_000_000 };
    const { one, two } = pair(clock);
    const options = { timeoutMs: 1000, leaseMs: 500 };
    await one.add(part({ reference: 9, referenceBits: 16, sequence: 1, total: 3, text: 'x' }), options);
    clock.now += 1000;
    const [orphan] = await one.claimExpired({ leaseMs: 500, limit: 10 });
    expect(await two.add(part({ reference: 9, referenceBits: 16, sequence: 3, total: 3, text: 'z' }), options)).toEqual({ status: 'stored', received: 2, total: 3 });
    expect(orphan && (await one.finish(orphan, FINISH))).toBe(true);
    clock.now += 999;
    expect(await two.claimExpired({ leaseMs: 500, limit: 10 })).toEqual([]);
    clock.now += 1;
    const [late] = await two.claimExpired({ leaseMs: 500, limit: 10 });
    expect(late && groupMessage(late)).toMatchObject({ missingParts: [1, 2], text: 'z' });
  });

  it('takes a message again once the lease of the instance that took it ran out, and never while it holds', async () => {
    const clock = { now: 9_000_000 };
    const { one, two } = pair(clock);
    const options = { timeoutMs: 60_000, leaseMs: 500 };
    await one.add(part({ reference: 1, referenceBits: 8, sequence: 1, total: 2, text: 'a' }), options);
    const taken = await one.add(part({ reference: 1, referenceBits: 8, sequence: 2, total: 2, text: 'b' }), options);
    expect(taken.status).toBe('complete');
    expect(await two.add(part({ reference: 1, referenceBits: 8, sequence: 2, total: 2, text: 'b' }), options)).toEqual({ status: 'in-flight' });
    expect(await two.add(part({ reference: 1, referenceBits: 8, sequence: 1, total: 2, text: 'a' }), options)).toEqual({ status: 'in-flight' });
    clock.now += 500;
    const retaken = await two.add(part({ reference: 1, referenceBits: 8, sequence: 2, total: 2, text: 'b' }), options);
    expect(retaken.status).toBe('complete');
    if (taken.status === 'complete') expect(await one.finish(taken.group, FINISH)).toBe(false);
    if (retaken.status === 'complete') expect(await two.finish(retaken.group, FINISH)).toBe(true);
  });

  it('survives a script sent twice (a client re-sending after a lost reply): the same answer, no false "handed over twice"', async () => {
    const keyPrefix = `t${++run}:`;
    // Every script runs twice, and the caller gets the second reply, as after a re-send.
    const twice: RedisCommand = async ([name = '', ...args]) => {
      const first = await a.call(name, ...args);
      return name.startsWith('EVAL') ? a.call(name, ...args) : first;
    };
    const store = createRedisReassemblyStore({ sendCommand: twice, keyPrefix });
    const options = { timeoutMs: 60_000, leaseMs: 60_000 };
    expect((await store.add(part({ reference: 9, referenceBits: 8, sequence: 1, total: 2, text: 'a' }), options)).status).toBe('held');
    const done = await store.add(part({ reference: 9, referenceBits: 8, sequence: 2, total: 2, text: 'b' }), options);
    if (done.status !== 'complete') throw new Error(`not complete: ${done.status}`);
    expect(groupMessage(done.group).text).toBe('ab');
    expect(await store.finish(done.group, FINISH)).toBe(true);
    expect(await store.size()).toBe(0);
    // A finish sent again later still recognises its own hand-over; another token's does not pass.
    expect(await store.finish(done.group, FINISH)).toBe(true);
    expect(await store.finish({ ...done.group, token: 'someone-else' }, FINISH)).toBe(false);
  });

  /** Which of the store's scripts a command runs: RESTORE has two keys and two arguments, ADD four keys. */
  const scriptOf = ([name = '', ...args]: readonly string[]): 'restore' | 'add' | undefined => {
    if (!name.startsWith('EVAL')) return undefined;
    if (args[1] === '2' && args.length === 6) return 'restore';
    return args[1] === '4' ? 'add' : undefined;
  };
  const sendA: RedisCommand = ([name = '', ...args]) => a.call(name, ...args);

  it('an add in doubt (applied, its reply lost): the retry waits for the restore queued behind it, so the message is handed over once across two instances', async () => {
    const keyPrefix = `t${++run}:`;
    let loseNextAdd = false;
    // The restore queued behind the lost add is held back; an add sent meanwhile goes first (and the restore right after it).
    let restore: { release: () => void; addSent: boolean } | undefined;
    const flaky: RedisCommand = async (command) => {
      const script = scriptOf(command);
      if (script === 'restore' && restore === undefined) {
        await new Promise<void>((release) => (restore = { release, addSent: false }));
      }
      if (script === 'add' && restore !== undefined && !loseNextAdd) {
        restore.addSent = true;
        const reply = await sendA(command);
        restore.release();
        return reply;
      }
      const reply = await sendA(command);
      if (script === 'add' && loseNextAdd) {
        loseNextAdd = false;
        throw new Error('Connection is closed.');
      }
      return reply;
    };
    const one = createRedisReassemblyStore({ sendCommand: flaky, keyPrefix });
    const two = createRedisReassemblyStore({ sendCommand: ([name = '', ...args]) => b.call(name, ...args), keyPrefix });
    const options = { timeoutMs: 60_000, leaseMs: 60_000 };
    const first = part({ reference: 12, referenceBits: 8, sequence: 1, total: 2, text: 'a' });
    const last = part({ reference: 12, referenceBits: 8, sequence: 2, total: 2, text: 'b' });
    expect((await one.add(first, options)).status).toBe('stored');
    // The last part completes the message in Redis, but its reply is lost: the store queues a restore.
    loseNextAdd = true;
    await expect(one.add(last, options)).rejects.toThrow('Connection is closed.');
    await vi.waitFor(() => expect(restore).toBeDefined());
    // The service's retry reaches this instance while the restore is still on its way: its add is not sent before the restore.
    const retry = one.add(last, options);
    const addSentFirst = await vi.waitFor(() => expect(restore?.addSent).toBe(true), { timeout: 300, interval: 5 }).then(
      () => true,
      () => false,
    );
    restore?.release();
    expect(addSentFirst).toBe(false);
    const taken = await retry;
    if (taken.status !== 'complete') throw new Error(`not complete: ${taken.status}`);
    expect(groupMessage(taken.group).text).toBe('ab');
    // The other instance, given the first part again, finds the message under way: it does not take it a second time.
    expect((await two.add(first, options)).status).not.toBe('complete');
    expect(await one.finish(taken.group, FINISH)).toBe(true);
  });

  it('an add in doubt whose restore failed: of two adds of the message sent at once, one takes its token, so the message is taken once', async () => {
    const keyPrefix = `t${++run}:`;
    let loseNextAdd = false;
    let failNextRestore = false;
    const flaky: RedisCommand = async (command) => {
      const script = scriptOf(command);
      if (script === 'restore' && failNextRestore) {
        failNextRestore = false;
        throw new Error('Connection is closed.');
      }
      const reply = await sendA(command);
      if (script !== 'add' || !loseNextAdd) return reply;
      loseNextAdd = false;
      throw new Error('Connection is closed.');
    };
    const one = createRedisReassemblyStore({ sendCommand: flaky, keyPrefix });
    const options = { timeoutMs: 60_000, leaseMs: 60_000 };
    const first = part({ reference: 13, referenceBits: 8, sequence: 1, total: 2, text: 'a' });
    const last = part({ reference: 13, referenceBits: 8, sequence: 2, total: 2, text: 'b' });
    expect((await one.add(first, options)).status).toBe('stored');
    // The last part takes the message in Redis, its reply is lost, and so is the restore queued behind it.
    loseNextAdd = true;
    failNextRestore = true;
    await expect(one.add(last, options)).rejects.toThrow('Connection is closed.');
    // The service retries both parts at once on this instance: one add may recognise the claim in
    // doubt as its own and take the message; the other must not take it too.
    const outcomes = await Promise.all([one.add(last, options), one.add(first, options)]);
    const taken = outcomes.filter((outcome) => outcome.status === 'complete');
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['complete', 'in-flight']);
    const [handedOver] = taken;
    if (handedOver?.status !== 'complete') throw new Error('not complete');
    expect(groupMessage(handedOver.group).text).toBe('ab');
    expect(await one.finish(handedOver.group, FINISH)).toBe(true);
  });

  it('claims the messages an earlier version held under its former key layout, so none is lost on upgrade', async () => {
    const { one, keyPrefix, clock } = pair();
    const held = part({ reference: 5, referenceBits: 8, sequence: 1, total: 2, text: 'old' });
    const member = '8-5-2:447700900123:24273';
    const at = clock.now - 1;
    await a.hset(`${keyPrefix}group:${member}`, { n: 2, t: 600_000, d: at, s: '', o: '0', l: 0, c: 1, x: '', k1: held.message.ticketId, p1: JSON.stringify([held.format, held.message]) });
    await a.zadd(`${keyPrefix}deadlines`, at, member);
    expect(await one.size()).toBe(1);
    const [orphan] = await one.claimExpired({ leaseMs: 60_000, limit: 10 });
    if (orphan === undefined) throw new Error('not claimed');
    expect(groupMessage(orphan).text).toBe('old');
    expect(await one.finish(orphan, FINISH)).toBe(true);
    expect(await one.size()).toBe(0);
    expect(await a.exists(`${keyPrefix}group:${member}`)).toBe(0);
  });

  it('keeps the parts for the timeout and the retry window, and the tickets handed over for their TTL', async () => {
    const { one, keyPrefix } = pair();
    const options = { timeoutMs: 600_000, leaseMs: 60_000 };
    const first = part({ reference: 77, referenceBits: 8, sequence: 1, total: 2, text: 'ttl' });
    await one.add(first, options);
    // One group, named by a keyed hash: no phone number in any key name.
    const [group = ''] = await a.keys(`${keyPrefix}*group:*`);
    expect(group).toMatch(new RegExp(`^${keyPrefix}\\{\\d+\\}group:\\d+\\.[0-9a-f]{32}$`));
    expect((await a.keys(`${keyPrefix}*`)).join(' ')).not.toMatch(/447700900123|24273/);
    const ttl = await a.pttl(group);
    expect(ttl).toBeGreaterThan(600_000 + 3 * 24 * 3_600_000);
    const done = await one.add(part({ reference: 77, referenceBits: 8, sequence: 2, total: 2, text: '!' }), options);
    if (done.status !== 'complete') throw new Error('not complete');
    await one.finish(done.group, { handedOverTtlMs: 73 * 3_600_000 });
    expect(await a.exists(group)).toBe(0);
    const [handedOver = ''] = await a.keys(`${keyPrefix}*handed-over:${first.message.ticketId}`);
    expect(await a.pttl(handedOver)).toBeGreaterThan(72 * 3_600_000);
  });

  it('holds at most maxPendingBytes of parts: a part past it is full unless it completes its message, and every way out gives the bytes back', async () => {
    const clock = { now: 20_000_000 };
    const keyPrefix = `t${++run}:`;
    const make = (client: Redis, maxPendingBytes?: number): RedisReassemblyStore =>
      createRedisReassemblyStore({ sendCommand: ([name = '', ...args]) => client.call(name, ...args), keyPrefix, shards: 1, now: () => clock.now, ...(maxPendingBytes === undefined ? {} : { maxPendingBytes }) });
    const options = { timeoutMs: 1000, leaseMs: 500 };
    // First parts of the same size (8-bit references 10 to 99, the same text): one measures them.
    const first = (reference: number) => part({ reference, referenceBits: 8, sequence: 1, total: 2, text: 'budget' });
    const measure = make(a);
    expect((await measure.add(first(10), options)).status).toBe('stored');
    const size = await measure.pendingBytes();
    expect(size).toBeGreaterThan(100);
    // Room for three first parts (and a half), shared by both clients.
    const one = make(a, Math.floor(3.5 * size));
    const two = make(b, Math.floor(3.5 * size));
    expect(await two.add(first(11), options)).toEqual({ status: 'stored', received: 1, total: 2 });
    expect(await one.add(first(12), options)).toEqual({ status: 'stored', received: 1, total: 2 });
    expect(await one.add(first(13), options)).toEqual({ status: 'full' });
    expect(await two.add(first(13), options)).toEqual({ status: 'full' });
    expect(await one.size()).toBe(3);
    expect(await one.pendingBytes()).toBe(3 * size);
    // The part that completes message 10 is taken past the budget; its hand-over frees both parts.
    const done = await two.add(part({ reference: 10, referenceBits: 8, sequence: 2, total: 2, text: '!' }), options);
    if (done.status !== 'complete') throw new Error(`not complete: ${done.status}`);
    expect(await one.pendingBytes()).toBeGreaterThan(3 * size);
    expect(await two.finish(done.group, FINISH)).toBe(true);
    expect(await one.pendingBytes()).toBe(2 * size);
    // The retry of the refused part is held now.
    expect((await one.add(first(13), options)).status).toBe('stored');
    expect(await one.pendingBytes()).toBe(3 * size);
    // Orphans claimed and reported give their bytes back.
    clock.now += 1000;
    const orphans = await one.claimExpired({ leaseMs: 500, limit: 10 });
    expect(orphans.map((g) => g.concatenation.reference).sort((x, y) => x - y)).toEqual([11, 12, 13]);
    expect(await one.pendingBytes()).toBe(3 * size);
    for (const orphan of orphans) expect(await one.finish(orphan, FINISH)).toBe(true);
    expect(await one.pendingBytes()).toBe(0);
    // A message whose key expired in Redis (its safety-net TTL) is given back by the claim that finds it gone.
    expect((await one.add(first(14), options)).status).toBe('stored');
    expect(await one.pendingBytes()).toBe(size);
    const [group = ''] = await a.keys(`${keyPrefix}*group:*`);
    await a.del(group);
    clock.now += 1000;
    expect(await one.claimExpired({ leaseMs: 500, limit: 10 })).toEqual([]);
    expect(await one.pendingBytes()).toBe(0);
    expect(await one.size()).toBe(0);
    // Nothing of the count stays behind (the tickets handed over keep their keys for their TTL).
    expect((await a.keys(`${keyPrefix}*`)).filter((key) => !key.includes('handed-over:'))).toEqual([]);
  });

  it('makes a receiver answer a part past the budget 503 with Retry-After (the service retries it), and take the part that completes a message', async () => {
    const keyPrefix = `t${++run}:`;
    const handed: string[] = [];
    const app = express();
    app.use(
      '/callbacks',
      createWebhookMiddleware({
        allowUnauthenticated: true,
        reassemblyStore: createRedisReassemblyStore({ sendCommand: ([name = '', ...args]) => a.call(name, ...args), keyPrefix, shards: 1, maxPendingBytes: 1000 }),
        onInboundMessage: (message) => void handed.push(message.text ?? ''),
      }),
    );
    const served = await listen(app);
    const post = (spec: PartSpec) =>
      fetch(`${served.url}/callbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-version': '4' },
        body: encodeMobileOriginate(
          {
            ticketId: `B-${spec.reference}-${spec.sequence}`,
            source: { address: '447700900123' },
            destination: { address: '24273' },
            message: { type: 'hexEncodedText', udh: true, content: bytesToHex(buildUserDataHeader({ concatenation: { reference: spec.reference, total: spec.total, sequence: spec.sequence, referenceBits: spec.referenceBits } })) + encodeHex(spec.text, 'GSM') },
          },
          'json',
        ),
      });
    try {
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let reference = 1; reference <= 10; reference++) {
        const answer = await post({ reference, referenceBits: 8, sequence: 1, total: 2, text: 'budget ' });
        statuses.push(answer.status);
        if (answer.status !== 200) refused ??= answer;
      }
      const held = statuses.filter((status) => status === 200).length;
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThan(10);
      expect(statuses).toEqual([...Array<number>(held).fill(200), ...Array<number>(10 - held).fill(503)]);
      expect(refused?.headers.get('retry-after')).toBe('60');
      const completing = await post({ reference: 1, referenceBits: 8, sequence: 2, total: 2, text: 'done' });
      expect(completing.status).toBe(200);
      expect(handed).toEqual(['budget done']);
    } finally {
      await served.close();
    }
  });

  it('works through node-redis as well', async () => {
    const client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const store = createRedisReassemblyStore({ sendCommand: (args) => client.sendCommand(args), keyPrefix: `t${++run}:` });
      const options = { timeoutMs: 60_000, leaseMs: 60_000 };
      expect(await store.add(part({ reference: 5, referenceBits: 16, sequence: 2, total: 2, text: 'redis' }), options)).toEqual({ status: 'stored', received: 1, total: 2 });
      const outcome = await store.add(part({ reference: 5, referenceBits: 16, sequence: 1, total: 2, text: 'node-' }), options);
      expect(outcome.status === 'complete' && groupMessage(outcome.group).text).toBe('node-redis');
    } finally {
      await client.quit();
    }
  });
});

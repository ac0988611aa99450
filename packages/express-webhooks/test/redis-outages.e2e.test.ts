/**
 * Two Express instances, one on ioredis and one on node-redis (each with its defaults), sharing
 * the Redis stores, with callbacks flowing over HTTP when Redis is frozen (SIGSTOP, then SIGCONT)
 * and when it is shut down (SHUTDOWN NOSAVE, its append-only file kept) and started again on its
 * port: every callback is answered, 200 or 503 with Retry-After (none hangs), every callback
 * during the outage 503, and the service's retries (of what was not answered 200) are taken until
 * each event had exactly one effect. Its own file: it freezes and stops a server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUserDataHeader, bytesToHex, encodeDeliveryReceipt, encodeHex, encodeMobileOriginate } from '@smsv4/core';
import { startRedis, type TestRedis } from '@smsv4/testing';
import express from 'express';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDuplicateStore, createRedisReassemblyStore, createWebhookMiddleware, type RedisCommand, type WebhookError } from '../src/index.js';
import { listen, type Listening } from './helpers.js';

// Room for a loaded machine; each outage waits for it about once.
const STORE_TIMEOUT_MS = 1_000;
const JSON_HEADERS = { 'x-api-version': '4', 'content-type': 'application/json; charset=UTF-8' };

interface Event {
  /** What its effect is recorded under. */
  readonly id: string;
  readonly body: string;
}

const receipt = (ticketId: string): Event => ({
  id: ticketId,
  body: encodeDeliveryReceipt({ type: 'final', mtStatus: { ticketId, code: 4, description: 'Message delivered', deliveryDate: '2024-03-14T09:26:53.000Z' }, destination: { address: '14155550100' } }, 'json'),
});

/** Part `sequence` of a two-part message from `from`; the message's effect is recorded under its text. */
const part = (from: string, sequence: 1 | 2): Event => {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 11, total: 2, sequence, referenceBits: 8 } }));
  const body = encodeMobileOriginate(
    { ticketId: `O-${from}-${sequence}`, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(`${from}/${sequence};`, 'GSM') } },
    'json',
  );
  return { id: `${from}/1;${from}/2;`, body };
};

/** A batch of receipts and two-part messages, with the effect each event must have. */
function batch(tag: string, receipts: number, messages: number): { events: Event[]; effects: string[] } {
  const tickets = Array.from({ length: receipts }, (_, i) => receipt(`${tag}000-0922I-13413-${String(i).padStart(5, '0')}`));
  const handsets = Array.from({ length: messages }, (_, i) => `4477009${tag}${String(i).padStart(3, '0')}`);
  const parts = handsets.flatMap((h) => [part(h, 1), part(h, 2)]);
  return { events: [...tickets, ...parts], effects: [...tickets.map((t) => t.id), ...handsets.map((h) => `${h}/1;${h}/2;`)] };
}

describe('receivers over HTTP on a Redis frozen, then shut down and restarted', () => {
  let dir: string;
  let redis: TestRedis;
  let ioredis: Redis;
  let nodeRedis: ReturnType<typeof createClient>;
  let admin: Redis;
  const instances: Listening[] = [];
  /** Handler calls by effect; the effect itself is idempotent (a set). */
  const calls = new Map<string, number>();
  const effects = new Set<string>();
  const errors: WebhookError[] = [];
  /** Called inside a handler once the given number of handler calls is reached: the fault strikes mid-traffic. */
  let fault: { after: number; strike: () => void } | undefined;
  const args = (folder: string) => ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', folder];

  const effect = (id: string): void => {
    calls.set(id, (calls.get(id) ?? 0) + 1);
    effects.add(id);
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    if (fault !== undefined && total >= fault.after) {
      const { strike } = fault;
      fault = undefined;
      strike();
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-outages-'));
    redis = await startRedis({ args: args(dir) });
    // As the guides show them, with their defaults: both reconnect and keep commands while disconnected.
    ioredis = new Redis(redis.connection);
    ioredis.on('error', () => undefined);
    nodeRedis = createClient({ url: redis.url });
    nodeRedis.on('error', () => undefined);
    admin = new Redis({ ...redis.connection, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    admin.on('error', () => undefined);
    await Promise.all([ioredis.ping(), nodeRedis.connect(), admin.connect()]);
    const senders: RedisCommand[] = [([name = '', ...rest]) => ioredis.call(name, ...rest), (rest) => nodeRedis.sendCommand(rest)];
    for (const sendCommand of senders) {
      const app = express();
      app.use(
        '/callbacks',
        createWebhookMiddleware({
          allowUnauthenticated: true,
          storeTimeoutMs: STORE_TIMEOUT_MS,
          store: createRedisDuplicateStore({ sendCommand, keyPrefix: 'outages:seen:' }),
          reassemblyStore: createRedisReassemblyStore({ sendCommand, keyPrefix: 'outages:parts:' }),
          onDeliveryReceipt: (r) => effect(r.mtStatus.ticketId),
          onInboundMessage: (m) => effect(m.text ?? ''),
          onError: (e) => errors.push(e),
        }),
      );
      instances.push(await listen(app));
    }
  });

  afterAll(async () => {
    redis?.resume();
    for (const instance of instances) await instance.close();
    ioredis?.disconnect();
    admin?.disconnect();
    await nodeRedis?.disconnect().catch(() => undefined);
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Posts each event to an instance in turn (the two parts of a message reach different instances); the answers in order. */
  const post = (events: readonly Event[]): Promise<{ status: number; retryAfter: string | null }[]> =>
    Promise.all(
      events.map(async ({ body }, i) => {
        const answer = await fetch(`${instances[i % instances.length]?.url}/callbacks`, { method: 'POST', headers: JSON_HEADERS, body });
        await answer.arrayBuffer();
        return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
      }),
    );

  /** The service's retries: what was not answered 200 is posted again, round after round; the rounds it took. */
  const retryUntilTaken = async (events: readonly Event[]): Promise<number> => {
    let left = events;
    let rounds = 0;
    while (left.length > 0 && rounds < 30) {
      const answers = await post(left);
      left = left.filter((_, i) => answers[i]?.status !== 200);
      rounds++;
    }
    expect(left.map((e) => e.id)).toEqual([]);
    return rounds;
  };

  const answeredOnce = (statuses: readonly { status: number; retryAfter: string | null }[]): void => {
    expect(statuses.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    for (const a of statuses) if (a.status === 503) expect(a.retryAfter).toBe('10');
  };

  it('frozen (SIGSTOP) mid-traffic: every callback 200 or 503, every one posted while frozen 503; after SIGCONT each event handled once', async () => {
    const { events, effects: expected } = batch('1', 16, 4);
    const during = batch('2', 6, 2);
    fault = { after: 3, strike: () => redis.pause() };
    let first;
    let frozen;
    try {
      first = await post(events);
      frozen = await post(during.events);
    } finally {
      redis.resume();
    }
    expect(fault).toBeUndefined();
    answeredOnce(first);
    expect(frozen.map((a) => a.status)).toEqual(Array(during.events.length).fill(503));
    answeredOnce(frozen);
    // At least the write of the handler that froze it ran past the bound (answered 200: its handler had run).
    expect(errors.filter((e) => e.code === 'store-failed').length).toBeGreaterThan(0);

    const taken = events.filter((_, i) => first[i]?.status === 200);
    await retryUntilTaken([...events.filter((e) => !taken.includes(e)), ...during.events]);
    for (const id of [...expected, ...during.effects]) expect(calls.get(id), id).toBe(1);
    expect(errors.filter((e) => e.code === 'lease-expired')).toEqual([]);
  });

  it('shut down (SHUTDOWN NOSAVE) mid-traffic and restarted on its port: every callback 200 or 503, every one while down 503; then each event has exactly one effect', async () => {
    const { events, effects: expected } = batch('3', 16, 4);
    const down = batch('4', 6, 2);
    const exited = new Promise((resolve) => redis.process.once('exit', resolve));
    const before = calls.size;
    fault = { after: [...calls.values()].reduce((a, b) => a + b, 0) + 3, strike: () => void admin.call('SHUTDOWN', 'NOSAVE').catch(() => undefined) };
    const first = await post(events);
    await exited;
    expect(fault).toBeUndefined();
    answeredOnce(first);
    const whileDown = await post(down.events);
    expect(whileDown.map((a) => a.status)).toEqual(Array(down.events.length).fill(503));
    answeredOnce(whileDown);

    redis = await startRedis({ port: redis.port, args: args(dir) });
    const rounds = await retryUntilTaken([...events.filter((_, i) => first[i]?.status !== 200), ...down.events]);
    expect(rounds).toBeLessThan(30);
    // Exactly one effect per event, and none for anything else.
    for (const id of [...expected, ...down.effects]) expect(effects.has(id), id).toBe(true);
    expect(calls.size - before).toBe(expected.length + down.effects.length);
    const reported = errors.map((e) => `${e.code}: ${e.message}`).join('\n');
    for (const id of [...expected, ...down.effects]) expect(calls.get(id), `${id}\n${reported}`).toBe(1);
  });
});

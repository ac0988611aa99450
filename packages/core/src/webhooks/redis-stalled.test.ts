import { Redis } from 'ioredis';
import { Redis as Redis6 } from 'ioredis-6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { startRedisServer, type CoreTestRedis } from '../../test/redis-server.js';
import { createRedisDuplicateStore, type DuplicateStore, type RedisCommand } from './duplicate-store.js';
import type { InboundMessage } from './inbound-reassembler.js';
import type { ReassemblyStore } from './reassembly-store.js';
import { createRedisReassemblyStore } from './redis-reassembly-store.js';
import type { WebhookError } from './webhook-error.js';
import { createWebhookHandler, type WebhookRequest } from './webhook-handler.js';

// A Redis that stops answering (SIGSTOP) under receivers: every callback is answered 503 with
// Retry-After at the store bound, none 200; once Redis goes on, what the stalled commands took is
// given back, and every retry is handled exactly once. Its own file: it freezes a server.

// Room for a loaded machine; the case waits for it once, while Redis is stopped.
const STORE_TIMEOUT_MS = 1_000;
const XML = { 'x-api-version': '4', 'content-type': 'application/xml; charset=UTF-8' };

const post = (body: string): WebhookRequest => ({ method: 'POST', headers: XML, body });
const receipt = (ticketId: string): WebhookRequest => post(loadFixture('delivery-receipt/single-delivered.xml').replace('44101-0922I-13413-21GDL', ticketId));
/** Part `n` of a two-part message; `handset` makes it another message. */
const part = (n: 1 | 2, handset: string): WebhookRequest =>
  post(loadFixture(`mobile-originate/udh8-part${n}.xml`).replace('12065551234', handset).replaceAll('31QX9-', `${handset.slice(-4)}-`));

/** Resolves once `count()` reaches `target`, checked each time `bump` is called. */
function counter() {
  let value = 0;
  let waiting: { target: number; resolve: () => void } | undefined;
  return {
    bump() {
      value++;
      if (waiting !== undefined && value >= waiting.target) waiting.resolve();
    },
    get value() {
      return value;
    },
    reach(target: number): Promise<void> {
      if (value >= target) return Promise.resolve();
      return new Promise((resolve) => (waiting = { target, resolve }));
    },
  };
}

/** A receiver on Redis stores, counting what it hands over and what it gives back after the bound. */
function receiver(send: RedisCommand, prefix: string) {
  const handled = new Map<string, number>();
  const messages: InboundMessage[] = [];
  const errors: WebhookError[] = [];
  const released = counter();
  const restored = counter();
  const dup = createRedisDuplicateStore({ sendCommand: send, keyPrefix: `${prefix}:dup:` });
  const store: DuplicateStore = {
    reserve: (key, leaseMs) => dup.reserve(key, leaseMs),
    commit: (key, ttlMs) => dup.commit(key, ttlMs),
    release: async (key) => {
      await dup.release(key);
      released.bump();
    },
  };
  const parts = createRedisReassemblyStore({ sendCommand: send, keyPrefix: `${prefix}:parts:` });
  const reassemblyStore: ReassemblyStore = {
    add: (p, o) => parts.add(p, o),
    finish: (g, o) => parts.finish(g, o),
    claimExpired: (o) => parts.claimExpired(o),
    restore: async (g) => {
      await parts.restore(g);
      restored.bump();
    },
  };
  const count = (ticketId: string): void => void handled.set(ticketId, (handled.get(ticketId) ?? 0) + 1);
  const handler = createWebhookHandler({
    allowUnauthenticated: true,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    store,
    reassemblyStore,
    onDeliveryReceipt: (r) => count(r.mtStatus.ticketId),
    onInboundMessage: (m) => {
      messages.push(m);
      count(m.ticketId);
    },
    onError: (e) => errors.push(e),
  });
  return { handler, handled, messages, errors, released, restored };
}

describe('receivers on a Redis that stops answering (SIGSTOP)', () => {
  let server: CoreTestRedis;
  // As the READMEs show it: ioredis 5 with its defaults (a stalled command waits), and ioredis 6 with a command timeout.
  let plain: Redis;
  let timed: Redis6;

  beforeAll(async () => {
    server = await startRedisServer();
    plain = new Redis({ host: server.host, port: server.port });
    timed = new Redis6({ host: server.host, port: server.port, commandTimeout: 400, maxRetriesPerRequest: 1 });
    await Promise.all([plain.ping(), timed.ping()]);
  });

  afterAll(async () => {
    server?.resume();
    await Promise.all([plain?.quit(), timed?.quit()].map((q) => q?.catch(() => undefined)));
    await server?.stop();
  });

  it('answers 503 with Retry-After at the bound, never 200; once Redis goes on, each retry is handled once (no 409 against itself)', async () => {
    const a = receiver(([name = '', ...args]) => plain.call(name, ...args), 'plain');
    const b = receiver(([name = '', ...args]) => timed.call(name, ...args), 'timed');
    const tickets = (tag: string) => Array.from({ length: 5 }, (_, i) => `${tag}-0922I-13413-${i}0000`);
    const receivers = [
      { r: a, tickets: tickets('AAAAA'), handset: '12065550001' },
      { r: b, tickets: tickets('BBBBB'), handset: '12065550002' },
    ];
    // Before: a receipt handled, the first part of each message held.
    for (const { r, handset } of receivers) {
      expect((await r.handler.handle(receipt(`${handset}-before`))).status).toBe(200);
      expect((await r.handler.handle(part(1, handset))).status).toBe(200);
    }

    server.pause();
    let stalled;
    try {
      stalled = await Promise.all(receivers.flatMap(({ r, tickets, handset }) => [...tickets.map((t) => r.handler.handle(receipt(t))), r.handler.handle(part(2, handset))]));
    } finally {
      server.resume();
    }
    expect(stalled.map((answer) => answer.status)).toEqual(Array(12).fill(503));
    for (const answer of stalled) {
      expect(answer.rejection).toBe('store-unavailable');
      expect(answer.headers['retry-after']).toBe('10');
    }
    for (const { r } of receivers) {
      expect([...r.handled.values()]).toEqual([1]);
      expect(r.errors.filter((e) => e.code === 'store-failed')).toHaveLength(6);
    }

    // The stalled reservations and hand-over of the default client land late: given back.
    await Promise.all([a.released.reach(5), a.restored.reach(1)]);

    const retried = await Promise.all(receivers.flatMap(({ r, tickets, handset }) => [...tickets.map((t) => r.handler.handle(receipt(t))), r.handler.handle(part(2, handset))]));
    expect(retried.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    for (const { r, tickets } of receivers) {
      for (const t of tickets) expect(r.handled.get(t)).toBe(1);
      expect(r.messages).toHaveLength(1);
      expect(r.messages[0]).toMatchObject({ complete: true, text: 'Hello world' });
      expect(r.errors.filter((e) => e.code === 'lease-expired')).toEqual([]);
      r.handler.close();
    }
  });
});

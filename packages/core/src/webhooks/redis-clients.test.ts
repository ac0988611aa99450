import { Redis } from 'ioredis';
import { Redis as Redis6 } from 'ioredis-6';
import { createClient as createClient5 } from 'redis';
import { createClient as createClient4 } from 'redis-4';
import { createClient as createClient6 } from 'redis-6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { startRedisServer, type CoreTestRedis } from '../../test/redis-server.js';
import { createRedisTicketStore } from '../telemetry/redis-ticket-store.js';
import { decodeCallback, type InboundCallback } from './decode-callback.js';
import { createRedisDuplicateStore, type RedisCommand } from './duplicate-store.js';
import { groupMessage } from './reassembly-store.js';
import { createRedisReassemblyStore } from './redis-reassembly-store.js';
import { createWebhookHandler } from './webhook-handler.js';

// The same store contract through every client the READMEs name, on one real redis-server: ioredis
// 5 and 6, node-redis 4, 5 (RESP2 and RESP3) and 6 (RESP3 by default). Each client answers in its
// own shapes (strings or buffers, its own error classes for NOSCRIPT), which the stores must read alike.

interface Client {
  readonly name: string;
  readonly connect: (server: CoreTestRedis) => Promise<{ send: RedisCommand; close: () => Promise<unknown> }>;
}

/** ioredis, as the guides show it: `call(name, ...args)`. */
const ioredis = (name: string, open: (options: { host: string; port: number; maxRetriesPerRequest: number }) => Redis | Redis6): Client => ({
  name,
  async connect({ host, port }) {
    const client = open({ host, port, maxRetriesPerRequest: 1 });
    await client.ping();
    return { send: ([command = '', ...args]) => client.call(command, ...args), close: () => client.quit() };
  },
});

/** node-redis, as the guides show it: `sendCommand(args)`. */
const nodeRedis = (name: string, open: (socket: { host: string; port: number; reconnectStrategy: false }) => { sendCommand(args: string[]): Promise<unknown>; connect(): Promise<unknown>; quit(): Promise<unknown>; on(event: 'error', listener: () => void): unknown }): Client => ({
  name,
  async connect({ host, port }) {
    const client = open({ host, port, reconnectStrategy: false });
    client.on('error', () => undefined);
    await client.connect();
    return { send: (args) => client.sendCommand(args), close: () => client.quit() };
  },
});

const CLIENTS: readonly Client[] = [
  ioredis('ioredis 5', (options) => new Redis(options)),
  ioredis('ioredis 6', (options) => new Redis6(options)),
  nodeRedis('node-redis 4', (socket) => createClient4({ socket })),
  nodeRedis('node-redis 5', (socket) => createClient5({ socket })),
  nodeRedis('node-redis 5 (RESP3)', (socket) => createClient5({ socket, RESP: 3 })),
  nodeRedis('node-redis 6', (socket) => createClient6({ socket })),
];

const XML = { 'x-api-version': '4', 'content-type': 'application/xml; charset=UTF-8' };

function inbound(path: string): InboundCallback {
  const result = decodeCallback(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok || result.value.kind !== 'inbound-message') throw new Error(`${path} is not an inbound message`);
  return result.value;
}

describe('the Redis stores through each supported client', () => {
  let server: CoreTestRedis;
  const opened: { close: () => Promise<unknown> }[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
    await server?.stop();
  });

  describe.each(CLIENTS)('$name', (client) => {
    let send: RedisCommand;
    const prefix = `${client.name.replace(/\W+/g, '-')}:`;

    beforeAll(async () => {
      const connected = await client.connect(server);
      opened.push(connected);
      send = connected.send;
    });

    it('duplicate store: reserved, in flight for another instance, seen after commit with its TTL, free again after release', async () => {
      const one = createRedisDuplicateStore({ sendCommand: send, keyPrefix: `${prefix}dup:` });
      const two = createRedisDuplicateStore({ sendCommand: send, keyPrefix: `${prefix}dup:` });
      expect(await one.reserve('a', 60_000)).toBe('reserved');
      expect(await two.reserve('a', 60_000)).toBe('in-flight');
      // Kept for a day once committed: its TTL is the commit's, far above the reservation's whatever
      // time the test takes.
      await one.commit('a', 86_400_000);
      expect(await two.reserve('a', 60_000)).toBe('seen');
      expect(Number(await send(['PTTL', `${prefix}dup:a`]))).toBeGreaterThan(60_000);
      expect(await one.reserve('b', 60_000)).toBe('reserved');
      await two.release('b'); // not its reservation: kept
      expect(await two.reserve('b', 60_000)).toBe('in-flight');
      await one.release('b');
      expect(await two.reserve('b', 60_000)).toBe('reserved');
    });

    it('reassembly store: holds, joins once, recognises a handed-over part, claims an orphan once, and runs by source after SCRIPT FLUSH', async () => {
      // The stores' clock, stepped by the test (the scripts compare the instants they are given).
      const clock = { now: 1_800_000_000_000 };
      const make = () => createRedisReassemblyStore({ sendCommand: send, keyPrefix: `${prefix}parts:`, now: () => clock.now });
      const [one, two] = [make(), make()];
      const options = { timeoutMs: 60_000, leaseMs: 30_000 };
      const first = inbound('mobile-originate/udh8-part1.xml');
      const second = inbound('mobile-originate/udh8-part2.xml');
      expect(await one.add(first, options)).toEqual({ status: 'stored', received: 1, total: 2 });
      expect(await two.add(first, options)).toEqual({ status: 'held' });
      // The scripts forgotten: EVALSHA fails with each client's own NOSCRIPT error, and EVAL follows.
      expect(await send(['SCRIPT', 'FLUSH'])).toBe('OK');
      const taken = await two.add(second, options);
      expect(taken.status).toBe('complete');
      if (taken.status !== 'complete') return;
      expect(taken.group.parts).toEqual([first, second]);
      expect(groupMessage(taken.group)).toMatchObject({ complete: true, text: 'Hello world' });
      // Its handler failed: given back, then taken again by the other instance.
      await two.restore(taken.group);
      const again = await one.add(second, options);
      expect(again.status).toBe('complete');
      if (again.status !== 'complete') return;
      expect(await one.finish(again.group, { handedOverTtlMs: 60_000 })).toBe(true);
      expect(await one.finish(again.group, { handedOverTtlMs: 60_000 })).toBe(true); // sent twice: recognised
      expect(await two.add(first, options)).toEqual({ status: 'handed-over' });

      const lone = inbound('mobile-originate/udh16-part1.json');
      expect(await one.add(lone, { timeoutMs: 1_000, leaseMs: 30_000 })).toEqual({ status: 'stored', received: 1, total: 2 });
      expect(await one.size()).toBe(1);
      clock.now += 2_000;
      const [orphan, ...more] = await two.claimExpired({ leaseMs: 30_000, limit: 10 });
      expect(more).toEqual([]);
      expect(orphan?.parts).toEqual([lone]);
      expect(await one.claimExpired({ leaseMs: 30_000, limit: 10 })).toEqual([]);
      expect(await two.finish(orphan as NonNullable<typeof orphan>, { handedOverTtlMs: 60_000 })).toBe(true);
      expect(await one.size()).toBe(0);
    });

    it('ticket store: finds what it remembered, with its trace context', async () => {
      const store = createRedisTicketStore({ sendCommand: send, keyPrefix: `${prefix}tickets:` });
      const context = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 };
      await store.remember('T1', { sentAt: 1_700_000_000_123, context }, 60_000);
      await store.remember('T2', { sentAt: 1_700_000_000_456 }, 60_000);
      expect(await store.find('T1')).toEqual({ sentAt: 1_700_000_000_123, context });
      expect(await store.find('T2')).toEqual({ sentAt: 1_700_000_000_456 });
      expect(await store.find('T3')).toBeUndefined();
    });

    it('a receiver on both stores handles each receipt and each message once', async () => {
      const handled: string[] = [];
      const handler = createWebhookHandler({
        allowUnauthenticated: true,
        store: createRedisDuplicateStore({ sendCommand: send, keyPrefix: `${prefix}recv:dup:` }),
        reassemblyStore: createRedisReassemblyStore({ sendCommand: send, keyPrefix: `${prefix}recv:parts:` }),
        onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId),
        onInboundMessage: (m) => void handled.push(m.text ?? ''),
      });
      const post = (path: string) => handler.handle({ method: 'POST', headers: XML, body: loadFixture(path) });
      const statuses = [];
      for (const path of ['delivery-receipt/single-delivered.xml', 'delivery-receipt/single-delivered.xml', 'mobile-originate/udh8-part2.xml', 'mobile-originate/udh8-part1.xml', 'mobile-originate/udh8-part2.xml']) {
        statuses.push((await post(path)).status);
      }
      handler.close();
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(handled).toEqual(['44101-0922I-13413-21GDL', 'Hello world']);
    });
  });
});

/**
 * Two Fetch handlers ("instances", each served by Node on loopback) given the same duplicate store
 * and reassembly store, both on a real redis-server the test starts (Debian package
 * `redis-server`; the test fails with the install hint without it): the parts of one message
 * posted to different instances are joined and handed over once, a repeat on the other instance is
 * a duplicate, and a message whose last part never comes is reported once as an orphan.
 */
import { postFixture, startRedis, type TestRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFetchWebhookHandler,
  createRedisDuplicateStore,
  createRedisReassemblyStore,
  type FetchWebhookHandler,
  type InboundMessage,
  type RedisCommand,
} from '../src/index.js';
import { eventually, listenFetch, type Listening } from './helpers.js';

const PREFIX = 'fetch:';

describe('Fetch handlers on two instances sharing Redis stores', () => {
  let redis: TestRedis;
  let client: Redis;
  const handlers: FetchWebhookHandler[] = [];
  const servers: Listening[] = [];
  const inbox: Array<{ instance: string; message: InboundMessage }> = [];
  const orphans: Array<{ instance: string; message: InboundMessage }> = [];
  const receipts: string[] = [];

  beforeAll(async () => {
    // Stopped by the afterAll below (this package's runner has no kit setup file; a hook registered
    // from inside beforeAll would never run, and the server would outlive the run).
    redis = await startRedis({ teardown: 'manual' });
    client = new Redis(redis.port, redis.host, { maxRetriesPerRequest: 1 });
    const sendCommand: RedisCommand = ([command = '', ...args]) => client.call(command, ...args);
    for (const instance of ['a', 'b']) {
      const receive = createFetchWebhookHandler({
        allowUnauthenticated: true,
        store: createRedisDuplicateStore({ sendCommand, keyPrefix: `${PREFIX}seen:` }),
        reassemblyStore: createRedisReassemblyStore({ sendCommand, keyPrefix: `${PREFIX}parts:` }),
        reassemblyTimeoutMs: 1_000,
        orphanSweepMs: 100,
        onDeliveryReceipt: (receipt) => void receipts.push(`${instance}:${receipt.mtStatus.ticketId}:${receipt.mtStatus.segmentNumber ?? 1}`),
        onInboundMessage: (message) => void inbox.push({ instance, message }),
        onOrphan: (message) => void orphans.push({ instance, message }),
      });
      handlers.push(receive);
      servers.push(await listenFetch((request) => receive(request)));
    }
  });

  afterAll(async () => {
    for (const receive of handlers) receive.close();
    for (const server of servers) await server.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('joins the parts that reach different instances into one message, handed over once', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    expect((await postFixture(a, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    // The part waits in Redis, not in the instance that took it.
    expect(await client.keys(`${PREFIX}parts:*group:*`)).toHaveLength(1);
    expect((await postFixture(b, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    // The service's retry of a part, on the other instance: recognised, not handed over again.
    expect((await postFixture(a, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]?.instance).toBe('b');
    expect(inbox[0]?.message).toMatchObject({ complete: true, text: 'Привет! Это первая часть и вторая часть сообщения.' });
    expect(await client.keys(`${PREFIX}parts:*group:*`)).toEqual([]);
  });

  it('handles a receipt once whichever instance its repeat reaches', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    expect((await postFixture(a, 'receipt-single-delivered.json')).status).toBe(200);
    expect((await postFixture(b, 'receipt-single-delivered.json')).status).toBe(200);
    expect(receipts).toEqual(['a:44101-0922I-13413-21GDL:1']);
  });

  it('reports a message whose other part never came once, across both instances', async () => {
    const [a] = servers.map((s) => s.url) as [string, string];
    expect((await postFixture(a, 'inbound-ref8-part1.xml')).status).toBe(200);
    await eventually(() => (orphans.length > 0 || undefined), 5_000);
    // Both instances sweep (each has answered requests) for a while longer: still one report.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(orphans).toHaveLength(1);
    expect(orphans[0]?.message).toMatchObject({ complete: false, missingParts: [2] });
    // An index emptied is deleted by Redis: none left holds a message.
    expect(await client.keys(`${PREFIX}parts:*deadlines`)).toEqual([]);
  });
});

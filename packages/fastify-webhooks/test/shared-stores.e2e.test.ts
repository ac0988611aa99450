/**
 * Two Fastify applications ("instances") given the same duplicate store and reassembly store, both
 * on a real redis-server the test starts (Debian package `redis-server`; the test fails with the
 * install hint without it): the parts of one message posted to different instances are joined and
 * handed over once, and a repeat on the other instance is a duplicate.
 */
import { postFixture, startRedis, type TestRedis } from '@smsv4/testing';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDuplicateStore, createRedisReassemblyStore, fastifyWebhooks, type InboundMessage, type RedisCommand } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

let redis: TestRedis;
let client: Redis;

beforeAll(async () => {
  // Stopped by the afterAll below (this package's runner has no kit setup file; a hook registered
  // from inside beforeAll would never run).
  redis = await startRedis({ teardown: 'manual' });
  client = new Redis(redis.port, redis.host, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describe.each(FASTIFY_VERSIONS)('%s instances sharing Redis stores', (name, createApp) => {
  const prefix = `${name.replace(' ', '')}:`;
  const apps: FastifyInstance[] = [];
  const origins: string[] = [];
  const inbox: Array<{ instance: string; message: InboundMessage }> = [];
  const receipts: string[] = [];

  beforeAll(async () => {
    const sendCommand: RedisCommand = ([command = '', ...args]) => client.call(command, ...args);
    for (const instance of ['a', 'b']) {
      const app = createApp();
      await app.register(fastifyWebhooks, {
        allowUnauthenticated: true,
        prefix: '/sms/callbacks',
        store: createRedisDuplicateStore({ sendCommand, keyPrefix: `${prefix}seen:` }),
        reassemblyStore: createRedisReassemblyStore({ sendCommand, keyPrefix: `${prefix}parts:` }),
        onDeliveryReceipt: (receipt) => void receipts.push(`${instance}:${receipt.mtStatus.ticketId}:${receipt.mtStatus.segmentNumber ?? 1}`),
        onInboundMessage: (message) => void inbox.push({ instance, message }),
      });
      apps.push(app);
      origins.push(`${await listen(app)}/sms/callbacks`);
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('joins the parts that reach different instances into one message, handed over once', async () => {
    const [a, b] = origins as [string, string];
    expect((await postFixture(a, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    // The part waits in Redis, not in the instance that took it.
    expect(await client.keys(`${prefix}parts:*group:*`)).toHaveLength(1);
    expect((await postFixture(b, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    // The service's retry of a part, on the other instance: recognised, not handed over again.
    expect((await postFixture(a, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]?.instance).toBe('b');
    expect(inbox[0]?.message).toMatchObject({ complete: true, text: 'Привет! Это первая часть и вторая часть сообщения.' });
    expect(await client.keys(`${prefix}parts:*group:*`)).toEqual([]);
    // An index emptied is deleted by Redis: none left holds a message.
    expect(await client.keys(`${prefix}parts:*deadlines`)).toEqual([]);
  });

  it('handles a receipt once whichever instance its repeat reaches', async () => {
    const [a, b] = origins as [string, string];
    expect((await postFixture(a, 'receipt-single-delivered.xml')).status).toBe(200);
    expect((await postFixture(b, 'receipt-single-delivered.xml')).status).toBe(200);
    expect(receipts).toEqual(['a:44101-0922I-13413-21GDL:1']);
    expect(await client.get(`${prefix}seen:receipt:44101-0922I-13413-21GDL:1`)).toBe('seen');
  });
});

import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { createTestSdk } from '../../test/otel-sdk.js';
import { startRedisServer, type CoreTestRedis } from '../../test/redis-server.js';
import { createWebhookHandler } from '../webhooks/webhook-handler.js';
import type { RedisCommand } from '../webhooks/duplicate-store.js';
import { createTelemetry, DEFAULT_TICKET_TTL_MS } from './create-telemetry.js';
import { createRedisTicketStore } from './redis-ticket-store.js';
import { TELEMETRY_METRICS } from './telemetry-names.js';

// The receipt of test/fixtures/delivery-receipt/single-delivered.xml.
const TICKET = '44101-0922I-13413-21GDL';
const DELIVERED_AT = Date.parse('2024-03-14T09:26:53.000Z');

const receipt = () => ({
  method: 'POST',
  headers: { 'x-api-version': '4', 'content-type': 'application/xml; charset=UTF-8' },
  body: loadFixture('delivery-receipt/single-delivered.xml'),
});

describe('createRedisTicketStore on a real redis-server: a receipt taken by another process than its send', () => {
  let server: CoreTestRedis;
  let nodeRedis: ReturnType<typeof createClient>;
  let ioredis: Redis;
  // The sending process speaks node-redis, the receiving one ioredis: both clients fit the store.
  let viaNodeRedis: RedisCommand;
  let viaIoredis: RedisCommand;

  beforeAll(async () => {
    server = await startRedisServer();
    nodeRedis = createClient({ socket: { host: server.host, port: server.port, reconnectStrategy: false } });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    ioredis = new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: 1 });
    viaNodeRedis = (args) => nodeRedis.sendCommand(args);
    viaIoredis = ([name = '', ...args]) => ioredis.call(name, ...args);
  });
  afterAll(async () => {
    await nodeRedis?.quit();
    ioredis?.disconnect();
    await server?.stop();
  });

  /** Waits until redis holds a key (the client does not wait for the store's write). */
  async function written(key: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ((await ioredis.exists(key)) === 1) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`${key} was never written`);
  }

  it("links the receipt's span to the send's and records the send-to-delivery latency, for the ticket TTL", async () => {
    const sending = createTestSdk();
    const receiving = createTestSdk();
    const sentAt = DELIVERED_AT - 42_500;
    const sender = createTelemetry({
      api: sending.api,
      tracerProvider: sending.tracerProvider,
      meterProvider: sending.meterProvider,
      ticketStore: createRedisTicketStore({ sendCommand: viaNodeRedis, keyPrefix: 'test:a:' }),
      now: () => sentAt,
    });
    const receiver = createTelemetry({
      api: receiving.api,
      tracerProvider: receiving.tracerProvider,
      meterProvider: receiving.meterProvider,
      ticketStore: createRedisTicketStore({ sendCommand: viaIoredis, keyPrefix: 'test:a:' }),
    });
    sender.clientCall('send').end({ ok: true, attempts: 1, httpStatus: 202, ticketId: TICKET });
    await written(`test:a:${TICKET}`);
    const ttl = await ioredis.pttl(`test:a:${TICKET}`);
    expect(ttl).toBeGreaterThan(DEFAULT_TICKET_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(DEFAULT_TICKET_TTL_MS);

    const handler = createWebhookHandler({ allowUnauthenticated: true, telemetry: receiver, onDeliveryReceipt: () => undefined });
    expect((await handler.handle(receipt())).status).toBe(200);
    handler.close();

    const send = sending.finishedSpans().find((s) => s.name === 'smsv4 send');
    const taken = receiving.finishedSpans().find((s) => s.name === 'smsv4 receive delivery-receipt');
    expect(send).toBeDefined();
    expect(taken?.links.map((l) => l.context)).toEqual([
      { traceId: send?.spanContext().traceId, spanId: send?.spanContext().spanId, traceFlags: send?.spanContext().traceFlags },
    ]);
    const latency = await receiving.points(TELEMETRY_METRICS.deliveryLatency.name);
    expect(latency.map((p) => p.attributes)).toEqual([{ 'smsv4.delivery.outcome': 'delivered' }]);
    expect(latency[0]?.value).toMatchObject({ count: 1, sum: 42.5 });
    await sending.shutdown();
    await receiving.shutdown();
  });

  it('records the latency without a link where the sender has no tracer, and nothing for a ticket it never saw', async () => {
    const receiving = createTestSdk();
    const sender = createTelemetry({
      meterProvider: receiving.meterProvider, // metrics only: no span to link to
      ticketStore: createRedisTicketStore({ sendCommand: viaNodeRedis, keyPrefix: 'test:b:' }),
      now: () => DELIVERED_AT - 7_000,
    });
    sender.clientCall('send').end({ ok: true, attempts: 1, httpStatus: 202, ticketId: TICKET });
    await written(`test:b:${TICKET}`);
    expect(await ioredis.get(`test:b:${TICKET}`)).toBe(String(DELIVERED_AT - 7_000));
    for (const prefix of ['test:b:', 'test:c:']) {
      const receiver = createTelemetry({
        api: receiving.api,
        tracerProvider: receiving.tracerProvider,
        meterProvider: receiving.meterProvider,
        ticketStore: createRedisTicketStore({ sendCommand: viaIoredis, keyPrefix: prefix }),
      });
      const handler = createWebhookHandler({ allowUnauthenticated: true, telemetry: receiver, onDeliveryReceipt: () => undefined });
      expect((await handler.handle(receipt())).status).toBe(200);
      handler.close();
    }
    const taken = receiving.finishedSpans().filter((s) => s.name === 'smsv4 receive delivery-receipt');
    expect(taken.map((s) => s.links.length)).toEqual([0, 0]);
    const latency = await receiving.points(TELEMETRY_METRICS.deliveryLatency.name);
    expect(latency.map((p) => p.value)).toMatchObject([{ count: 1, sum: 7 }]);
    await receiving.shutdown();
  });
});

describe('createRedisTicketStore: what it writes and reads', () => {
  it('writes SET key value PX ttl and reads back only values it wrote', async () => {
    const sent: string[][] = [];
    let reply: unknown = null;
    const store = createRedisTicketStore({
      sendCommand: async (args) => {
        sent.push(args);
        return reply;
      },
    });
    await store.remember('T1', { sentAt: 1_700_000_000_123, context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 } }, 1500.2);
    expect(sent).toEqual([['SET', 'smsv4:tickets:T1', `1700000000123 ${'a'.repeat(32)} ${'b'.repeat(16)} 1`, 'PX', '1501']]);
    reply = `1700000000123 ${'a'.repeat(32)} ${'b'.repeat(16)} 1`;
    expect(await store.find('T1')).toEqual({ sentAt: 1_700_000_000_123, context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 } });
    reply = new TextEncoder().encode('1700000000123');
    expect(await store.find('T1')).toEqual({ sentAt: 1_700_000_000_123 });
    for (const other of [null, 'seen', '17 not-hex 1 1', `1 ${'a'.repeat(32)} short 1`, 42]) {
      reply = other;
      expect(await store.find('T1')).toBeUndefined();
    }
    expect(sent.at(-1)).toEqual(['GET', 'smsv4:tickets:T1']);
  });

  it('refuses bad options', () => {
    expect(() => createRedisTicketStore({ sendCommand: 'nope' as unknown as RedisCommand })).toThrow(new TypeError('sendCommand must be a function that sends one Redis command'));
    expect(() => createRedisTicketStore({ sendCommand: async () => null, keyPrefix: 1 as unknown as string })).toThrow(new TypeError('keyPrefix must be a string'));
  });
});

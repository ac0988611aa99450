/**
 * Two receivers (two "instances") sharing a Redis-backed duplicate store, on a redis-server the
 * test starts (Debian package `redis-server`; the test fails with the install hint without it).
 */
import express from 'express';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDuplicateStore, createWebhookMiddleware, type WebhookError } from '../src/index.js';
import { postFixture, startRedis, type TestRedis } from '@smsv4/testing';
import { listen, type Listening } from './helpers.js';

describe('a Redis duplicate store shared by two instances', () => {
  let redis: TestRedis;
  let client: ReturnType<typeof createClient>;
  const instances: Listening[] = [];
  const handled: string[] = [];
  const errors: WebhookError[] = [];
  let failOnce = true;

  beforeAll(async () => {
    redis = await startRedis();
    client = createClient({ socket: { host: redis.host, port: redis.port, reconnectStrategy: false } });
    client.on('error', () => undefined);
    await client.connect();
    for (const name of ['a', 'b']) {
      const app = express();
      const store = createRedisDuplicateStore({ sendCommand: (args) => client.sendCommand(args), keyPrefix: 'test:' });
      app.use(
        '/callbacks',
        createWebhookMiddleware({
          allowUnauthenticated: true,
          store,
          onError: (e) => errors.push(e),
          async onDeliveryReceipt(receipt) {
            if (receipt.mtStatus.segmentNumber === 3 && failOnce) {
              failOnce = false;
              throw new Error('transient');
            }
            handled.push(`${name}:${receipt.mtStatus.ticketId}:${receipt.mtStatus.segmentNumber ?? 1}`);
          },
          onInboundMessage: (message) => void handled.push(`${name}:${message.ticketId}`),
        }),
      );
      instances.push(await listen(app));
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    if (client?.isOpen) await client.quit();
    await redis?.stop();
  });

  it('handles an event once whichever instance its retries reach', async () => {
    const [a, b] = instances as [Listening, Listening];
    expect((await postFixture(`${a.url}/callbacks`, 'receipt-single-delivered.xml')).status).toBe(200);
    expect((await postFixture(`${b.url}/callbacks`, 'receipt-single-delivered.json')).status).toBe(200);
    expect((await postFixture(`${b.url}/callbacks`, 'inbound-text.json')).status).toBe(200);
    expect((await postFixture(`${a.url}/callbacks`, 'inbound-text.json')).status).toBe(200);
    expect(handled).toEqual(['a:44101-0922I-13413-21GDL:1', 'b:2213K-0122M-1347B-28U4E']);
    expect(await client.get('test:receipt:44101-0922I-13413-21GDL:1')).toBe('seen');
    const ttl = await client.pTTL('test:receipt:44101-0922I-13413-21GDL:1');
    expect(ttl).toBeGreaterThan(24 * 3_600_000);
  });

  it('forgets a failed event so that the retry on the other instance is handled', async () => {
    const [a, b] = instances as [Listening, Listening];
    expect((await postFixture(`${a.url}/callbacks`, 'receipt-multipart-part3-delivered.xml')).status).toBe(500);
    expect(await client.exists('test:receipt:03155-0331L-1439U-51SLFX:3')).toBe(0);
    expect((await postFixture(`${b.url}/callbacks`, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
    expect(handled).toContain('b:03155-0331L-1439U-51SLFX:3');
  });

  it('answers 503 when Redis is gone, so the service retries', async () => {
    await redis.stop();
    const answer = await postFixture(`${instances[0]?.url}/callbacks`, 'receipt-multipart-part1-delivered.xml');
    expect(answer.status).toBe(503);
    expect(errors.some((e) => e.code === 'store-failed')).toBe(true);
  });
});

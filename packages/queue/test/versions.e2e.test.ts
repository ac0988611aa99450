/**
 * The queue on BullMQ 6 and ioredis 6 (the suites' other files run BullMQ 5 and ioredis 5): the
 * same source, its `bullmq` and `ioredis` imports swapped for the 6.x releases; enqueue, send,
 * state, close.
 */
import { startRedis, type TestRedis } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSendQueue } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

vi.mock('bullmq', async () => await import('bullmq-6'));
vi.mock('ioredis', async () => await import('ioredis-6'));

let redis: TestRedis;
let setup: SandboxSetup;

beforeAll(async () => {
  redis = await startRedis();
  setup = await startSandbox({ timeScale: 100 });
});
afterAll(async () => {
  await setup?.close();
  await redis?.stop();
});

describe('BullMQ 6 and ioredis 6', () => {
  it('runs on the 6.x releases: each key sent once, its state recorded, closed', async () => {
    const bullmq = await import('bullmq');
    const ioredis = await import('ioredis');
    const versions = await Promise.all([import('bullmq-6/package.json', { with: { type: 'json' } }), import('ioredis-6/package.json', { with: { type: 'json' } })]);
    expect(versions.map((v) => v.default.version.split('.')[0])).toEqual(['6', '6']);
    expect(bullmq.Queue).toBe((await import('bullmq-6')).Queue);
    expect(ioredis.Redis).toBe((await import('ioredis-6')).Redis);

    const connection = new ioredis.Redis({ ...redis.connection, maxRetriesPerRequest: null });
    const queue = createSendQueue({
      connection,
      name: 'v6',
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
      persistence: 'ignore',
    });
    // The queue's own imports were swapped too.
    expect(queue.bullQueue).toBeInstanceOf((await import('bullmq-6')).Queue);
    const keys = Array.from({ length: 5 }, (_, i) => `v6-${i}`);
    const results = await queue.enqueueMany(keys.map((key) => ({ request: { destination: { address: '14155550100' }, message: { type: 'text', content: `Hi [${key}]` } }, key })));
    expect(results.every((r) => r.ok && r.value.created)).toBe(true);
    const worker = queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessages(keys)).every((m) => m?.state === 'accepted'), 10_000)).toBe(true);
    const sent = (await sandboxRecord(setup.server.url)).map((m) => keyOfContent(m.content));
    expect(sent.sort()).toEqual([...keys].sort());
    await worker.close();
    await queue.close();
    await connection.quit();
  });
});

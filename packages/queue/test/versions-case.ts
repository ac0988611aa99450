/**
 * The case every versions file runs, on the BullMQ and ioredis its module mocks swapped in: the
 * same source enqueues, sends, records the state and closes, each key sent once.
 */
import { startRedis, type TestRedis } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

/** The releases a file swapped in: their majors, and their `Queue` and `Redis` classes as imported by their own names. */
export interface Releases {
  readonly bullmq: { readonly major: string; readonly version: string; readonly Queue: unknown };
  readonly ioredis: { readonly major: string; readonly version: string; readonly Redis: unknown };
}

/** Runs the case with `bullmq` and `ioredis` as the file mocked them, checking first that they are `releases`. */
export function versionsCase(name: string, releases: () => Promise<Releases>): void {
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

  describe(name, () => {
    it('runs on these releases: each key sent once, its state recorded, closed', async () => {
      const bullmq = await import('bullmq');
      const ioredis = await import('ioredis');
      const expected = await releases();
      // The queue's own imports are the releases the file swapped in.
      expect([expected.bullmq.version.split('.')[0], expected.ioredis.version.split('.')[0]]).toEqual([expected.bullmq.major, expected.ioredis.major]);
      expect(bullmq.Queue).toBe(expected.bullmq.Queue);
      expect(ioredis.Redis).toBe(expected.ioredis.Redis);

      const connection = new ioredis.Redis({ ...redis.connection, maxRetriesPerRequest: null });
      const queue = createSendQueue({
        connection,
        name,
        clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
        persistence: 'ignore',
      });
      expect(queue.bullQueue).toBeInstanceOf(bullmq.Queue);
      const keys = Array.from({ length: 5 }, (_, i) => `${name}-${i}`);
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
}

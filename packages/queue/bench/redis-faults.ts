/**
 * What a Redis fault costs in time: how long a receiver takes to answer a callback, and the queue
 * to answer `enqueue`, while Redis is frozen (SIGSTOP) and while it is shut down, against the same
 * call on a healthy Redis (the baseline, measured in the same run); and how long after Redis is
 * started again the first call succeeds. Both with their defaults, as the READMEs show them: the
 * receiver (core's `createWebhookHandler` with the Redis duplicate store over ioredis) bounds its
 * store calls by `storeTimeoutMs` (2 s), the queue by `operationTimeoutMs` (5 s). The tests check
 * that every answer comes, and what it is; this measures when.
 *
 * Each of `BENCH_ROUNDS` rounds (default 3): 20 healthy calls, then Redis frozen and 20 calls at
 * once, then Redis shut down (SHUTDOWN NOSAVE) and 20 calls at once, then Redis started again on its
 * port and one call every 10 ms until one succeeds.
 *
 * Run (after building the queue, core and the sandbox, since the built packages are measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/queue bench:faults` (`bench:faults:write` also rewrites the block in BENCHMARKS.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisDuplicateStore, createWebhookHandler, encodeDeliveryReceipt, type WebhookRequest } from '@smsv4/core';
import { createSandbox } from '@smsv4/sandbox';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import type * as Sources from '../src/index.js';

const { createSendQueue } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isSafeInteger(ROUNDS) || ROUNDS < 1) throw new TypeError(`BENCH_ROUNDS must be a positive integer, got ${String(process.env.BENCH_ROUNDS)}`);
const CALLS = 20;

/** Milliseconds `call` took, and whether it succeeded. */
async function timed(call: () => Promise<boolean>): Promise<{ ms: number; ok: boolean }> {
  const start = performance.now();
  let ok: boolean;
  try {
    ok = await call();
  } catch {
    ok = false;
  }
  return { ms: performance.now() - start, ok };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

interface Figures {
  healthy: number[];
  frozen: number[];
  frozenFailed: number;
  down: number[];
  downFailed: number;
  recovery: number[];
}

/** Runs the rounds for one kind of call: `call(n)` makes the n-th call and says whether it succeeded. */
async function measure(redis: { current: TestRedis }, args: readonly string[], call: (n: number) => Promise<boolean>): Promise<Figures> {
  const figures: Figures = { healthy: [], frozen: [], frozenFailed: 0, down: [], downFailed: 0, recovery: [] };
  let n = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < CALLS; i++) figures.healthy.push((await timed(() => call(n++))).ms);

    redis.current.pause();
    const frozen = await Promise.all(Array.from({ length: CALLS }, () => timed(() => call(n++))));
    redis.current.resume();
    figures.frozen.push(...frozen.map((t) => t.ms));
    figures.frozenFailed += frozen.filter((t) => !t.ok).length;
    // Let what was queued while frozen drain before the next phase.
    await sleep(200);

    const admin = new Redis({ ...redis.current.connection, maxRetriesPerRequest: 0, retryStrategy: () => null });
    admin.on('error', () => undefined);
    const exited = new Promise((resolve) => redis.current.process.once('exit', resolve));
    await admin.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    admin.disconnect();
    await exited;
    const down = await Promise.all(Array.from({ length: CALLS }, () => timed(() => call(n++))));
    figures.down.push(...down.map((t) => t.ms));
    figures.downFailed += down.filter((t) => !t.ok).length;

    redis.current = await startRedis({ port: redis.current.port, args, teardown: 'manual' });
    const restarted = performance.now();
    for (;;) {
      if ((await timed(() => call(n++))).ok) break;
      await sleep(10);
    }
    figures.recovery.push(performance.now() - restarted);
  }
  return figures;
}

const receipt = (ticketId: string): WebhookRequest => ({
  method: 'POST',
  headers: { 'x-api-version': '4', 'content-type': 'application/json; charset=UTF-8' },
  body: encodeDeliveryReceipt({ type: 'final', mtStatus: { ticketId, code: 4, description: 'Message delivered', deliveryDate: '2024-03-14T09:26:53.000Z' }, destination: { address: '14155550100' } }, 'json'),
});

const dir = await mkdtemp(join(tmpdir(), 'smsv4-bench-faults-'));
const args = ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir];

// Receivers: the duplicate store over ioredis with its defaults, storeTimeoutMs by default.
const receiverRedis = { current: await startRedis({ args, teardown: 'manual' }) };
const client = new Redis(receiverRedis.current.connection);
client.on('error', () => undefined);
const handler = createWebhookHandler({
  allowUnauthenticated: true,
  store: createRedisDuplicateStore({ sendCommand: ([name = '', ...rest]) => client.call(name, ...rest), keyPrefix: `bench:${process.pid}:` }),
  onDeliveryReceipt: () => undefined,
  onError: () => undefined,
});
const receivers = await measure(receiverRedis, args, async (n) => (await handler.handle(receipt(`BENCH-0922I-13413-${String(n).padStart(6, '0')}`))).status === 200);
handler.close();
client.disconnect();
await receiverRedis.current.stop();

// The queue: operationTimeoutMs by default; no worker (enqueue alone is measured).
const sandbox = createSandbox({ adminToken: false });
const sandboxServer = await sandbox.listen({ port: 0, host: '127.0.0.1' });
const queueRedis = { current: await startRedis({ args, teardown: 'manual' }) };
const queue = createSendQueue({
  connection: queueRedis.current.connection,
  name: `bench-faults-${process.pid}`,
  clientOptions: { baseUrl: sandboxServer.url, accountId: 'sandbox', password: 'sandbox-password' },
  persistence: 'ignore',
});
const queued = await measure(queueRedis, args, async (n) => (await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: `Hi ${n}` } }, { key: `bench-${n}` })).ok);
await queue.close();
await queueRedis.current.stop();
await sandboxServer.close();
await sandbox.close();
await rm(dir, { recursive: true, force: true });

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;
const row = (name: string, bound: number, f: Figures): string =>
  `| ${name} | ${bound.toLocaleString('en-US')} ms | ${median(f.healthy).toFixed(2)} ms | ${ms(median(f.frozen))} (max ${ms(Math.max(...f.frozen))}; ${((Math.max(...f.frozen)) / bound).toFixed(2)} × the bound) | ${f.frozenFailed} / ${f.frozen.length} | ${ms(median(f.down))} (max ${ms(Math.max(...f.down))}) | ${f.downFailed} / ${f.down.length} | ${ms(median(f.recovery))} (max ${ms(Math.max(...f.recovery))}) |`;

const markdown = [
  '## Redis faults: time to answer, and time to recover',
  '',
  'Run: `npx -y pnpm@10.34.8 --filter @smsv4/queue bench:faults:write` (source: `packages/queue/bench/redis-faults.ts`).',
  `${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the start; Redis 7.0 with an append-only file; ${ROUNDS} rounds of ${CALLS} calls per phase.`,
  'A receiver (core\'s handler, the Redis duplicate store over ioredis with its defaults, `storeTimeoutMs` 2 s by default) takes a receipt;',
  'the queue (`operationTimeoutMs` 5 s by default) takes an `enqueue`. *Healthy* is the baseline, measured in the same run.',
  '*Frozen*: Redis stopped with SIGSTOP, every call made at once; *down*: Redis shut down (SHUTDOWN NOSAVE), every call made at once;',
  '*recovery*: from Redis started again on its port until a call succeeds (one every 10 ms). Failed: answered 503 / rejected with `QueueUnavailableError`.',
  '',
  '| call | bound | healthy (median) | frozen (median) | failed | down (median) | failed | recovery (median) |',
  '|---|---|---|---|---|---|---|---|',
  row('receiver: a receipt', 2_000, receivers),
  row('queue: `enqueue`', 5_000, queued),
  '',
  'Every call during a fault is answered at its bound, frozen or down (the clients keep commands while they reconnect);',
  'none waits for Redis to come back. Recovery is the time the clients take to reconnect (their retry strategies\' delays).',
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('redis-faults', markdown);
  console.log('BENCHMARKS.md updated');
}

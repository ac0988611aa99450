/**
 * The queue with a worker sending, on one Redis with an append-only file (`appendfsync always`, as
 * the guide asks), through each fault an operator meets: Redis shut down and started again, killed
 * (SIGKILL) and started again from its append-only file, frozen (SIGSTOP) and let go, and every
 * script forgotten (SCRIPT FLUSH) while sends flow. In each case: every call made while Redis
 * cannot answer fails with QueueUnavailableError (none hangs), the calls made again afterwards are
 * taken, no key is sent twice, every key not sent is accounted for by its state, and `getMessage`
 * explains every `unknown`. Its own file: it stops, kills and freezes its server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MtRequest } from '@smsv4/core';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue, QueueUnavailableError, type QueuedMessage, type SendQueue, type StateChange } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

// Short: each fault waits for it about once; a call made while Redis answers is made again if a loaded machine passes it.
const OPERATION_TIMEOUT_MS = 500;
const KEYS_PER_CASE = 12;

const message = (key: string): MtRequest => ({ destination: { address: '14155550100' }, message: { type: 'text', content: `Your parcel is on its way [${key}]` } });
const keys = (tag: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${tag}-${i}`);

/**
 * Makes a call again while it fails with QueueUnavailableError, as a caller does (a client still
 * reconnecting to a server just restarted may take longer than the bound): at most 10 times.
 */
async function again<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof QueueUnavailableError) || attempt === 10) throw error;
    }
  }
}

/** What a call settled to: `answered`, or the reason and operation of the QueueUnavailableError it rejected with. */
const outcome = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => 'answered',
    (e: unknown) => (e instanceof QueueUnavailableError ? `${e.reason}:${e.operation}` : `other:${String(e)}`),
  );

describe('the queue, a worker sending, on a Redis that is shut down, killed, frozen and flushed of its scripts', () => {
  let dir: string;
  let redis: TestRedis;
  let admin: Redis;
  let setup: SandboxSetup;
  let queue: SendQueue;
  let worker: { close(): Promise<void> };
  const errors: unknown[] = [];
  /** Keys whose send started, in order: a fault strikes once one of a case's keys is being sent. */
  const sending: string[] = [];
  let onSending: (() => void) | undefined;
  const args = (folder: string): string[] => ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', folder];
  /** Started again on its port from its append-only file; kept until the file's end (not closed with the test that started it). */
  const restart = async (): Promise<void> => {
    redis = await startRedis({ port: redis.port, args: args(dir), teardown: 'manual' });
  };

  const onStateChange = (change: StateChange): void => {
    if (change.state !== 'sending') return;
    sending.push(change.key);
    onSending?.();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-queue-restarts-'));
    [redis, setup] = await Promise.all([startRedis({ args: args(dir), teardown: 'manual' }), startSandbox({ timeScale: 100 })]);
    admin = new Redis({ ...redis.connection, lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 0 });
    admin.on('error', () => undefined);
    await admin.connect();
    queue = createSendQueue({
      connection: redis.connection,
      name: 'restarts',
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
      operationTimeoutMs: OPERATION_TIMEOUT_MS,
      // The server keeps every acknowledged write: the check passes, and would refuse otherwise.
      persistence: 'require',
      // Sends spread over half a second, so that each fault meets them in flight.
      rateLimit: { perSecond: 20 },
      // A job in hand when Redis went away is found again soon after it is back.
      lockDurationMs: 1_500,
      stalledIntervalMs: 500,
      onStateChange,
      onError: (e) => void errors.push(e),
    });
    worker = queue.startWorker();
  });

  afterAll(async () => {
    redis?.resume();
    // A case that failed with the server down: started again, so that what follows can close.
    if (redis !== undefined && (redis.process.exitCode !== null || redis.process.signalCode !== null)) await restart();
    // Nothing hangs: the worker and the queue close once Redis is back.
    await worker?.close();
    await queue?.close();
    admin?.disconnect();
    await setup?.close();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Enqueues `tag`'s keys, waits until the worker sends the first of them, and strikes: the fault meets sends in flight. */
  async function trafficThen(tag: string, strike: () => void): Promise<string[]> {
    const taken = keys(tag, KEYS_PER_CASE);
    const enqueued = await again(() => queue.enqueueMany(taken.map((key) => ({ request: message(key), key }))));
    // Made again after a QueueUnavailableError, a key may already exist (created: false): it is the same message.
    expect(enqueued.every((r) => r.ok)).toBe(true);
    const started = (): boolean => sending.some((key) => key.startsWith(`${tag}-`));
    if (!started()) await new Promise<void>((resolve) => (onSending = () => started() && resolve()));
    onSending = undefined;
    strike();
    return taken;
  }

  /** Calls made while Redis cannot answer: each one a QueueUnavailableError, never another error, never a hang. */
  async function whileUnavailable(tag: string): Promise<void> {
    const answers = await Promise.all([
      outcome(queue.enqueue(message(`${tag}-late-0`), { key: `${tag}-late-0` })),
      outcome(queue.enqueueMany([{ request: message(`${tag}-late-1`), key: `${tag}-late-1` }])),
      outcome(queue.getMessage(`${tag}-0`)),
      outcome(queue.getMessages([`${tag}-1`])),
      outcome(queue.unknownFates()),
    ]);
    const operations = ['enqueue', 'enqueueMany', 'getMessage', 'getMessages', 'unknownFates'];
    answers.forEach((answer, i) => expect(answer).toMatch(new RegExp(`^(timeout|unavailable):${operations[i]}$`)));
  }

  /**
   * After the fault: the failed calls made again, every key settled, none sent twice, every key sent
   * once unless its state says why not; the `unknown` ones explained. Returns the states by key.
   */
  async function accountedFor(all: readonly string[]): Promise<Map<string, QueuedMessage>> {
    const settled = (m: QueuedMessage | undefined): boolean => m?.state === 'accepted' || m?.state === 'unknown';
    expect(await waitFor(async () => (await again(() => queue.getMessages(all))).every(settled), 30_000)).toBe(true);
    const states = new Map((await again(() => queue.getMessages(all))).map((m, i) => [all[i] as string, m as QueuedMessage]));
    const sent = new Map<string, number>();
    for (const m of await sandboxRecord(setup.server.url)) {
      const key = keyOfContent(m.content);
      if (key !== undefined && all.includes(key)) sent.set(key, (sent.get(key) ?? 0) + 1);
    }
    expect([...sent].filter(([, n]) => n > 1)).toEqual([]);
    for (const key of all) {
      const m = states.get(key) as QueuedMessage;
      if (m.state === 'accepted') {
        expect(sent.get(key), key).toBe(1);
        expect(m.ticketId, key).toBeDefined();
        expect(m.sends, key).toBe(1);
      } else {
        // An unknown fate: a send left (or may have left) and its outcome was lost with Redis; never sent again.
        expect(m.reason, key).toBe('worker-lost');
        expect(m.inFlight?.token, key).toMatch(new RegExp(`/${process.pid}/`));
        expect(m.sends, key).toBe(1);
        expect(sent.get(key) ?? 0, key).toBeLessThanOrEqual(1);
      }
    }
    return states;
  }

  /** The calls that failed while Redis was away, made again as a caller does: each key created once. */
  async function madeAgain(tag: string): Promise<string[]> {
    const late = [`${tag}-late-0`, `${tag}-late-1`];
    const made = await again(() => queue.enqueueMany(late.map((key) => ({ request: message(key), key }))));
    expect(made.every((r) => r.ok)).toBe(true);
    return late;
  }

  it('shut down (SHUTDOWN NOSAVE) while sends flow and started again on its port: calls fail at the bound, then every key is accounted for, none sent twice', async () => {
    const exited = new Promise((resolve) => redis.process.once('exit', resolve));
    const taken = await trafficThen('shutdown', () => void admin.call('SHUTDOWN', 'NOSAVE').catch(() => undefined));
    await exited;
    await whileUnavailable('shutdown');
    await restart();
    // The append-only file kept every acknowledged write: every key enqueued is found, settled.
    await accountedFor([...taken, ...(await madeAgain('shutdown'))]);
  });

  it('killed (SIGKILL) while sends flow and started again from its append-only file: every key accounted for, none sent twice', async () => {
    const exited = new Promise((resolve) => redis.process.once('exit', resolve));
    const taken = await trafficThen('killed', () => redis.process.kill('SIGKILL'));
    await exited;
    await whileUnavailable('killed');
    await restart();
    await accountedFor([...taken, ...(await madeAgain('killed'))]);
  });

  it('frozen (SIGSTOP) while sends flow: calls fail with QueueUnavailableError at the bound; after SIGCONT every key accounted for, none sent twice', async () => {
    let taken: string[];
    try {
      taken = await trafficThen('frozen', () => redis.pause());
      await whileUnavailable('frozen');
    } finally {
      redis.resume();
    }
    await accountedFor([...taken, ...(await madeAgain('frozen'))]);
  });

  it('every script forgotten (SCRIPT FLUSH) while sends flow: nothing fails, every key sent exactly once', async () => {
    const flushed: Promise<unknown>[] = [];
    const taken = await trafficThen('flushed', () => void flushed.push(admin.script('FLUSH')));
    expect(await Promise.all(flushed)).toEqual(['OK']);
    // Enqueued after the flush: its scripts meet NOSCRIPT and run by source.
    const after = keys('flushed-after', 4);
    expect((await again(() => queue.enqueueMany(after.map((key) => ({ request: message(key), key }))))).every((r) => r.ok)).toBe(true);
    const states = await accountedFor([...taken, ...after]);
    expect([...states.values()].map((m) => m.state)).toEqual(Array(KEYS_PER_CASE + 4).fill('accepted'));
  });
});

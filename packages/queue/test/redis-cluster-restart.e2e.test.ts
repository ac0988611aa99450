/**
 * The queue on a local Redis Cluster of 3 masters (an ioredis `Cluster`, as the guide shows it)
 * whose master serving the queue's slot is killed (SIGKILL) with a worker sending, then started
 * again: every call made while it is gone fails with QueueUnavailableError at the bound (none
 * hangs), the worker goes on once it is back, and no key is sent twice. Its own file: it starts a
 * cluster and kills a node.
 */
import type { MtRequest } from '@smsv4/core';
import { startRedisCluster, type TestRedisCluster } from '@smsv4/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue, QueueUnavailableError, type SendQueue, type StateChange } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

// Room for a loaded machine; the calls made while the master is gone wait for it once.
const OPERATION_TIMEOUT_MS = 1_000;
const NAME = 'cluster-restart';

const message = (key: string): MtRequest => ({ destination: { address: '14155550100' }, message: { type: 'text', content: `Your code is ready [${key}]` } });
const keys = (tag: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${tag}-${i}`);

/** What a call settled to: `answered`, or the reason and operation of the QueueUnavailableError it rejected with. */
const outcome = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => 'answered',
    (e: unknown) => (e instanceof QueueUnavailableError ? `${e.reason}:${e.operation}` : `other:${String(e)}`),
  );

describe('the queue on a 3-master Redis Cluster whose master of its slot is killed and restarted', () => {
  let cluster: TestRedisCluster;
  let connection: Cluster;
  let setup: SandboxSetup;
  let queue: SendQueue;
  const changes: StateChange[] = [];

  beforeAll(async () => {
    // Each master keeps an append-only file: a master restarted comes back with what it acknowledged, as in production.
    [cluster, setup] = await Promise.all([startRedisCluster({ args: ['--appendonly', 'yes', '--appendfsync', 'always'] }), startSandbox({ timeScale: 100 })]);
    connection = new Cluster([...cluster.startupNodes], { redisOptions: { maxRetriesPerRequest: null }, clusterRetryStrategy: () => 100 });
    connection.on('error', () => undefined);
    queue = createSendQueue({
      connection,
      name: NAME,
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
      operationTimeoutMs: OPERATION_TIMEOUT_MS,
      persistence: 'ignore',
      // A job in hand when its master died is found again soon after the master is back.
      lockDurationMs: 1_500,
      stalledIntervalMs: 500,
      onStateChange: (change) => void changes.push(change),
    });
  });

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await setup?.close();
    await cluster?.stop();
  });

  /** The master serving the queue's slot (its keys share the hash tag `{<name>}`). */
  async function masterOfQueue(): Promise<TestRedisCluster['nodes'][number]> {
    const slot = Number(await connection.call('CLUSTER', 'KEYSLOT', `{${NAME}}`));
    const ranges = (await connection.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, ...unknown[]], ...unknown[]][];
    const port = ranges.find(([from, to]) => from <= slot && slot <= to)?.[2][1];
    const node = cluster.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`no master serves slot ${slot}`);
    return node;
  }

  it('fails every call with QueueUnavailableError while the master is gone, goes on after its restart, and sends each key once', async () => {
    const victim = await masterOfQueue();
    const worker = queue.startWorker();
    const before = keys('before', 10);
    expect((await queue.enqueueMany(before.map((key) => ({ request: message(key), key })))).every((r) => r.ok && r.value.created)).toBe(true);
    expect(await waitFor(async () => (await queue.getMessages(before)).every((m) => m?.state === 'accepted' || m?.state === 'delivered'), 10_000)).toBe(true);

    // Traffic flowing: the master dies once the worker took the first of these.
    const during = keys('during', 10);
    const sending = new Promise<void>((resolve) => {
      const look = setInterval(() => {
        if (changes.some((c) => c.key.startsWith('during-') && c.state === 'sending')) {
          clearInterval(look);
          resolve();
        }
      }, 5);
    });
    expect((await queue.enqueueMany(during.map((key) => ({ request: message(key), key })))).every((r) => r.ok)).toBe(true);
    await sending;
    await victim.kill();

    const gone = await Promise.all([
      outcome(queue.enqueue(message('gone-0'), { key: 'gone-0' })),
      outcome(queue.enqueueMany([{ request: message('gone-1'), key: 'gone-1' }])),
      outcome(queue.getMessage('before-0')),
      outcome(queue.getMessages(['during-0'])),
      outcome(queue.unknownFates()),
    ]);
    // At the bound (timeout), or before it where the client gave up (unavailable): never another error, never a hang.
    const operations = ['enqueue', 'enqueueMany', 'getMessage', 'getMessages', 'unknownFates'];
    gone.forEach((answer, i) => expect(answer).toMatch(new RegExp(`^(timeout|unavailable):${operations[i]}$`)));

    await victim.restart();
    // The caller makes its failed calls again: each key is created once.
    const again = await queue.enqueueMany(['gone-0', 'gone-1'].map((key) => ({ request: message(key), key })));
    expect(again.every((r) => r.ok)).toBe(true);
    const all = [...before, ...during, 'gone-0', 'gone-1'];
    const settled = (state: string | undefined): boolean => state === 'accepted' || state === 'delivered' || state === 'unknown';
    expect(await waitFor(async () => (await queue.getMessages(all)).every((m) => settled(m?.state)), 20_000)).toBe(true);
    await worker.close();

    const sent = (await sandboxRecord(setup.server.url)).map((m) => keyOfContent(m.content) ?? '');
    const times = new Map<string, number>();
    for (const key of sent) times.set(key, (times.get(key) ?? 0) + 1);
    // No key twice; every key sent, save one whose fate the queue could not learn (kept as unknown, never re-sent).
    expect([...times].filter(([, n]) => n > 1)).toEqual([]);
    const states = await queue.getMessages(all);
    all.forEach((key, i) => {
      if (states[i]?.state !== 'unknown') expect(times.get(key), key).toBe(1);
    });
    const unknown = states.filter((m) => m?.state === 'unknown');
    expect(unknown.length).toBeLessThanOrEqual(during.length);
    // getMessage explains each: the send whose outcome was lost with the master, by this process's worker.
    for (const m of unknown) {
      expect(m?.reason, m?.key).toBe('worker-lost');
      expect(m?.inFlight?.token, m?.key).toMatch(new RegExp(`/${process.pid}/`));
    }
  });
});

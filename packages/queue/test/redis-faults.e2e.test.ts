/**
 * The queue on a Redis that stops answering (SIGSTOP), on one without persistence, and on a local
 * Redis Cluster of 3 masters: calls fail with QueueUnavailableError at the bound instead of
 * hanging, what they started takes effect once and is found again, the persistence is read at
 * start, and a Cluster is used as given, also after every master forgot its scripts. Its own file: it freezes a server and starts a cluster.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MtRequest } from '@smsv4/core';
import { compiledScript } from '@smsv4/bench/compiled-script';
import { startRedis, startRedisCluster, type TestRedis, type TestRedisCluster } from '@smsv4/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue, QueueUnavailableError, type SendQueue, type SendQueueOptions } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

// Room for a loaded machine; the stalled case waits for it once.
const OPERATION_TIMEOUT_MS = 1_000;

let redis: TestRedis;
let setup: SandboxSetup;
let count = 0;
const open: SendQueue[] = [];

beforeAll(async () => {
  redis = await startRedis();
  setup = await startSandbox({ timeScale: 100 });
});
afterAll(async () => {
  redis?.resume();
  await Promise.all(open.map((q) => q.close()));
  await setup?.close();
  await redis?.stop();
});

const message = (key: string): MtRequest => ({ destination: { address: '14155550100' }, message: { type: 'text', content: `Your order has shipped [${key}]` } });

function newQueue(options: Partial<SendQueueOptions> = {}): SendQueue {
  const queue = createSendQueue({
    connection: redis.connection,
    name: `faults-${++count}`,
    clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
    operationTimeoutMs: OPERATION_TIMEOUT_MS,
    persistence: 'ignore',
    ...options,
  });
  open.push(queue);
  return queue;
}

/** What a call settled to: its value, or the reason of the QueueUnavailableError it rejected with. */
const outcome = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => 'answered',
    (e: unknown) => (e instanceof QueueUnavailableError ? `${e.reason}:${e.operation}` : `other:${String(e)}`),
  );

describe('the queue on a Redis that stops answering (SIGSTOP)', () => {
  it('closes within closeTimeoutMs while Redis is frozen: the connections cut, onError told, and the process exits by itself', async () => {
    const child = spawn(process.execPath, [await compiledScript(new URL('./close-frozen-process.ts', import.meta.url)), String(redis.port)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    // 60 s: room for a loaded machine; a close that waited for Redis, or a loop left spinning, holds the process past it.
    const exited = new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('did not end by itself within 60 s');
      }, 60_000);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(code ?? signal ?? 'unknown');
      });
    });
    try {
      await waitFor(() => out.includes('ready\n'), 30_000, 20);
      expect(out, err).toBe('ready\n');
      redis.pause();
      child.stdin.end('close\n');
      expect(await exited, `${out}\n${err}`).toBe(0);
    } finally {
      redis.resume();
      child.kill('SIGKILL');
    }
    expect(out).toBe('ready\nclosed timeout:closing a worker timeout:closing the queue\n');
  });

  it('fails enqueue, getMessage, resend and the others with QueueUnavailableError at the bound; what was started takes effect once', async () => {
    const queue = newQueue();
    expect((await queue.enqueue(message('before'), { key: 'before' })).ok).toBe(true);
    redis.pause();
    let outcomes: string[];
    try {
      outcomes = await Promise.all([
        outcome(queue.enqueue(message('stalled'), { key: 'stalled' })),
        outcome(queue.enqueueMany([{ request: message('stalled-many'), key: 'stalled-many' }])),
        outcome(queue.getMessage('before')),
        outcome(queue.getMessages(['before'])),
        outcome(queue.resend('before')),
        outcome(queue.abandon('before')),
        outcome(queue.unknownFates()),
      ]);
    } finally {
      redis.resume();
    }
    expect(outcomes).toEqual([
      'timeout:enqueue',
      'timeout:enqueueMany',
      'timeout:getMessage',
      'timeout:getMessages',
      'timeout:resend',
      'timeout:abandon',
      'timeout:unknownFates',
    ]);
    // Enqueued again (as a caller does after the error): each key is created once, with one job.
    const again = await queue.enqueueMany([
      { request: message('stalled'), key: 'stalled' },
      { request: message('stalled-many'), key: 'stalled-many' },
    ]);
    for (const result of again) expect(result.ok && result.value.state).toBe('queued');
    expect(await queue.bullQueue.getJobCounts('waiting', 'delayed')).toMatchObject({ waiting: 3, delayed: 0 });
    expect((await queue.getMessage('before'))?.state).toBe('queued');
  });
});

describe('the persistence of Redis, read at start', () => {
  let dir: string;
  let durable: TestRedis;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-aof-'));
    durable = await startRedis({ args: ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir] });
  });
  afterAll(async () => {
    await durable?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('warns once about a Redis without an append-only file, and with persistence: require refuses every call', async () => {
    const warnings: string[] = [];
    const warned = newQueue({ persistence: 'warn', onWarning: (w) => warnings.push(w) });
    const problems = await warned.persistenceProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/appendonly no/);
    await Promise.resolve();
    expect(warnings).toHaveLength(1);
    expect((await warned.enqueue(message('warned'), { key: 'warned' })).ok).toBe(true);

    const strict = newQueue({ persistence: 'require' });
    expect(await outcome(strict.enqueue(message('refused'), { key: 'refused' }))).toBe('persistence:enqueue');
    expect(await outcome(strict.getMessage('refused'))).toBe('persistence:getMessage');
  });

  it('reads the persistence again when Redis did not answer at start, and then takes the calls it refused', async () => {
    durable.pause();
    let queue: SendQueue;
    let first: readonly string[];
    try {
      queue = newQueue({ connection: durable.connection, persistence: 'require', onWarning: () => undefined });
      first = await queue.persistenceProblems();
    } finally {
      durable.resume();
    }
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/could not be read/);
    expect(await queue.persistenceProblems()).toEqual([]);
    expect((await queue.enqueue(message('read-again'), { key: 'read-again' })).ok).toBe(true);
  });

  it('takes a Redis with appendonly yes and appendfsync everysec without a word', async () => {
    const warnings: string[] = [];
    const queue = newQueue({ connection: durable.connection, persistence: 'require', onWarning: (w) => warnings.push(w) });
    expect(await queue.persistenceProblems()).toEqual([]);
    expect((await queue.enqueue(message('durable'), { key: 'durable' })).ok).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe('the queue on a 3-master Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let connection: Cluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    connection = new Cluster([...cluster.startupNodes], { redisOptions: { maxRetriesPerRequest: null } });
  });
  afterAll(async () => {
    connection?.disconnect();
    await cluster?.stop();
  });

  it('takes an ioredis Cluster as it is (hash-tagged prefix by default), sends every key once, and closes', async () => {
    const queue = createSendQueue({
      connection,
      name: 'clustered',
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
      persistence: 'ignore',
    });
    const keys = Array.from({ length: 20 }, (_, i) => `cluster-${i}`);
    const results = await queue.enqueueMany(keys.map((key) => ({ request: message(key), key })));
    expect(results.every((r) => r.ok && r.value.created)).toBe(true);
    const worker = queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessages(keys)).every((m) => m?.state === 'accepted' || m?.state === 'delivered'), 10_000)).toBe(true);
    const sent = (await sandboxRecord(setup.server.url)).map((m) => keyOfContent(m.content)).filter((k) => k?.startsWith('cluster-'));
    expect(sent.sort()).toEqual([...keys].sort());
    await worker.close();
    await queue.close();
  });

  it('goes on after every master forgot its scripts (SCRIPT FLUSH): the scripts run by source on the node that answered NOSCRIPT', async () => {
    const queue = createSendQueue({
      connection,
      name: 'clustered-flushed',
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
      persistence: 'ignore',
    });
    // The scripts are loaded on the queue's node by a first round, then forgotten by every master.
    expect((await queue.enqueue(message('flushed-first'), { key: 'flushed-first' })).ok).toBe(true);
    expect(await Promise.all(connection.nodes('master').map((node) => node.script('FLUSH')))).toEqual(['OK', 'OK', 'OK']);
    const keys = ['flushed-first', ...Array.from({ length: 6 }, (_, i) => `flushed-${i}`)];
    const results = await queue.enqueueMany(keys.slice(1).map((key) => ({ request: message(key), key })));
    expect(results.every((r) => r.ok && r.value.created)).toBe(true);
    const worker = queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessages(keys)).every((m) => m?.state === 'accepted' || m?.state === 'delivered'), 10_000)).toBe(true);
    const sent = (await sandboxRecord(setup.server.url)).map((m) => keyOfContent(m.content)).filter((k) => k?.startsWith('flushed-'));
    expect(sent.sort()).toEqual([...keys].sort());
    await worker.close();
    await queue.close();
  });

  it('refuses a prefix without a hash tag on a Cluster', () => {
    expect(() => createSendQueue({ connection, prefix: 'bull', clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'x' } })).toThrow(/hash tag/);
  });
});

/**
 * The Redis stores through an ioredis client configured with Sentinel (`sentinels` and `name`),
 * on a master, one replica and one sentinel started by the test (Debian's `redis-server` runs as a
 * sentinel with `--sentinel`; each in a folder of its own, on free loopback ports): the receiver
 * takes callbacks through the master the sentinel names, and after a failover (SENTINEL FAILOVER)
 * through the promoted replica, with what was replicated kept. Its own file: it starts three servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUserDataHeader, bytesToHex, createWebhookHandler, encodeDeliveryReceipt, encodeHex, encodeMobileOriginate, type WebhookHandler, type WebhookRequest } from '@smsv4/core';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisDuplicateStore, createRedisReassemblyStore, type RedisCommand, type WebhookError } from '../src/index.js';

const JSON_HEADERS = { 'x-api-version': '4', 'content-type': 'application/json; charset=UTF-8' };
const MASTER_NAME = 'sms';

const receipt = (ticketId: string): WebhookRequest => ({
  method: 'POST',
  headers: JSON_HEADERS,
  body: encodeDeliveryReceipt({ type: 'final', mtStatus: { ticketId, code: 4, description: 'Message delivered', deliveryDate: '2024-03-14T09:26:53.000Z' }, destination: { address: '14155550100' } }, 'json'),
});

const part = (from: string, sequence: 1 | 2): WebhookRequest => {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 21, total: 2, sequence, referenceBits: 8 } }));
  const body = encodeMobileOriginate(
    { ticketId: `S-${from}-${sequence}`, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(`${from}/${sequence};`, 'GSM') } },
    'json',
  );
  return { method: 'POST', headers: JSON_HEADERS, body };
};

/** A connection whose errors (a server stopped at the end) are not reported as unhandled. */
const quiet = (redis: Redis): Redis => redis.on('error', () => undefined);

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A sentinel watching `master` under MASTER_NAME (quorum 1), its configuration file in `dir`; resolves once it monitors it. */
async function startSentinel(dir: string, master: TestRedis): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const config = join(dir, 'sentinel.conf');
  await writeFile(config, [`port ${port}`, 'bind 127.0.0.1', `sentinel monitor ${MASTER_NAME} ${master.host} ${master.port} 1`, `sentinel down-after-milliseconds ${MASTER_NAME} 1000`, `sentinel failover-timeout ${MASTER_NAME} 10000`, ''].join('\n'));
  const child = spawn('redis-server', [config, '--sentinel', '--dir', dir, '--logfile', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`redis-server --sentinel did not start: ${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(`+monitor master ${MASTER_NAME}`)) {
        clearTimeout(deadline);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`redis-server --sentinel exited: ${output}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return { port, process: child };
}

describe('the Redis stores through Sentinel (a master, one replica, one sentinel)', () => {
  let dir: string;
  let master: TestRedis;
  let replica: TestRedis;
  let sentinel: { port: number; process: ChildProcess };
  let client: Redis;
  let handler: WebhookHandler;
  const effects = new Map<string, number>();
  const errors: WebhookError[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-sentinel-'));
    // Each server in a folder of its own: a replica writes the snapshot of its full sync there.
    const folders = { master: join(dir, 'master'), replica: join(dir, 'replica'), sentinel: join(dir, 'sentinel') };
    await Promise.all(Object.values(folders).map((folder) => mkdir(folder)));
    // The replica's first sync at once (a diskless sync waits 5 s by default for more replicas).
    master = await startRedis({ args: ['--dir', folders.master, '--repl-diskless-sync-delay', '0'] });
    replica = await startRedis({ args: ['--dir', folders.replica, '--replicaof', '127.0.0.1', String(master.port)] });
    // Replicating before the sentinel starts, so that its first look at the master finds the replica.
    const probe = quiet(new Redis(replica.connection));
    // Bounded: the first sync of an empty master takes milliseconds.
    await vi.waitFor(async () => expect(await probe.info('replication')).toMatch(/master_link_status:up/), { timeout: 15_000, interval: 20 });
    probe.disconnect();
    sentinel = await startSentinel(folders.sentinel, master);
    // As the guide shows it: ioredis asks the sentinel for the master, and follows a failover.
    client = new Redis({ sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: MASTER_NAME, failoverDetector: true });
    client.on('error', () => undefined);
    await client.ping();
    const sendCommand: RedisCommand = ([name = '', ...args]) => client.call(name, ...args);
    handler = createWebhookHandler({
      allowUnauthenticated: true,
      store: createRedisDuplicateStore({ sendCommand, keyPrefix: 'sentinel:seen:' }),
      reassemblyStore: createRedisReassemblyStore({ sendCommand, keyPrefix: 'sentinel:parts:' }),
      onDeliveryReceipt: (r) => void effects.set(r.mtStatus.ticketId, (effects.get(r.mtStatus.ticketId) ?? 0) + 1),
      onInboundMessage: (m) => void effects.set(m.text ?? '', (effects.get(m.text ?? '') ?? 0) + 1),
      onError: (e) => errors.push(e),
    });
  });

  afterAll(async () => {
    handler?.close();
    client?.disconnect();
    if (sentinel !== undefined && sentinel.process.exitCode === null) {
      const exited = once(sentinel.process, 'exit');
      sentinel.process.kill('SIGTERM');
      await exited;
    }
    await Promise.all([master?.stop(), replica?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  const tickets = Array.from({ length: 6 }, (_, i) => `SNT00-0922I-13413-${String(i).padStart(5, '0')}`);
  const handsets = ['447700900701', '447700900702'];
  const deliver = async (): Promise<number[]> => {
    const answers = await Promise.all([...tickets.map((t) => handler.handle(receipt(t))), ...handsets.flatMap((h) => [part(h, 1), part(h, 2)]).map((r) => handler.handle(r))]);
    return answers.map((a) => a.status);
  };

  it('takes callbacks through the master the sentinel names, each event once', async () => {
    expect((await client.call('ROLE')) as unknown[]).toContain('master');
    expect(await deliver()).toEqual(Array(tickets.length + 2 * handsets.length).fill(200));
    expect(await deliver()).toEqual(Array(tickets.length + 2 * handsets.length).fill(200)); // the retries: answered without the handlers
    for (const key of [...tickets, ...handsets.map((h) => `${h}/1;${h}/2;`)]) expect(effects.get(key), key).toBe(1);
    const direct = quiet(new Redis(master.connection));
    expect(await direct.get(`sentinel:seen:receipt:${tickets[0]}:1`)).toBe('seen');
    direct.disconnect();
    expect(errors).toEqual([]);
  });

  it('follows a failover to the replica, which kept what was replicated: the retries are still recognised', async () => {
    const viaMaster = quiet(new Redis(master.connection));
    // Asynchronous replication: wait until the replica has every write (what a failover may otherwise lose).
    expect(await viaMaster.call('WAIT', '1', '5000')).toBe(1);
    viaMaster.disconnect();
    const admin = quiet(new Redis({ host: '127.0.0.1', port: sentinel.port }));
    // The sentinel found the replica through the master, and reads it: a failover can promote it.
    const replicaSeen = async (): Promise<boolean> => {
      const replicas = (await admin.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as string[][];
      return replicas.some((fields) => fields[fields.indexOf('port') + 1] === String(replica.port) && fields[fields.indexOf('flags') + 1] === 'slave' && fields[fields.indexOf('master-link-status') + 1] === 'ok');
    };
    // Bounded: a sentinel reads the master's replicas every 10 s.
    await vi.waitFor(async () => expect(await replicaSeen()).toBe(true), { timeout: 30_000, interval: 50 });
    const switched = new Promise<void>((resolve) => {
      const watcher = quiet(new Redis({ host: '127.0.0.1', port: sentinel.port }));
      void watcher.subscribe('+switch-master');
      watcher.on('message', () => {
        watcher.disconnect();
        resolve();
      });
    });
    expect(await admin.call('SENTINEL', 'FAILOVER', MASTER_NAME)).toBe('OK');
    await switched;
    expect(await admin.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)).toEqual(['127.0.0.1', String(replica.port)]);
    admin.disconnect();
    // The service's retries, until each is answered 200 (503 while the client moves to the new master).
    let statuses: number[];
    let rounds = 0;
    do statuses = await deliver();
    while (++rounds < 30 && !statuses.every((s) => s === 200));
    expect(statuses).toEqual(Array(tickets.length + 2 * handsets.length).fill(200));
    for (const key of [...tickets, ...handsets.map((h) => `${h}/1;${h}/2;`)]) expect(effects.get(key), key).toBe(1);
    // New events go to the promoted replica.
    expect((await handler.handle(receipt('SNT00-0922I-13413-AFTER'))).status).toBe(200);
    const promoted = quiet(new Redis(replica.connection));
    expect(await promoted.get('sentinel:seen:receipt:SNT00-0922I-13413-AFTER:1')).toBe('seen');
    promoted.disconnect();
  });
});

/**
 * Receivers on a Redis with an append-only file that is killed (SIGKILL) under traffic and started
 * again on its port and folder: every callback is answered (200 or 503, none hangs), the client
 * re-sends what was in flight, and the service's retries (of what was not answered 200) are all
 * taken without waiting for a lease its own instance took, each event handled exactly once. Its own
 * file: it kills a server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUserDataHeader, bytesToHex, createWebhookHandler, encodeDeliveryReceipt, encodeHex, encodeMobileOriginate, type WebhookHandler, type WebhookRequest } from '@smsv4/core';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDuplicateStore, createRedisReassemblyStore, type RedisCommand, type WebhookError } from '../src/index.js';

const JSON_HEADERS = { 'x-api-version': '4', 'content-type': 'application/json; charset=UTF-8' };

const receipt = (ticketId: string): WebhookRequest => ({
  method: 'POST',
  headers: JSON_HEADERS,
  body: encodeDeliveryReceipt({ type: 'final', mtStatus: { ticketId, code: 4, description: 'Message delivered', deliveryDate: '2024-03-14T09:26:53.000Z' }, destination: { address: '14155550100' } }, 'json'),
});

const part = (from: string, sequence: 1 | 2): WebhookRequest => {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference: 9, total: 2, sequence, referenceBits: 8 } }));
  const body = encodeMobileOriginate(
    { ticketId: `R-${from}-${sequence}`, source: { address: from }, destination: { address: '24273' }, message: { type: 'hexEncodedText', udh: true, content: header + encodeHex(`${from}/${sequence};`, 'GSM') } },
    'json',
  );
  return { method: 'POST', headers: JSON_HEADERS, body };
};

describe('receivers on a Redis killed and restarted (append-only file)', () => {
  let dir: string;
  let redis: TestRedis;
  let client: Redis;
  let handler: WebhookHandler;
  const effects = new Set<string>();
  /** Handler calls by effect. */
  const calls = new Map<string, number>();
  const effect = (id: string): void => {
    effects.add(id);
    calls.set(id, (calls.get(id) ?? 0) + 1);
  };
  const errors: WebhookError[] = [];
  const args = (folder: string) => ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', folder];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-restart-'));
    redis = await startRedis({ args: args(dir) });
    // As the README shows it: ioredis with its defaults (it reconnects and re-sends what was in flight).
    client = new Redis(redis.connection);
    client.on('error', () => undefined); // refused connections while the server is down
    await client.ping();
    const sendCommand: RedisCommand = ([name = '', ...rest]) => client.call(name, ...rest);
    handler = createWebhookHandler({
      allowUnauthenticated: true,
      store: createRedisDuplicateStore({ sendCommand }),
      reassemblyStore: createRedisReassemblyStore({ sendCommand }),
      // Idempotent effects: a set.
      onDeliveryReceipt: (r) => effect(r.mtStatus.ticketId),
      onInboundMessage: (m) => effect(m.text ?? ''),
      onError: (e) => errors.push(e),
    });
  });

  afterAll(async () => {
    handler?.close();
    client?.disconnect();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers every callback, then takes every retry without waiting for a lease it took itself; each event handled exactly once', async () => {
    const tickets = Array.from({ length: 12 }, (_, i) => `RST00-0922I-13413-${String(i).padStart(5, '0')}`);
    const handsets = ['447700900601', '447700900602', '447700900603'];
    const events: WebhookRequest[] = [...tickets.map(receipt), ...handsets.flatMap((h) => [part(h, 1), part(h, 2)])];

    expect((await handler.handle(receipt('RST00-0922I-13413-WARM0'))).status).toBe(200);
    // Under traffic: the server dies with commands on the wire.
    const answering = Promise.all(events.map((e) => handler.handle(e)));
    const exited = new Promise((resolve) => redis.process.once('exit', resolve));
    redis.process.kill('SIGKILL');
    await exited;
    const first = (await answering).map((a) => a.status);
    expect(first.filter((s) => s !== 200 && s !== 503)).toEqual([]);

    redis = await startRedis({ port: redis.port, args: args(dir) });
    // The service retries what was not answered 200, both parts of a message at once, so one may
    // get 409 while the other's hand-over runs. A lease left by a command re-sent after the restart
    // would hold its message for leaseMs (60 s): these rounds, which follow one another at once,
    // would all meet it.
    let left = events.filter((_, i) => first[i] !== 200);
    let rounds = 0;
    while (left.length > 0 && rounds < 30) {
      const statuses = (await Promise.all(left.map((e) => handler.handle(e)))).map((a) => a.status);
      left = left.filter((_, i) => statuses[i] !== 200);
      rounds++;
    }
    expect(left).toEqual([]);
    expect(rounds).toBeLessThan(30);
    // Exactly one effect per event: none lost, none handled twice.
    for (const t of tickets) expect(calls.get(t), t).toBe(1);
    for (const h of handsets) expect(calls.get(`${h}/1;${h}/2;`), h).toBe(1);
    expect(errors.filter((e) => e.code === 'lease-expired')).toEqual([]);
    // A duplicate of anything taken is answered 200 at once, without waiting for a lease.
    expect((await Promise.all(events.map((e) => handler.handle(e)))).map((a) => a.status)).toEqual(Array(events.length).fill(200));
  });
});

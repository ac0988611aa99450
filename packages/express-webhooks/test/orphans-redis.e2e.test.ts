/**
 * Orphans through the hook, with the Redis reassembly store shared by two receivers ("instances")
 * on a real redis-server: a message whose last part never comes is reported once across both
 * instances, with the parts held; a failing hook gets the message again once its claim (`leaseMs`)
 * ran out; and a late retry of a part of a reported message is answered 200 without effect.
 */
import express from 'express';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMultipartInbound, callbackHeaders, eventually, startRedis, type MultipartInbound, type TestRedis } from '@smsv4/testing';
import { createRedisReassemblyStore, createWebhookMiddleware, type DuplicateEvent, type InboundMessage, type RedisCommand, type WebhookError } from '../src/index.js';
import { listen, type Listening } from './helpers.js';

const PREFIX = 'orphans:';
const REASSEMBLY_TIMEOUT_MS = 400;
const ORPHAN_SWEEP_MS = 100;
const LEASE_MS = 1500;

interface Report {
  readonly instance: string;
  readonly at: number;
  readonly message: InboundMessage;
}

describe('orphans reported through the hook by two instances sharing the Redis reassembly store', () => {
  let redis: TestRedis;
  let client: Redis;
  const instances: Listening[] = [];
  const orphans: Report[] = [];
  const handled: InboundMessage[] = [];
  const duplicates: Array<{ instance: string; event: DuplicateEvent }> = [];
  const errors: WebhookError[] = [];
  /** Ticket IDs whose orphan report fails the first time. */
  const failFirst = new Set<string>();

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.port, redis.host, { maxRetriesPerRequest: 1 });
    const sendCommand: RedisCommand = ([name = '', ...args]) => client.call(name, ...args);
    for (const instance of ['a', 'b']) {
      const app = express();
      app.use(
        '/callbacks',
        createWebhookMiddleware({
          allowUnauthenticated: true,
          reassemblyStore: createRedisReassemblyStore({ sendCommand, keyPrefix: PREFIX }),
          reassemblyTimeoutMs: REASSEMBLY_TIMEOUT_MS,
          orphanSweepMs: ORPHAN_SWEEP_MS,
          leaseMs: LEASE_MS,
          handlerTimeoutMs: 200,
          onInboundMessage: (message) => void handled.push(message),
          onOrphan(message) {
            orphans.push({ instance, at: Date.now(), message });
            if (failFirst.delete(message.ticketId)) throw new Error('the inbox is busy');
          },
          onDuplicate: (event) => void duplicates.push({ instance, event }),
          onError: (e) => void errors.push(e),
        }),
      );
      instances.push(await listen(app));
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    client?.disconnect();
    await redis?.stop();
  });

  /** A three-part message from its own sender. */
  const message = (from: string): MultipartInbound =>
    buildMultipartInbound({ from, to: '24273', text: `A long reply from ${from}, `.padEnd(400, 'abcdefghij'), referenceBits: 16, format: 'json' });

  /** Posts part `sequence` (1-based) of a message to an instance. */
  const post = async (instance: Listening, m: MultipartInbound, sequence: number): Promise<number> => {
    const part = m.parts[sequence - 1];
    if (part === undefined) throw new Error(`no part ${sequence}`);
    const response = await fetch(`${instance.url}/callbacks`, { method: 'POST', headers: callbackHeaders(part.format), body: part.body });
    await response.arrayBuffer();
    return response.status;
  };

  const ticketsOf = (m: MultipartInbound): string[] => m.parts.map((p) => p.value.ticketId);
  const groups = (): Promise<string[]> => client.keys(`${PREFIX}*group:*`);

  it('reports a message whose last part never came once across both instances, with the parts held', async () => {
    const [a, b] = instances as [Listening, Listening];
    const m = message('447700900301');
    expect(m.parts).toHaveLength(3);
    // Parts 1 and 2 reach different instances (both then sweep); part 3 never comes.
    expect(await post(a, m, 1)).toBe(200);
    expect(await post(b, m, 2)).toBe(200);
    expect(await groups()).toHaveLength(1);

    await eventually(() => (orphans.length >= 1 || undefined), 5_000);
    const [report] = orphans as [Report];
    expect(report.message).toMatchObject({ complete: false, missingParts: [3], ticketIds: ticketsOf(m).slice(0, 2), text: `${m.partTexts[0]}${m.partTexts[1]}` });
    expect(report.message.parts).toHaveLength(2);
    // Both instances go on sweeping for longer than a lease: nobody reports it again.
    await new Promise((r) => setTimeout(r, LEASE_MS + 10 * ORPHAN_SWEEP_MS));
    expect(orphans).toHaveLength(1);
    expect(handled).toEqual([]);
    expect(await groups()).toEqual([]);
    // An index emptied is deleted by Redis: no index left means none holds a message.
    expect(await client.keys(`${PREFIX}*deadlines`)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('reports it again after leaseMs when the hook failed, then once more only', async () => {
    const b = instances[1] as Listening;
    const m = message('447700900302');
    const [first] = ticketsOf(m) as [string];
    failFirst.add(first);
    orphans.length = 0;
    expect(await post(b, m, 1)).toBe(200);

    await eventually(() => (orphans.length >= 2 || undefined), REASSEMBLY_TIMEOUT_MS + LEASE_MS + 5_000);
    const [failed, again] = orphans as [Report, Report];
    expect(again.at - failed.at).toBeGreaterThanOrEqual(LEASE_MS - 50);
    expect(again.message).toMatchObject({ complete: false, missingParts: [2, 3], ticketIds: [first], text: m.partTexts[0] });
    expect(errors.map((e) => ({ code: e.code, ticketId: e.ticketId }))).toEqual([{ code: 'orphan-failed', ticketId: first }]);
    await new Promise((r) => setTimeout(r, LEASE_MS + 10 * ORPHAN_SWEEP_MS));
    expect(orphans).toHaveLength(2);
    expect(await groups()).toEqual([]);
  });

  it('answers a late retry of a part of a reported message 200, without handing anything over', async () => {
    const [a, b] = instances as [Listening, Listening];
    const m = message('447700900303');
    orphans.length = 0;
    expect(await post(a, m, 2)).toBe(200);
    await eventually(() => (orphans.length >= 1 || undefined), 5_000);
    duplicates.length = 0;

    // The service retries the part (its 200 was lost on the way, say) on the other instance.
    expect(await post(b, m, 2)).toBe(200);
    expect(duplicates.map((d) => ({ instance: d.instance, key: d.event.key, reason: d.event.reason }))).toEqual([
      { instance: 'b', key: expect.stringMatching(new RegExp(`^inbound:${ticketsOf(m)[1]}:16-`)) as unknown as string, reason: 'seen' },
    ]);
    await new Promise((r) => setTimeout(r, REASSEMBLY_TIMEOUT_MS + 5 * ORPHAN_SWEEP_MS));
    expect(orphans).toHaveLength(1);
    expect(handled).toEqual([]);
    expect(await groups()).toEqual([]);
  });
});

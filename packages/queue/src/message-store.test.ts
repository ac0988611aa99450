/** The scripts against a real redis-server: the in-flight marker, stale outcomes, receipts before their ticket. */
import type { DeliveryReceipt, MtRequest } from '@smsv4/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { createMessageStore, storeKeys, type MessageStore, type Transition } from './message-store.js';
import { defineScripts } from './redis-scripts.js';

let server: TestRedis;
let redis: Redis;
let store: MessageStore;
const transitions: Transition[] = [];
const keys = storeKeys('t', 'store');

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.connection);
  store = createMessageStore({ redis, keys, retentionMs: 60_000, onTransition: (t) => transitions.push(t) });
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

const mt: MtRequest = { destination: { address: '14155550100' }, message: { type: 'text', content: 'hi' } };
const receipt = (ticketId: string, segmentNumber: number, totalSegments: number, code: number, note2?: string): DeliveryReceipt => ({
  type: 'final',
  mtStatus: { ticketId, code, segmentNumber, totalSegments, ...(note2 === undefined ? {} : { note2 }) },
});
const accepted = (ticketId: string) => ({ kind: 'accepted' as const, ticketId, httpStatus: 202 });

describe('the in-flight marker', () => {
  it('lets one worker send a message; a job that finds it in flight parks it as unknown', async () => {
    const [created] = await store.createMany([{ key: 'a', request: mt }]);
    expect(created).toEqual({ created: true, state: 'queued', generation: 0 });
    expect(await store.createMany([{ key: 'a', request: mt }])).toEqual([{ created: false, state: 'queued', generation: 0 }]);
    expect(await store.begin('a', 'host/1/job/1')).toEqual({ kind: 'go', request: mt, retries: 0 });
    // The same job handed out again (its worker died): never sent twice.
    expect(await store.begin('a', 'host/2/job/1')).toEqual({ kind: 'parked' });
    const [parked] = await store.getMany(['a']);
    expect(parked).toMatchObject({ state: 'unknown', reason: 'worker-lost', sends: 1, inFlight: { token: 'host/1/job/1' } });
    expect(await store.begin('a', 'host/2/job/1')).toEqual({ kind: 'settled', state: 'unknown' });
    expect(await store.unknownKeys(0, 10)).toEqual(['a']);
    // Only the worker that sent it can record its outcome, even late.
    expect((await store.finish('a', 'host/2/job/1', 'accepted', accepted('AAAAA-AAAAA-AAAAA-AAAAA'))).recorded).toBe(false);
    expect((await store.finish('a', 'host/1/job/1', 'accepted', accepted('AAAAA-AAAAA-AAAAA-AAAAA'))).recorded).toBe(true);
    const [resolved] = await store.getMany(['a']);
    expect(resolved).toMatchObject({ state: 'accepted', ticketId: 'AAAAA-AAAAA-AAAAA-AAAAA' });
    expect(resolved?.inFlight).toBeUndefined();
    expect(await store.unknownKeys(0, 10)).toEqual([]);
    expect(transitions.filter((t) => t.key === 'a').map((t) => t.state)).toEqual(['queued', 'sending', 'unknown', 'accepted']);
  });

  it('refuses an outcome once the message was resent or abandoned', async () => {
    await store.createMany([{ key: 'b', request: mt }]);
    await store.begin('b', 'w/1');
    await store.finish('b', 'w/1', 'unknown', { kind: 'unknown', reason: 'timeout', description: 'no answer' });
    expect(await store.resend('b')).toEqual({ kind: 'ok', generation: 1 });
    expect(await store.resend('b')).toEqual({ kind: 'not-unknown', state: 'queued' });
    expect((await store.finish('b', 'w/1', 'accepted', accepted('BBBBB-BBBBB-BBBBB-BBBBB'))).recorded).toBe(false);
    expect((await store.getMany(['b']))[0]).toMatchObject({ state: 'queued' });
    expect(await store.abandon('b')).toEqual({ kind: 'not-unknown', state: 'queued' });
    expect(await store.abandon('nothing')).toEqual({ kind: 'missing' });
    expect(await store.nextGeneration('b')).toBe(2);
  });

  it('settles a job that failed for good: in flight → unknown, not sent → rejected', async () => {
    await store.createMany([{ key: 'c', request: mt }, { key: 'd', request: mt }]);
    await store.begin('c', 'w/2');
    await store.jobFailed('c', 'Redis went away');
    await store.jobFailed('d', 'Redis went away');
    const [c, d] = await store.getMany(['c', 'd']);
    expect(c).toMatchObject({ state: 'unknown', reason: 'worker-error', description: 'Redis went away' });
    expect(d).toMatchObject({ state: 'rejected', reason: 'queue-error' });
  });
});

describe('receipts', () => {
  it('keeps a receipt that comes before its ticket is stored, and hands it over with the answer', async () => {
    await store.createMany([{ key: 'e', request: mt }]);
    await store.begin('e', 'w/3');
    expect(await store.receipt(receipt('EEEEE-EEEEE-EEEEE-EEEEE', 2, 2, 4), undefined)).toEqual({ kind: 'waiting' });
    const finished = await store.finish('e', 'w/3', 'accepted', accepted('EEEEE-EEEEE-EEEEE-EEEEE'));
    expect(finished.receipts.map((r) => r.mtStatus.segmentNumber)).toEqual([2]);
    const recorded = await store.receipt(receipt('EEEEE-EEEEE-EEEEE-EEEEE', 1, 2, 4), undefined);
    expect(recorded).toMatchObject({ kind: 'recorded', key: 'e', previous: 'accepted' });
    expect(recorded.kind === 'recorded' && recorded.receipts.length).toBe(2);
    expect((await store.getMany(['e']))[0]?.delivery).toMatchObject({ complete: true, code: 4 });
  });

  it('never leaves a receipt behind when its ticket is stored between the two steps', async () => {
    await store.createMany([{ key: 'f', request: mt }]);
    await store.begin('f', 'w/4');
    await store.finish('f', 'w/4', 'accepted', accepted('FFFFF-FFFFF-FFFFF-FFFFF'));
    // The receiver read no ticket just before the worker stored it: the second step finds it.
    const scripts = defineScripts(redis);
    expect(await scripts.earlyReceipt(keys.early('FFFFF-FFFFF-FFFFF-FFFFF'), keys.ticket('FFFFF-FFFFF-FFFFF-FFFFF'), '1', '{}', 1000)).toEqual(['known', 'f']);
    expect(await redis.exists(keys.early('FFFFF-FFFFF-FFFFF-FFFFF'))).toBe(0);
  });

  it('takes a receipt carrying the key while the send is in flight: accepted at once, the worker\'s late outcome refused, the ticket kept', async () => {
    await store.createMany([{ key: 'i', request: mt }]);
    expect((await store.begin('i', 'w/6')).kind).toBe('go');
    const early = await store.receipt(receipt('IIIII-IIIII-IIIII-IIIII', 1, 1, 4, 'i'), 'i');
    expect(early).toMatchObject({ kind: 'recorded', key: 'i', previous: 'sending' });
    const [taken] = await store.getMany(['i']);
    expect(taken).toMatchObject({ state: 'accepted', ticketId: 'IIIII-IIIII-IIIII-IIIII', sends: 1 });
    expect(taken?.inFlight).toBeUndefined();
    // The worker's answer comes after: stale, whatever it says.
    expect(await store.finish('i', 'w/6', 'accepted', { ...accepted('IIIII-IIIII-IIIII-IIIII'), requestId: 'late' })).toEqual({ recorded: false, receipts: [] });
    expect(await store.finish('i', 'w/6', 'unknown', { kind: 'unknown', reason: 'timeout', description: 'no answer' })).toEqual({ recorded: false, receipts: [] });
    const [kept] = await store.getMany(['i']);
    expect(kept).toMatchObject({ state: 'accepted', ticketId: 'IIIII-IIIII-IIIII-IIIII' });
    expect(kept?.requestId).toBeUndefined();
    expect(await redis.get(keys.ticket('IIIII-IIIII-IIIII-IIIII'))).toBe('i');
    expect(await store.unknownKeys(0, 10)).not.toContain('i');
    expect(transitions.filter((t) => t.key === 'i').map((t) => t.state)).toEqual(['queued', 'sending', 'accepted']);
  });

  it('settles an unknown fate by a receipt carrying the key; reports a receipt of another send', async () => {
    await store.createMany([{ key: 'g', request: mt }]);
    await store.begin('g', 'w/5');
    await store.finish('g', 'w/5', 'unknown', { kind: 'unknown', reason: 'service-error', code: '1000', description: 'Temporary error processing request' });
    const settled = await store.receipt(receipt('GGGGG-GGGGG-GGGGG-GGGGG', 1, 1, 4, 'g'), 'g');
    expect(settled).toMatchObject({ kind: 'recorded', key: 'g', previous: 'unknown' });
    expect((await store.getMany(['g']))[0]).toMatchObject({ state: 'accepted', ticketId: 'GGGGG-GGGGG-GGGGG-GGGGG' });
    expect(await store.unknownKeys(0, 10)).not.toContain('g');
    expect(await store.receipt(receipt('HHHHH-HHHHH-HHHHH-HHHHH', 1, 1, 4, 'g'), 'g')).toEqual({ kind: 'other-ticket', key: 'g' });
    expect((await store.getMany(['g']))[0]?.otherTicketId).toBe('HHHHH-HHHHH-HHHHH-HHHHH');
    expect(await store.settle('g', 'accepted', 'delivered', 4, 'Message delivered')).toBe(true);
    expect(await store.settle('g', 'accepted', 'failed', 811, 'x')).toBe(false);
  });
});

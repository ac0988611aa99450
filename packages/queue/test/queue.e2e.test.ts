/**
 * One process, a real redis-server, the sandbox over HTTP: enqueue, send, receipts, 540 at the
 * door, idempotency, 1010 that frees the worker, unknown fates and how they are settled, events.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeErrorRecord, mtRequestError, SMS_ERRORS, type MtRequest } from '@smsv4/core';
import { compiledScript } from '@smsv4/bench/compiled-script';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageView } from '@smsv4/sandbox';
import { createClient, type AttemptEvent } from '@smsv4/transport-fetch';
import { Redis } from 'ioredis';
import { createSendQueue, TEMPORARY_ERROR_DELAY_MS, type SendQueue, type SendQueueOptions, type StateChange } from '../src/index.js';
import { keyOfContent, sandboxRecord, startHoldingProxy, startSandbox, waitFor, type HoldingProxy, type SandboxSetup } from './helpers.js';

let redis: TestRedis;
let rawRedis: Redis;
let setup: SandboxSetup;
const open: SendQueue[] = [];
let queueCount = 0;

beforeAll(async () => {
  redis = await startRedis();
  rawRedis = new Redis(redis.connection);
  setup = await startSandbox({ timeScale: 100 });
});
afterAll(async () => {
  await rawRedis?.quit();
  await setup?.close();
  await redis?.stop();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((queue) => queue.close()));
  setup.receiptsTo = undefined;
  setup.sandbox.clearFaults();
});

const message = (key: string, extra: Partial<MtRequest> = {}): MtRequest => ({
  destination: { address: '14155550100' },
  message: { type: 'text', content: `Your order has shipped [${key}]` },
  delivery: { receiptRequested: 'final', url: setup.receiptUrl },
  ...extra,
});

/** A queue of its own (a fresh name) against the sandbox. */
function newQueue(options: Partial<SendQueueOptions> = {}): SendQueue {
  const queue = createSendQueue({
    connection: redis.connection,
    name: `test-${++queueCount}`,
    clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' },
    retry: { temporaryErrorDelayMs: 400, allowShortTemporaryErrorDelay: true, initialDelayMs: 50, maxDelayMs: 500 },
    lockDurationMs: 2_000,
    stalledIntervalMs: 1_000,
    // A throwaway Redis without persistence: the check has a test of its own.
    persistence: 'ignore',
    ...options,
  });
  open.push(queue);
  return queue;
}

const sentKeys = async (): Promise<string[]> => (await sandboxRecord(setup.server.url)).map((m) => keyOfContent(m.content) ?? '');

describe('close', () => {
  it('leaves nothing holding the process, even for a worker closed as it starts', async () => {
    // BullMQ 5 arms its stalled check's next round when the close comes during the first one.
    const script = await compiledScript(new URL('./close-at-start-process.ts', import.meta.url));
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      // 60 s: room for 20 queues on a loaded machine (a few seconds on a quiet one), far below the
      // 600 s a stalled check left armed would hold the process.
      execFile(process.execPath, [script, String(redis.port)], { timeout: 60_000, encoding: 'utf8' }, (error, out, err) =>
        error
          ? reject(new Error(`${error.killed ? 'the process did not end by itself within 60 s' : `the process failed (exit ${String(error.code)})`}: ${error.message}\n${out}\n${err}`))
          : resolve({ stdout: out }),
      );
    });
    expect(stdout).toBe('closed\n');
  });
});

describe('enqueue', () => {
  it('refuses an invalid message with core\'s exact 540 error and stores nothing', async () => {
    const queue = newQueue();
    const result = await queue.enqueue({ destination: { address: '+14155550100' }, message: { type: 'text', content: 'x' } }, { key: 'bad-1' });
    expect(result).toEqual({ ok: false, error: mtRequestError('destinationAddress') });
    expect(result.ok || result.error.description).toBe('Invalid request - destination address value is invalid');
    const empty = await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: '' } }, { key: 'bad-2' });
    expect(empty).toEqual({ ok: false, error: { code: '540', description: 'Invalid request - message content must have a value', rule: 'contentEmpty' } });
    expect(await queue.getMessage('bad-1')).toBeUndefined();
    expect(await queue.bullQueue.getJobCounts()).toMatchObject({ waiting: 0, delayed: 0 });
  });

  it('misuse is a TypeError: a missing or oversized key, note2 taken by the key', async () => {
    const queue = newQueue({ keyInNote2: true });
    await expect(queue.enqueue(message('k'), { key: '' })).rejects.toThrow(TypeError);
    await expect(queue.enqueue(message('k'), { key: 'x'.repeat(201) })).rejects.toThrow(TypeError);
    await expect(queue.enqueue(message('k'), { key: '\ud800' })).rejects.toThrow(TypeError);
    await expect(queue.enqueue({ ...message('k'), options: { note2: 'mine' } }, { key: 'k' })).rejects.toThrow(/note2/);
    expect(() => newQueue({ clientOptions: undefined })).toThrow(TypeError);
    expect(() => newQueue({ rateLimit: { perSecond: 0 } })).toThrow(TypeError);
    expect(() => newQueue({ concurrency: 0 })).toThrow(TypeError);
  });

  it('refuses a 1010 wait below the spec\'s 10 s unless told it is a sandbox', () => {
    expect(() => newQueue({ retry: { temporaryErrorDelayMs: 9_999 } })).toThrow(
      new TypeError(
        'retry.temporaryErrorDelayMs must be at least 10000 ms (the spec: after a 1010, retry at intervals of 10 seconds or more), got 9999; against a sandbox only, set retry.allowShortTemporaryErrorDelay: true',
      ),
    );
    expect(() => newQueue({ retry: { temporaryErrorDelayMs: 400, allowShortTemporaryErrorDelay: 'yes' as unknown as boolean } })).toThrow(
      new TypeError('retry.allowShortTemporaryErrorDelay must be a Boolean'),
    );
    expect(newQueue({ retry: { temporaryErrorDelayMs: 10_000 } }).name).toMatch(/^test-/);
    expect(newQueue({ retry: { temporaryErrorDelayMs: 400, allowShortTemporaryErrorDelay: true } }).name).toMatch(/^test-/);
  });

  it('sends a message no earlier than its delayMs', async () => {
    const changes: StateChange[] = [];
    const queue = newQueue({ onStateChange: (c) => changes.push(c) });
    const enqueuedAt = Date.now();
    await queue.enqueue(message('later-1'), { key: 'later-1', delayMs: 1_500 });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('later-1'))?.state === 'accepted', 5_000, 20)).toBe(true);
    // Not earlier than asked: the worker began the send at least delayMs after the enqueue (a busy
    // machine can only make it later).
    const sending = changes.find((c) => c.key === 'later-1' && c.state === 'sending');
    expect((sending?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(1_500);
    expect((await sentKeys()).filter((k) => k === 'later-1')).toHaveLength(1);
  });

  it('sends a key once however often it is enqueued, also at the same moment from two producers', async () => {
    const queue = newQueue();
    const other = createSendQueue({ connection: redis.connection, name: queue.name, clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' } });
    open.push(other);
    const keys = Array.from({ length: 50 }, (_, i) => `dup-${i}`);
    const results = await Promise.all([
      queue.enqueueMany(keys.map((key) => ({ key, request: message(key) }))),
      other.enqueueMany(keys.map((key) => ({ key, request: message(key) }))),
      ...keys.slice(0, 10).map((key) => queue.enqueue(message(key), { key })),
    ]);
    const created = results.flat().filter((r) => r.ok && r.value.created).map((r) => (r.ok ? r.value.key : ''));
    expect(created.sort()).toEqual([...keys].sort());
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessages(keys)).every((m) => m?.state === 'accepted' || m?.state === 'delivered'), 15_000)).toBe(true);
    const again = await queue.enqueue(message('dup-3'), { key: 'dup-3' });
    expect(again.ok && again.value).toMatchObject({ key: 'dup-3', created: false });
    await sleep(300);
    const sent = (await sentKeys()).filter((k) => k.startsWith('dup-'));
    expect(sent.sort()).toEqual([...keys].sort());
  });
});

describe('sending and receipts', () => {
  it('follows a message from queued to delivered, with the events of every change', async () => {
    const changes: StateChange[] = [];
    const heard: StateChange[] = [];
    const queue = newQueue({ onStateChange: (c) => changes.push(c) });
    setup.receiptsTo = queue;
    const listener = newQueue({ name: queue.name });
    const unsubscribe = await listener.subscribe((c) => heard.push(c));
    await queue.enqueue(message('life-1'), { key: 'life-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('life-1'))?.state === 'delivered', 15_000)).toBe(true);
    const done = await queue.getMessage('life-1');
    expect(done).toMatchObject({ key: 'life-1', state: 'delivered', sends: 1, retries: 0, code: 4, description: 'Message delivered' });
    expect(done?.ticketId).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
    expect(done?.delivery).toMatchObject({ complete: true, code: 4, outcome: 'delivered', totalSegments: 1 });
    expect(done?.inFlight).toBeUndefined();
    const states = ['queued', 'sending', 'accepted', 'delivered'];
    expect(changes.filter((c) => c.key === 'life-1').map((c) => c.state)).toEqual(states);
    expect(changes.find((c) => c.state === 'accepted')?.previous).toBe('sending');
    await waitFor(() => heard.length >= 4, 2_000);
    expect(heard.filter((c) => c.key === 'life-1').map((c) => c.state)).toEqual(states);
    // The changes that have a ticket or a code carry them, here and through pub/sub alike.
    for (const seen of [changes, heard]) {
      expect(seen.filter((c) => c.key === 'life-1').map((c) => [c.state, c.ticketId, c.code])).toEqual([
        ['queued', undefined, undefined],
        ['sending', undefined, undefined],
        ['accepted', done?.ticketId, undefined],
        ['delivered', done?.ticketId, 4],
      ]);
    }
    await unsubscribe();
  });

  it('folds the receipts of a multipart message with core: one part failed → failed 830', async () => {
    const queue = newQueue();
    setup.receiptsTo = queue;
    setup.sandbox.setScenario('14155550177', { kind: 'fail-part', segmentNumber: 2 });
    const long: MtRequest = {
      destination: { address: '14155550177' },
      message: { type: 'text', mlc: 'segment', content: `${'Your parcel is on its way. '.repeat(10)}[multi-1]` },
      delivery: { receiptRequested: 'final', url: setup.receiptUrl },
    };
    await queue.enqueue(long, { key: 'multi-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('multi-1'))?.state === 'failed', 15_000)).toBe(true);
    const failed = await queue.getMessage('multi-1');
    expect(failed).toMatchObject({ state: 'failed', code: 830, description: 'Partial message delivery failure' });
    expect(failed?.delivery?.parts.map((p) => p.code)).toEqual([4, 811]);
  });

  it('a 1010 re-queues the message for later and frees the worker for the next one', async () => {
    const queue = newQueue({ concurrency: 1, retry: { temporaryErrorDelayMs: 3_000, allowShortTemporaryErrorDelay: true, initialDelayMs: 50 } });
    const changes: StateChange[] = [];
    const watcher = await queue.subscribe((c) => changes.push(c));
    setup.sandbox.addFault({ operation: 'send', kind: '1010', count: 1 });
    await queue.enqueue(message('temp-1'), { key: 'temp-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('temp-1'))?.state === 'retrying', 5_000, 20)).toBe(true);
    const retrying = await queue.getMessage('temp-1');
    expect(retrying).toMatchObject({ state: 'retrying', code: '1010', description: SMS_ERRORS['1010'].description, httpStatus: 503, retries: 1 });
    await waitFor(() => changes.some((c) => c.key === 'temp-1' && c.state === 'retrying'), 1_000, 10);
    expect(changes.find((c) => c.key === 'temp-1' && c.state === 'retrying')).toMatchObject({ code: '1010', previous: 'sending' });
    expect((retrying?.retryAt ?? 0) - (retrying?.updatedAt ?? 0)).toBeGreaterThanOrEqual(3_000);
    expect(retrying?.inFlight).toBeUndefined();
    // The only worker slot is free: the next message goes out while the first waits.
    await queue.enqueue(message('temp-2'), { key: 'temp-2' });
    expect(await waitFor(async () => (await queue.getMessage('temp-2'))?.state === 'accepted', 2_500, 20)).toBe(true);
    expect((await queue.getMessage('temp-1'))?.state).toBe('retrying');
    expect(await waitFor(async () => (await queue.getMessage('temp-1'))?.state === 'accepted', 10_000)).toBe(true);
    expect(await queue.getMessage('temp-1')).toMatchObject({ state: 'accepted', retries: 1, sends: 2 });
    expect((await sentKeys()).filter((k) => k === 'temp-1')).toHaveLength(1);
    // The second attempt waited at least the 1010 interval after the first.
    await waitFor(() => changes.filter((c) => c.key === 'temp-1' && c.state === 'sending').length === 2, 1_000);
    const attempts = changes.filter((c) => c.key === 'temp-1' && c.state === 'sending').map((c) => c.at);
    expect(attempts).toHaveLength(2);
    expect((attempts[1] as number) - (attempts[0] as number)).toBeGreaterThanOrEqual(3_000);
    await watcher();
  });

  it('gives up after retry.maxRetries refused attempts: rejected, retries-exhausted', async () => {
    const queue = newQueue({ retry: { temporaryErrorDelayMs: 50, allowShortTemporaryErrorDelay: true, initialDelayMs: 10, maxRetries: 2 } });
    setup.sandbox.addFault({ operation: 'send', kind: '1010', count: 3 });
    await queue.enqueue(message('temp-3'), { key: 'temp-3' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('temp-3'))?.state === 'rejected', 5_000, 20)).toBe(true);
    expect(await queue.getMessage('temp-3')).toMatchObject({ state: 'rejected', reason: 'retries-exhausted', code: '1010', sends: 3, retries: 2 });
    expect((await sentKeys()).filter((k) => k === 'temp-3')).toHaveLength(0);
  });

  it('waits the spec\'s 10 s after a 1010 by default (from core\'s catalogue)', async () => {
    expect(TEMPORARY_ERROR_DELAY_MS).toBe(10_000);
    const retry = SMS_ERRORS['1010'].retry;
    expect(retry.retryable && retry.minIntervalMs).toBe(TEMPORARY_ERROR_DELAY_MS);
    const queue = newQueue({ retry: {} });
    setup.sandbox.addFault({ operation: 'send', kind: '1010', count: 1 });
    await queue.enqueue(message('temp-default'), { key: 'temp-default' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('temp-default'))?.state === 'retrying', 5_000, 20)).toBe(true);
    const retrying = await queue.getMessage('temp-default');
    expect((retrying?.retryAt ?? 0) - (retrying?.updatedAt ?? 0)).toBeGreaterThanOrEqual(10_000);
    expect((await queue.bullQueue.getJobCounts()).delayed).toBe(1);
  });

  it('sends with a client of your own (client + accountId)', async () => {
    const attempts: AttemptEvent[] = [];
    const client = createClient({ baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password', retry: { send: false }, onAttempt: (a) => attempts.push(a) });
    const options = { connection: redis.connection, name: `test-${++queueCount}`, client };
    expect(() => createSendQueue(options)).toThrow(new TypeError('accountId is required with client (the account the rate limit applies to)'));
    expect(() => createSendQueue({ ...options, clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' }, accountId: 'sandbox' })).toThrow(
      new TypeError('give either client or clientOptions'),
    );
    const queue = createSendQueue({ ...options, accountId: 'sandbox', rateLimit: { perSecond: 20 } });
    open.push(queue);
    await queue.enqueueMany(['own-1', 'own-2'].map((key) => ({ key, request: message(key) })));
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessages(['own-1', 'own-2'])).every((m) => m?.state === 'accepted'), 5_000)).toBe(true);
    // Both requests went out through that client, and the sandbox took them.
    expect(attempts.map((a) => [a.operation, a.httpStatus])).toEqual([
      ['send', 202],
      ['send', 202],
    ]);
    const record = await sandboxRecord(setup.server.url);
    for (const key of ['own-1', 'own-2']) {
      expect(record.find((m) => keyOfContent(m.content) === key)?.ticketId).toBe((await queue.getMessage(key))?.ticketId);
    }
  });

  it('rejects a message the service refuses, with its code and description, and never sends it again', async () => {
    const queue = createSendQueue({
      connection: redis.connection,
      name: `test-${++queueCount}`,
      clientOptions: { baseUrl: setup.server.url, accountId: 'north-america', password: 'north-america-password' },
    });
    open.push(queue);
    await queue.enqueue({ ...message('refused-1'), destination: { address: '447700900123' } }, { key: 'refused-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('refused-1'))?.state === 'rejected', 5_000)).toBe(true);
    expect(await queue.getMessage('refused-1')).toMatchObject({ state: 'rejected', reason: 'service', code: '592', description: SMS_ERRORS['592'].description, sends: 1 });
  });
});

describe('unknown fates', () => {
  it('parks a send answered 1000 as unknown, never resends it by itself, and resends it when asked', async () => {
    const queue = newQueue();
    setup.sandbox.addFault({ operation: 'send', kind: '1000', count: 1 });
    await queue.enqueue(message('lost-1000'), { key: 'lost-1000' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('lost-1000'))?.state === 'unknown', 5_000)).toBe(true);
    const parked = await queue.getMessage('lost-1000');
    expect(parked).toMatchObject({ state: 'unknown', reason: 'service-error', code: '1000', sends: 1 });
    expect(parked?.inFlight?.token).toContain(`/${process.pid}/`);
    expect(await queue.unknownFates()).toEqual(['lost-1000']);
    // The service did take it (as the spec warns for 1000).
    await sleep(1_500);
    expect((await sentKeys()).filter((k) => k === 'lost-1000')).toHaveLength(1);
    expect((await queue.getMessage('lost-1000'))?.state).toBe('unknown');
    expect(await queue.abandon('nope')).toEqual({ ok: false, error: { code: 'not-found', description: 'no message with key nope' } });
    expect(await queue.resend('lost-1000')).toEqual({ ok: true, value: { key: 'lost-1000', state: 'queued' } });
    expect(await waitFor(async () => (await queue.getMessage('lost-1000'))?.state === 'accepted', 5_000)).toBe(true);
    expect(await queue.getMessage('lost-1000')).toMatchObject({ sends: 2 });
    expect((await sentKeys()).filter((k) => k === 'lost-1000')).toHaveLength(2);
    expect(await queue.unknownFates()).toEqual([]);
    const notUnknown = await queue.resend('lost-1000');
    expect(notUnknown).toMatchObject({ ok: false, error: { code: 'not-unknown', state: 'accepted' } });
  });

  it('parks a timed-out send; a receipt carrying the key in note2 then proves it was accepted', async () => {
    const queue = newQueue({ keyInNote2: true, sendTimeoutMs: 200 });
    setup.receiptsTo = queue;
    setup.sandbox.addFault({ operation: 'send', kind: 'latency', latencyMs: 600, count: 1 });
    await queue.enqueue(message('slow-1'), { key: 'slow-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('slow-1'))?.state === 'unknown', 5_000, 20)).toBe(true);
    expect(await queue.getMessage('slow-1')).toMatchObject({ reason: 'timeout', request: { options: { note2: 'slow-1' } } });
    expect((await queue.abandon('slow-1')).ok).toBe(true);
    // The sandbox processed the request after its latency, and its receipt names the key.
    expect(await waitFor(async () => (await queue.getMessage('slow-1'))?.state === 'delivered', 10_000)).toBe(true);
    const delivered = await queue.getMessage('slow-1');
    expect(delivered).toMatchObject({ state: 'delivered', code: 4, sends: 1 });
    expect(delivered?.ticketId).toBe((await sandboxRecord(setup.server.url)).find((m) => keyOfContent(m.content) === 'slow-1')?.ticketId);
  });

  it('parks a send whose connection dropped after the service took it', async () => {
    const queue = newQueue();
    setup.sandbox.addFault({ operation: 'send', kind: 'drop-after-accept', count: 1 });
    await queue.enqueue(message('dropped-1'), { key: 'dropped-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('dropped-1'))?.state === 'unknown', 5_000)).toBe(true);
    expect(await queue.getMessage('dropped-1')).toMatchObject({ reason: 'connection-lost', sends: 1 });
    expect((await sentKeys()).filter((k) => k === 'dropped-1')).toHaveLength(1);
  });

  it('answers waiting for a receipt whose ticket it does not know (even a foreign one) and holds it a day', async () => {
    const queue = newQueue();
    const receipt = { type: 'final' as const, mtStatus: { ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD', code: 4 } };
    expect(await queue.recordDeliveryReceipt(receipt)).toEqual({ ok: true, value: { status: 'waiting', ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD' } });
    // Held under its ticket for a day (then dropped), in case a send of this queue stores that ticket.
    const held = await rawRedis.pttl(`bull:${queue.name}:sms:e:AAAAA-BBBBB-CCCCC-DDDDD`);
    expect(held).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(held).toBeLessThanOrEqual(24 * 3_600_000);
  });

  it('answers not-found for a receipt whose ticket is known but whose message is gone (expired or evicted)', async () => {
    const queue = newQueue();
    await queue.enqueue(message('gone-1'), { key: 'gone-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('gone-1'))?.state === 'accepted', 5_000)).toBe(true);
    const ticketId = (await queue.getMessage('gone-1'))?.ticketId as string;
    // The record is gone, as after Redis evicted it; the ticket still points to its key.
    await rawRedis.del(`bull:${queue.name}:sms:m:gone-1`);
    expect(await queue.recordDeliveryReceipt({ type: 'final', mtStatus: { ticketId, code: 4 } })).toEqual({
      ok: false,
      error: { code: 'not-found', description: `no message of this queue has the ticket ${ticketId}`, ticketId },
    });
  });

  it('answers other-ticket for a receipt of the first send after a resend was accepted under a new ticket', async () => {
    const queue = newQueue({ keyInNote2: true });
    setup.sandbox.addFault({ operation: 'send', kind: '1000', count: 1 });
    await queue.enqueue(message('twice-1'), { key: 'twice-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('twice-1'))?.state === 'unknown', 5_000)).toBe(true);
    expect((await queue.resend('twice-1')).ok).toBe(true);
    expect(await waitFor(async () => (await queue.getMessage('twice-1'))?.state === 'accepted', 5_000)).toBe(true);
    const sent = (await sandboxRecord(setup.server.url)).filter((m) => keyOfContent(m.content) === 'twice-1');
    expect(sent).toHaveLength(2);
    const [first, second] = sent as [MessageView, MessageView];
    expect((await queue.getMessage('twice-1'))?.ticketId).toBe(second.ticketId);
    // The service took the first send too (1000): its receipt, carrying the key, comes now.
    const late = await queue.recordDeliveryReceipt({ type: 'final', mtStatus: { ticketId: first.ticketId, code: 4, note2: 'twice-1' } });
    expect(late).toEqual({
      ok: false,
      error: {
        code: 'other-ticket',
        description: 'the message twice-1 was accepted under another ticket: this receipt is of another send of the key',
        ticketId: first.ticketId,
        key: 'twice-1',
      },
    });
    expect(await queue.getMessage('twice-1')).toMatchObject({ state: 'accepted', ticketId: second.ticketId, otherTicketId: first.ticketId, sends: 2 });
  });
});

describe('a receipt that arrives before the worker recorded the answer', () => {
  let proxy: HoldingProxy;
  beforeAll(async () => {
    proxy = await startHoldingProxy(setup.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  afterEach(() => {
    proxy.hold = undefined;
    proxy.released = [];
  });

  /** A queue sending through the proxy, which holds each 202 until `until()` holds (at most 10 s). */
  const heldQueue = (options: Partial<SendQueueOptions>, until: (queue: SendQueue) => Promise<boolean>): SendQueue => {
    const queue = newQueue({ clientOptions: { baseUrl: proxy.url, accountId: 'sandbox', password: 'sandbox-password' }, ...options });
    proxy.hold = () => waitFor(() => until(queue), 10_000, 20);
    setup.receiptsTo = queue;
    return queue;
  };

  it('with the key in note2: the receipt settles the message at once, and the late answer changes nothing', async () => {
    const changes: StateChange[] = [];
    const queue = heldQueue({ keyInNote2: true, onStateChange: (c) => changes.push(c) }, async (q) => (await q.getMessage('early-1'))?.state === 'delivered');
    await queue.enqueue(message('early-1'), { key: 'early-1' });
    queue.startWorker();
    expect(await waitFor(() => proxy.released.length === 1, 15_000, 20)).toBe(true);
    // The answer was held until the receipt had settled the message.
    expect(proxy.released).toEqual([true]);
    await sleep(200);
    const view = (await sandboxRecord(setup.server.url)).find((m) => keyOfContent(m.content) === 'early-1');
    const message1 = await queue.getMessage('early-1');
    expect(message1).toMatchObject({ state: 'delivered', ticketId: view?.ticketId, code: 4, sends: 1 });
    // The worker's answer came after the receipt: its outcome was refused as stale, the receipt's ticket kept.
    expect(message1?.requestId).toBeUndefined();
    expect(changes.filter((c) => c.key === 'early-1').map((c) => c.state)).toEqual(['queued', 'sending', 'accepted', 'delivered']);
  });

  it('without the key: the receipt waits under its ticket and is applied when the worker stores the answer', async () => {
    const receiptsBefore = setup.receipts;
    const queue = heldQueue({}, async () => setup.receipts > receiptsBefore);
    await queue.enqueue(message('early-2'), { key: 'early-2' });
    queue.startWorker();
    expect(await waitFor(() => proxy.released.length === 1, 15_000, 20)).toBe(true);
    // The answer was held until the receiver had taken the receipt.
    expect(proxy.released).toEqual([true]);
    expect(await waitFor(async () => (await queue.getMessage('early-2'))?.state === 'delivered', 5_000, 20)).toBe(true);
    const view = (await sandboxRecord(setup.server.url)).find((m) => keyOfContent(m.content) === 'early-2');
    expect(await queue.getMessage('early-2')).toMatchObject({ state: 'delivered', ticketId: view?.ticketId, code: 4, sends: 1 });
    expect(await rawRedis.exists(`bull:${queue.name}:sms:e:${view?.ticketId}`)).toBe(0);
  });
});

describe('Retry-After', () => {
  let server: Server;
  let url: string;
  const arrivals: number[] = [];
  beforeAll(async () => {
    let calls = 0;
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        arrivals.push(Date.now());
        calls++;
        if (calls === 1) {
          response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2', 'x-request-id': 'r-1' });
          response.end(encodeErrorRecord({ code: '1010', description: SMS_ERRORS['1010'].description }, 'json'));
          return;
        }
        response.writeHead(202, { location: `http://127.0.0.1/sms/v4/mt/AAAAA-BBBBB-CCCCC-${String(calls).padStart(5, '0')}`, 'x-request-id': `r-${calls}` });
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('waits Retry-After before the message, and holds every send of the account meanwhile', async () => {
    const queue = newQueue({ clientOptions: { baseUrl: url, accountId: 'retry-after-account', password: 'x' }, concurrency: 1 });
    await queue.enqueue(message('ra-1'), { key: 'ra-1' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('ra-1'))?.state === 'retrying', 5_000, 20)).toBe(true);
    const retrying = await queue.getMessage('ra-1');
    expect((retrying?.retryAt ?? 0) - (retrying?.updatedAt ?? 0)).toBeGreaterThanOrEqual(2_000);
    await queue.enqueue(message('ra-2'), { key: 'ra-2' });
    expect(await waitFor(async () => (await queue.getMessages(['ra-1', 'ra-2'])).every((m) => m?.state === 'accepted'), 8_000)).toBe(true);
    expect(arrivals).toHaveLength(3);
    expect((arrivals[1] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(1_950);
    expect((arrivals[2] as number) - (arrivals[0] as number)).toBeGreaterThanOrEqual(1_950);
  });
});

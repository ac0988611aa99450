/** The account's gate against a real redis-server: slots spaced by the rate, bursts, pauses. */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { checkRateLimit, createSendGate } from './send-gate.js';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.connection);
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

describe('the send gate', () => {
  it('spaces the slots of an account by the rate, across gates (workers) of the account', async () => {
    const first = createSendGate(redis, 'g', 'acct-1', { perSecond: 10 });
    const second = createSendGate(redis, 'g', 'acct-1', { perSecond: 10 });
    // Each slot, as the interval [called + wait, answered + wait] that holds it.
    const slots: [number, number][] = [];
    for (let i = 0; i < 6; i++) {
      const called = Date.now();
      const { reserved, waitMs } = await (i % 2 ? first : second).reserve(5_000);
      expect(reserved).toBe(true);
      slots.push([called + waitMs, Date.now() + waitMs]);
    }
    for (let i = 1; i < slots.length; i++) {
      const [early, late] = slots[i] as [number, number];
      const [previousEarly, previousLate] = slots[i - 1] as [number, number];
      expect(late - previousEarly).toBeGreaterThanOrEqual(99);
      expect(early - previousLate).toBeLessThanOrEqual(101);
    }
    // Another account has its own slots.
    expect(await createSendGate(redis, 'g', 'acct-2', { perSecond: 10 }).reserve(1000)).toEqual({ reserved: true, waitMs: 0 });
  });

  it('reserves nothing when the slot is further than the caller waits', async () => {
    const gate = createSendGate(redis, 'g', 'acct-3', { perSecond: 1 });
    expect(await gate.reserve(100)).toEqual({ reserved: true, waitMs: 0 });
    const far = await gate.reserve(100);
    expect(far.reserved).toBe(false);
    expect(far.waitMs).toBeGreaterThan(900);
    expect((await gate.reserve(100)).waitMs).toBeLessThanOrEqual(far.waitMs);
  });

  it('lets a burst through at once, then the rate', async () => {
    const gate = createSendGate(redis, 'g', 'acct-4', { perSecond: 10, burst: 3 });
    const started = Date.now();
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push((await gate.reserve(1000)).waitMs);
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    // The fourth slot is one interval (100 ms) after the first.
    expect((waits[3] as number) + (Date.now() - started)).toBeGreaterThanOrEqual(99);
    expect(waits[3]).toBeLessThanOrEqual(101);
  });

  it('holds every send of the account during a pause (Retry-After), with or without a rate limit', async () => {
    const gate = createSendGate(redis, 'g', 'acct-5', undefined);
    expect(await gate.reserve(1000)).toEqual({ reserved: true, waitMs: 0 });
    await gate.pause(2_000);
    const held = await createSendGate(redis, 'g', 'acct-5', undefined).reserve(5_000);
    expect(held.reserved).toBe(true);
    expect(held.waitMs).toBeGreaterThan(1_900);
    expect((await gate.reserve(100)).reserved).toBe(false);
  });

  it('admits no more sends in any one second than the limit, across gates of the account', async () => {
    const first = createSendGate(redis, 'g', 'acct-10', { perSecond: 4 });
    const second = createSendGate(redis, 'g', 'acct-10', { perSecond: 4 });
    // Four sends whose slots passed while their process was stalled, all at once: the second is full.
    expect(await Promise.all([first.admit(), second.admit(), first.admit(), second.admit()])).toEqual([0, 0, 0, 0]);
    const wait = await first.admit();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1000);
    // Another account, a burst, and no rate limit: each its own room.
    expect(await createSendGate(redis, 'g', 'acct-11', { perSecond: 4 }).admit()).toBe(0);
    const burst = createSendGate(redis, 'g', 'acct-12', { perSecond: 2, burst: 3 });
    expect(await Promise.all([1, 2, 3, 4].map(() => burst.admit()))).toEqual([0, 0, 0, 0]);
    expect(await burst.admit()).toBeGreaterThan(0);
    expect(await createSendGate(redis, 'g', 'acct-10', undefined).admit()).toBe(0);
    // Once the oldest left the window, the next is admitted.
    await sleep(wait + 20);
    expect(await second.admit()).toBe(0);
  });

  it('refuses a bad rate limit', () => {
    for (const bad of [{ perSecond: 0 }, { perSecond: -1 }, { perSecond: Number.NaN }, { perSecond: Infinity }, { perSecond: 5, burst: 0 }, { perSecond: 5, burst: 1.5 }]) {
      expect(() => checkRateLimit(bad)).toThrow(TypeError);
    }
    expect(() => checkRateLimit({ perSecond: 0.5 })).not.toThrow();
  });
});

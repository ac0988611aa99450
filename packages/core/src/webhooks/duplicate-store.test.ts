import { describe, expect, it } from 'vitest';
import { createMemoryDuplicateStore, createRedisDuplicateStore, type RedisCommand } from './duplicate-store.js';

describe('createMemoryDuplicateStore', () => {
  it('reserves a new key, reports it in flight until settled, then seen after commit', () => {
    const store = createMemoryDuplicateStore();
    expect(store.reserve('a', 1000)).toBe('reserved');
    expect(store.reserve('a', 1000)).toBe('in-flight');
    store.commit('a', 60_000);
    expect(store.reserve('a', 1000)).toBe('seen');
  });

  it('forgets a released key so that the retry is handled', () => {
    const store = createMemoryDuplicateStore();
    store.reserve('a', 1000);
    store.release('a');
    expect(store.reserve('a', 1000)).toBe('reserved');
  });

  it('frees a lease and forgets a seen key once their time has passed', () => {
    let now = 0;
    const store = createMemoryDuplicateStore({ now: () => now });
    store.reserve('lease', 100);
    store.reserve('seen', 100);
    store.commit('seen', 1000);
    now = 100;
    expect(store.reserve('lease', 100)).toBe('reserved');
    expect(store.reserve('seen', 100)).toBe('seen');
    now = 1000;
    expect(store.reserve('seen', 100)).toBe('reserved');
  });

  it('keeps at most maxEntries keys, forgetting the oldest first', () => {
    const store = createMemoryDuplicateStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) {
      store.reserve(key, 1000);
      store.commit(key, 60_000);
    }
    expect(store.size).toBe(3);
    expect(store.reserve('b', 1000)).toBe('seen');
    expect(store.reserve('a', 1000)).toBe('reserved');
  });

  it('sweeps expired entries as it writes, so the size stays bounded by live keys', () => {
    let now = 0;
    const store = createMemoryDuplicateStore({ now: () => now });
    for (let i = 0; i < 100; i++) store.commit(`k${i}`, 10);
    now = 20;
    for (let i = 0; i < 100; i++) store.commit(`n${i}`, 10_000);
    expect(store.size).toBeLessThan(120);
  });

  it('refuses a bad maxEntries', () => {
    expect(() => createMemoryDuplicateStore({ maxEntries: 0 })).toThrow(TypeError);
  });
});

/** A tiny Redis: SET (NX, PX), GET, EVAL of the release script; with an expiry clock. */
function fakeRedis(): { send: RedisCommand; log: string[][]; data: Map<string, { value: string; expiresAt: number }>; advance(ms: number): void } {
  let now = 0;
  const data = new Map<string, { value: string; expiresAt: number }>();
  const log: string[][] = [];
  const live = (key: string) => {
    const e = data.get(key);
    if (e !== undefined && e.expiresAt <= now) data.delete(key);
    return data.get(key);
  };
  const send: RedisCommand = async (args) => {
    log.push(args);
    const [name, key = '', ...rest] = args;
    if (name === 'SET') {
      const [value = '', px, ms, nx] = rest;
      expect(px).toBe('PX');
      if (nx === 'NX' && live(key) !== undefined) return null;
      data.set(key, { value, expiresAt: now + Number(ms) });
      return 'OK';
    }
    if (name === 'GET') return live(key)?.value ?? null;
    if (name === 'EVAL') {
      const [, realKey = '', token] = rest;
      if (live(realKey)?.value === token) {
        data.delete(realKey);
        return 1;
      }
      return 0;
    }
    throw new Error(`unexpected command ${name}`);
  };
  return { send, log, data, advance: (ms) => void (now += ms) };
}

describe('createRedisDuplicateStore', () => {
  it('goes through reserved, in flight, seen with SET NX PX and GET', async () => {
    const redis = fakeRedis();
    const store = createRedisDuplicateStore({ sendCommand: redis.send, keyPrefix: 'p:' });
    expect(await store.reserve('a', 1500.2)).toBe('reserved');
    expect(redis.log[0]).toEqual(['SET', 'p:a', expect.stringMatching(/^in-flight:/), 'PX', '1501', 'NX']);
    expect(await store.reserve('a', 1500)).toBe('in-flight');
    await store.commit('a', 90_000);
    expect(redis.data.get('p:a')?.value).toBe('seen');
    expect(await store.reserve('a', 1500)).toBe('seen');
  });

  it('releases only its own reservation', async () => {
    const redis = fakeRedis();
    const one = createRedisDuplicateStore({ sendCommand: redis.send });
    const two = createRedisDuplicateStore({ sendCommand: redis.send });
    expect(await one.reserve('k', 100)).toBe('reserved');
    redis.advance(100); // one's lease ran out (its instance hung)
    expect(await two.reserve('k', 100)).toBe('reserved');
    await one.release('k'); // must not free two's reservation
    expect(await one.reserve('k', 100)).toBe('in-flight');
    await two.release('k');
    expect(await one.reserve('k', 100)).toBe('reserved');
  });

  it('propagates a failing command (the receiver answers 503)', async () => {
    const store = createRedisDuplicateStore({ sendCommand: () => Promise.reject(new Error('ECONNREFUSED')) });
    await expect(store.reserve('a', 10)).rejects.toThrow('ECONNREFUSED');
  });

  it('refuses a missing sendCommand', () => {
    expect(() => createRedisDuplicateStore({} as never)).toThrow(TypeError);
  });
});

import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { heldBytes } from '../../test/heap.js';
import { decodeCallback } from './decode-callback.js';
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

  it('takes a few hundred bytes a key for the keys of callbacks read from XML (no body kept alive)', () => {
    const receipt = loadFixture('delivery-receipt/single-delivered.xml');
    const ticketId = /ticketId="([^"]+)"/.exec(receipt)?.[1] ?? '';
    expect(receipt.length).toBeGreaterThan(400);
    const count = 20_000;
    const { value: store, bytes } = heldBytes(() => {
      const made = createMemoryDuplicateStore();
      for (let i = 0; i < count; i++) {
        const result = decodeCallback(receipt.replace(ticketId, `${ticketId.slice(0, -5)}${String(i).padStart(5, '0')}`), 'xml');
        if (!result.ok) throw new Error(result.error.description);
        expect(made.reserve(result.value.key, 60_000)).toBe('reserved');
        made.commit(result.value.key, 60_000);
      }
      return made;
    });
    const perKey = bytes / count;
    expect(store.size).toBe(count);
    // About 130 bytes measured; a key holding its body would take the body's 435 bytes and more.
    expect(perKey).toBeLessThan(400);
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

  it('recognises its own reservation when the SET was applied but its reply lost, or the command sent twice', async () => {
    const redis = fakeRedis();
    // Sent twice, as a client does after a reconnection: the caller gets the second reply (nil).
    const twice: RedisCommand = async (args) => {
      await redis.send(args);
      return redis.send(args);
    };
    expect(await createRedisDuplicateStore({ sendCommand: twice }).reserve('k', 1000)).toBe('reserved');
    // Applied, but the reply lost (a timeout): the retry from this process finds its token.
    let lose = true;
    const lossy: RedisCommand = async (args) => {
      const reply = await redis.send(args);
      if (lose && args[0] === 'SET') {
        lose = false;
        throw new Error('Command timed out');
      }
      return reply;
    };
    const store = createRedisDuplicateStore({ sendCommand: lossy });
    await expect(store.reserve('lost', 1000)).rejects.toThrow('Command timed out');
    expect(await store.reserve('lost', 1000)).toBe('reserved');
    // Commit and release are idempotent.
    await store.commit('lost', 5000);
    await store.commit('lost', 5000);
    await store.release('lost');
    expect(await store.reserve('lost', 1000)).toBe('seen');
  });

  it('gives back a reservation in doubt with a release queued behind it, so another instance is not answered 409', async () => {
    const redis = fakeRedis();
    let lose = true;
    const lossy: RedisCommand = async (args) => {
      const reply = await redis.send(args);
      if (lose && args[0] === 'SET') {
        lose = false;
        throw new Error('Command timed out');
      }
      return reply;
    };
    await expect(createRedisDuplicateStore({ sendCommand: lossy }).reserve('k', 60_000)).rejects.toThrow('Command timed out');
    await Promise.resolve();
    expect(redis.log.map(([name]) => name)).toEqual(['SET', 'EVAL']);
    expect(await createRedisDuplicateStore({ sendCommand: redis.send }).reserve('k', 60_000)).toBe('reserved');
  });

  it('propagates a failing command (the receiver answers 503)', async () => {
    const store = createRedisDuplicateStore({ sendCommand: () => Promise.reject(new Error('ECONNREFUSED')) });
    await expect(store.reserve('a', 10)).rejects.toThrow('ECONNREFUSED');
  });

  it('refuses a missing sendCommand', () => {
    expect(() => createRedisDuplicateStore({} as never)).toThrow(TypeError);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryDuplicateStore } from './duplicate-store.js';
import { runs } from '../../test/property-runs.js';

type Op = { kind: 'reserve' | 'commit' | 'release'; key: string };

/** The naive model: a list in reservation order; beyond `max` keys the oldest reserved is forgotten. */
function model(max: number) {
  const keys: { key: string; seen: boolean }[] = [];
  const find = (key: string) => keys.findIndex((k) => k.key === key);
  return {
    reserve(key: string) {
      const i = find(key);
      if (i !== -1) return keys[i]!.seen ? 'seen' : 'in-flight';
      keys.push({ key, seen: false });
      while (keys.length > max) keys.shift();
      return 'reserved';
    },
    commit(key: string) {
      const i = find(key);
      if (i === -1) {
        keys.push({ key, seen: true });
        while (keys.length > max) keys.shift();
      } else keys[i]!.seen = true;
    },
    release(key: string) {
      const i = find(key);
      if (i !== -1) keys.splice(i, 1);
    },
    get size() {
      return keys.length;
    },
  };
}

describe('the in-memory duplicate store against a model', () => {
  it('answers as a store that forgets the oldest reserved key beyond its size, for any sequence', () => {
    const op = fc.record({ kind: fc.constantFrom('reserve', 'commit', 'release', 'reserve'), key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g') }) as fc.Arbitrary<Op>;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 300 }), (max, ops) => {
        const store = createMemoryDuplicateStore({ maxEntries: max, now: () => 0 });
        const reference = model(max);
        for (const { kind, key } of ops) {
          if (kind === 'reserve') expect(store.reserve(key, 60_000)).toBe(reference.reserve(key));
          else if (kind === 'commit') {
            store.commit(key, 60_000);
            reference.commit(key);
          } else {
            store.release(key);
            reference.release(key);
          }
          expect(store.size).toBe(reference.size);
        }
      }),
      { numRuns: runs(500) },
    );
  });

  it('answers as a map of keys with their expiry as time passes, for any sequence (no key forgotten for room)', () => {
    type TimedOp = { kind: 'reserve' | 'commit' | 'release' | 'wait'; key: number; ms: number };
    const op = fc.record({ kind: fc.constantFrom('reserve', 'commit', 'release', 'reserve', 'wait'), key: fc.integer({ min: 0, max: 30 }), ms: fc.integer({ min: 1, max: 50 }) }) as fc.Arbitrary<TimedOp>;
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 600 }), (ops) => {
        let at = 0;
        const store = createMemoryDuplicateStore({ maxEntries: 1000, now: () => at });
        const reference = new Map<string, { seen: boolean; until: number }>();
        for (const { kind, key: n, ms } of ops) {
          const key = `k${n}`;
          const held = reference.get(key);
          if (kind === 'wait') at += ms;
          else if (kind === 'reserve') {
            const expected = held !== undefined && held.until > at ? (held.seen ? 'seen' : 'in-flight') : 'reserved';
            expect(store.reserve(key, ms)).toBe(expected);
            if (expected === 'reserved') reference.set(key, { seen: false, until: at + ms });
          } else if (kind === 'commit') {
            store.commit(key, ms);
            reference.set(key, { seen: true, until: at + ms });
          } else {
            store.release(key);
            reference.delete(key);
          }
          // Expired keys may linger until swept, never more.
          const live = [...reference.values()].filter((entry) => entry.until > at).length;
          expect(store.size).toBeGreaterThanOrEqual(live);
          expect(store.size).toBeLessThanOrEqual(reference.size);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

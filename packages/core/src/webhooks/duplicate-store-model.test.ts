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

});

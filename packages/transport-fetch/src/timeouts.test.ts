import { describe, expect, it } from 'vitest';
import { checkTimeout, DEFAULT_TIMEOUTS, resolveTimeouts } from './timeouts.js';

describe('resolveTimeouts', () => {
  it('by default times out reads only: a send or an invocation waits for the answer', () => {
    expect(resolveTimeouts(undefined)).toEqual({ send: undefined, status: DEFAULT_TIMEOUTS.status, lookup: DEFAULT_TIMEOUTS.lookup, invokeService: undefined });
    expect(DEFAULT_TIMEOUTS.status).toBe(10_000);
  });

  it('takes one number for every operation, or one per operation', () => {
    expect(resolveTimeouts(500)).toEqual({ send: 500, status: 500, lookup: 500, invokeService: 500 });
    expect(resolveTimeouts({ send: 30_000 })).toEqual({ send: 30_000, status: undefined, lookup: undefined, invokeService: undefined });
  });

  it('refuses what a timer cannot take', () => {
    for (const bad of [0, -1, Number.NaN, Infinity, 2 ** 31, '100']) expect(() => checkTimeout(bad, 'timeoutMs')).toThrow(TypeError);
    expect(() => resolveTimeouts({ status: 0 })).toThrow(/timeoutMs.status/);
    expect(() => resolveTimeouts(null as unknown as number)).toThrow(TypeError);
  });
});

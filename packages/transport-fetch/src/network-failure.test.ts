import { describe, expect, it } from 'vitest';
import { classifyNetworkFailure } from './network-failure.js';

const systemError = (code: string): Error => Object.assign(new Error(code), { code });
const fetchFailed = (cause: unknown): TypeError => new TypeError('fetch failed', { cause });

describe('classifyNetworkFailure', () => {
  it('a refused connection certainly did not leave, and may work later', () => {
    expect(classifyNetworkFailure(fetchFailed(systemError('ECONNREFUSED')))).toEqual({ reachedService: 'no', notSent: 'transient', code: 'ECONNREFUSED' });
  });

  it('an unknown host or an untrusted certificate did not leave, and will not work later', () => {
    expect(classifyNetworkFailure(fetchFailed(systemError('ENOTFOUND')))).toMatchObject({ reachedService: 'no', notSent: 'permanent' });
    expect(classifyNetworkFailure(fetchFailed(systemError('UNABLE_TO_VERIFY_LEAF_SIGNATURE')))).toMatchObject({ reachedService: 'no', notSent: 'permanent' });
  });

  it('looks into AggregateError: every address must have refused', () => {
    const allRefused = Object.assign(new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')]), { code: 'ECONNREFUSED' });
    expect(classifyNetworkFailure(fetchFailed(allRefused)).reachedService).toBe('no');
    const mixed = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNRESET')]);
    expect(classifyNetworkFailure(fetchFailed(mixed)).reachedService).toBe('unknown');
  });

  it("a reset, a closed socket or a browser's opaque failure leave the fate unknown", () => {
    expect(classifyNetworkFailure(fetchFailed(systemError('ECONNRESET')))).toEqual({ reachedService: 'unknown', code: 'ECONNRESET' });
    expect(classifyNetworkFailure(fetchFailed(systemError('UND_ERR_SOCKET'))).reachedService).toBe('unknown');
    expect(classifyNetworkFailure(new TypeError('Failed to fetch'))).toEqual({ reachedService: 'unknown' });
    expect(classifyNetworkFailure('not even an error')).toEqual({ reachedService: 'unknown' });
  });

  it('stops at a cycle of causes', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    a.cause = a;
    expect(classifyNetworkFailure(a).reachedService).toBe('unknown');
  });
});

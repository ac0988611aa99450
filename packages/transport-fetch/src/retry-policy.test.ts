import { INVOKE_ERRORS, SMS_ERRORS } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICIES, planRetry, resolveRetryPolicies, retryability, type FailureFacts } from './retry-policy.js';

const policies = resolveRetryPolicies(undefined);

describe('retryability', () => {
  const cases: readonly [string, FailureFacts, Record<string, boolean>][] = [
    ['1010', { kind: 'api-error', httpStatus: 503, temporary: true }, { send: true, status: true, lookup: true, invokeService: true }],
    ['1000 (HTTP 500)', { kind: 'api-error', httpStatus: 500 }, { send: false, status: true, lookup: true, invokeService: false }],
    ['a 4xx rejection', { kind: 'api-error', httpStatus: 400 }, { send: false, status: false, lookup: false, invokeService: false }],
    ['429', { kind: 'unexpected-response', httpStatus: 429 }, { send: false, status: true, lookup: true, invokeService: false }],
    ['a 502 page', { kind: 'unexpected-response', httpStatus: 502 }, { send: false, status: true, lookup: true, invokeService: false }],
    ['a timeout', { kind: 'timeout' }, { send: false, status: true, lookup: true, invokeService: false }],
    ['a reset connection', { kind: 'network' }, { send: false, status: true, lookup: true, invokeService: false }],
    ['a refused connection', { kind: 'network', notSent: 'transient' }, { send: true, status: true, lookup: true, invokeService: true }],
    ['an untrusted certificate', { kind: 'network', notSent: 'permanent' }, { send: false, status: false, lookup: false, invokeService: false }],
  ];
  it.each(cases)('%s', (_, facts, expected) => {
    for (const [operation, retryable] of Object.entries(expected)) {
      const op = operation as keyof typeof policies;
      expect([operation, retryability(op, facts, policies[op]).retryable]).toEqual([operation, retryable]);
    }
  });

  it("takes the 1010 intervals from the catalogue's guidance", () => {
    const sms = SMS_ERRORS['1010'].retry;
    const invoke = INVOKE_ERRORS[1010].retry;
    expect(retryability('send', { kind: 'api-error', temporary: true }, policies.send).minDelayMs).toBe(sms.retryable ? sms.minIntervalMs : -1);
    expect(retryability('invokeService', { kind: 'api-error', temporary: true }, policies.invokeService).minDelayMs).toBe(invoke.retryable ? invoke.minIntervalMs : -1);
    expect(DEFAULT_RETRY_POLICIES.invokeService.windowMs).toBe(invoke.retryable ? invoke.maxWindowMs : -1);
  });
});

describe('planRetry', () => {
  const policy = { ...DEFAULT_RETRY_POLICIES.status, initialDelayMs: 100, maxDelayMs: 1000 };
  const retryable = { retryable: true } as const;

  it('doubles the backoff and jitters it between half and all of it, up to the ceiling', () => {
    const at = (attempt: number, r: number) => planRetry({ ...policy, maxAttempts: 10 }, { attempt, elapsedMs: 0, retryability: retryable }, () => r);
    expect([at(1, 0), at(1, 0.999)]).toEqual([50, 100]);
    expect([at(2, 0), at(3, 0), at(4, 0)]).toEqual([100, 200, 400]);
    expect([at(5, 0), at(9, 0.999)]).toEqual([500, 1000]);
  });

  it('stops when not retryable or when the attempts are used up', () => {
    expect(planRetry(policy, { attempt: 1, elapsedMs: 0, retryability: { retryable: false } }, () => 0)).toBeUndefined();
    expect(planRetry(policy, { attempt: policy.maxAttempts, elapsedMs: 0, retryability: retryable }, () => 0)).toBeUndefined();
  });

  it('waits at least the 1010 interval (plus up to 10 %) and at least Retry-After', () => {
    const temporary = { retryable: true, minDelayMs: 10_000 } as const;
    expect(planRetry(policy, { attempt: 1, elapsedMs: 0, retryability: temporary }, () => 0)).toBe(10_000);
    expect(planRetry(policy, { attempt: 1, elapsedMs: 0, retryability: temporary }, () => 0.5)).toBe(10_500);
    expect(planRetry(policy, { attempt: 1, elapsedMs: 0, retryability: retryable, retryAfterMs: 2_000 }, () => 0)).toBe(2_000);
  });

  it('hands back a wait longer than maxWaitMs, and a retry past the window', () => {
    expect(planRetry({ ...policy, maxWaitMs: 5_000 }, { attempt: 1, elapsedMs: 0, retryability: retryable, retryAfterMs: 6_000 }, () => 0)).toBeUndefined();
    expect(planRetry({ ...policy, maxWaitMs: 10_200 }, { attempt: 1, elapsedMs: 0, retryability: { retryable: true, minDelayMs: 10_000 } }, () => 0.9)).toBe(10_200);
    expect(planRetry({ ...policy, windowMs: 1_000 }, { attempt: 1, elapsedMs: 990, retryability: retryable }, () => 0.5)).toBeUndefined();
  });
});

describe('resolveRetryPolicies', () => {
  it('fills defaults, turns operations off with false, and refuses bad values', () => {
    const resolved = resolveRetryPolicies({ send: false, status: { maxAttempts: 5 } });
    expect(resolved.send.maxAttempts).toBe(1);
    expect(resolved.status).toEqual({ ...DEFAULT_RETRY_POLICIES.status, maxAttempts: 5 });
    expect(resolved.lookup).toEqual(DEFAULT_RETRY_POLICIES.lookup);
    expect(Object.values(resolveRetryPolicies(false)).map((p) => p.maxAttempts)).toEqual([1, 1, 1, 1]);
    expect(() => resolveRetryPolicies({ status: { maxAttempts: 1.5 } })).toThrow(TypeError);
    expect(() => resolveRetryPolicies({ lookup: { initialDelayMs: -1 } })).toThrow(TypeError);
    expect(() => resolveRetryPolicies({ lookup: { maxWaitMs: Number.NaN } })).toThrow(TypeError);
  });
});

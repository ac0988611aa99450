import { SMS_ERRORS } from '@smsv4/core';
import { SmsApiError, type SmsApiErrorInit } from '@smsv4/transport-fetch';
import { describe, expect, it } from 'vitest';
import { outcomeOfError, parseRetryAfter, retryDelay, TEMPORARY_ERROR_DELAY_MS } from './send-outcome.js';

const now = Date.UTC(2026, 9, 21, 7, 28, 0);

const error = (init: Partial<SmsApiErrorInit> & Pick<SmsApiErrorInit, 'kind' | 'reachedService'>, headers: Record<string, string> = {}): SmsApiError =>
  new SmsApiError({
    operation: 'send',
    description: 'x',
    retryable: false,
    attempts: 1,
    ...(init.httpStatus === undefined ? {} : { raw: { response: new Response(null, { status: init.httpStatus === 204 ? 200 : init.httpStatus, headers }), body: '' } }),
    ...init,
  });

describe('outcomeOfError', () => {
  it('retries a 1010 after the 1010 interval, or Retry-After when longer, and pauses the account for Retry-After', () => {
    const temporary = error({ kind: 'api-error', code: '1010', httpStatus: 503, retryable: true, reachedService: 'yes', description: SMS_ERRORS['1010'].description });
    expect(outcomeOfError(temporary, 10_000, now)).toEqual({ kind: 'retry', code: '1010', description: SMS_ERRORS['1010'].description, httpStatus: 503, minDelayMs: 10_000 });
    const withHeader = error({ kind: 'api-error', code: '1010', httpStatus: 503, retryable: true, reachedService: 'yes' }, { 'retry-after': '30' });
    expect(outcomeOfError(withHeader, 10_000, now)).toMatchObject({ kind: 'retry', minDelayMs: 30_000, pauseMs: 30_000 });
    // A client that retried 1010 itself hands over its own interval.
    const fromClient = error({ kind: 'api-error', code: '1010', httpStatus: 503, retryable: true, retryAfterMs: 12_000, reachedService: 'yes' });
    expect(outcomeOfError(fromClient, 10_000, now)).toMatchObject({ minDelayMs: 12_000 });
  });

  it('never retries what may have reached the service: 1000, timeouts, dropped connections, odd answers', () => {
    expect(outcomeOfError(error({ kind: 'api-error', code: '1000', httpStatus: 500, reachedService: 'yes' }), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'service-error', code: '1000' });
    expect(outcomeOfError(error({ kind: 'timeout', reachedService: 'unknown' }), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'timeout' });
    expect(outcomeOfError(error({ kind: 'network', reachedService: 'unknown' }), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'connection-lost' });
    expect(outcomeOfError(error({ kind: 'aborted', reachedService: 'unknown' }), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'connection-lost' });
    expect(outcomeOfError(error({ kind: 'unexpected-response', httpStatus: 202, reachedService: 'yes' }), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'unexpected-response' });
    expect(outcomeOfError(error({ kind: 'unexpected-response', httpStatus: 502, reachedService: 'yes' }, { 'retry-after': '5' }), 10_000, now)).toMatchObject({
      kind: 'unknown',
      reason: 'unexpected-response',
      pauseMs: 5_000,
    });
    expect(outcomeOfError(new Error('boom'), 10_000, now)).toMatchObject({ kind: 'unknown', reason: 'connection-lost', description: 'the send failed: boom' });
    expect(outcomeOfError('odd', 10_000, now)).toMatchObject({ kind: 'unknown' });
  });

  it('retries what certainly did not reach the service: an unopened connection, a 429', () => {
    expect(outcomeOfError(error({ kind: 'network', reachedService: 'no', retryable: true }), 10_000, now)).toMatchObject({ kind: 'retry', minDelayMs: 0 });
    expect(outcomeOfError(error({ kind: 'aborted', reachedService: 'no' }), 10_000, now)).toMatchObject({ kind: 'retry' });
    expect(outcomeOfError(error({ kind: 'unexpected-response', httpStatus: 429, reachedService: 'yes' }, { 'retry-after': '7' }), 10_000, now)).toMatchObject({
      kind: 'retry',
      minDelayMs: 7_000,
      pauseMs: 7_000,
    });
  });

  it('rejects what the service refused, with its code and description', () => {
    for (const code of ['420', '431', '432', '577', '591', '592'] as const) {
      const refused = error({ kind: 'api-error', code, httpStatus: 400, reachedService: 'yes', description: SMS_ERRORS[code].description, requestId: 'r-1' });
      expect(outcomeOfError(refused, 10_000, now)).toEqual({ kind: 'rejected', reason: 'service', code, description: SMS_ERRORS[code].description, httpStatus: 400, requestId: 'r-1' });
    }
    expect(outcomeOfError(error({ kind: 'invalid-request', code: '540', reachedService: 'no', attempts: 0 }), 10_000, now)).toMatchObject({ kind: 'rejected', code: '540' });
    expect(outcomeOfError(error({ kind: 'unexpected-response', httpStatus: 415, reachedService: 'yes' }), 10_000, now)).toMatchObject({ kind: 'rejected', httpStatus: 415 });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read and caps absurd values at a day', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '12abc']) expect(parseRetryAfter(value, now)).toBeUndefined();
    expect(parseRetryAfter('99999999999', now)).toBe(86_400_000);
  });
});

describe('retryDelay', () => {
  it('doubles from the initial delay up to the ceiling, never below the least wait', () => {
    const timing = { initialDelayMs: 1000, maxDelayMs: 60_000 };
    expect([0, 1, 2, 3, 6, 7, 40].map((n) => retryDelay(n, 0, timing))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000]);
    expect(retryDelay(0, TEMPORARY_ERROR_DELAY_MS, timing)).toBe(10_000);
    expect(retryDelay(5, TEMPORARY_ERROR_DELAY_MS, timing)).toBe(32_000);
  });
});

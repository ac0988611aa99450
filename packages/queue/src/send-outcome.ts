/**
 * What a send's result means for the queue. The one rule: a message is sent again by the queue
 * only when the service certainly did not take it (1010, 429, or a connection that could not be
 * opened). Anything that may have reached the service without a clear answer is an unknown fate.
 */
import { SMS_ERRORS } from '@smsv4/core';
import { SmsApiError } from '@smsv4/transport-fetch';
import type { OutcomeReason } from './message-state.js';

/** The outcome of one send, as the queue records it. */
export type SendOutcome =
  | { readonly kind: 'accepted'; readonly ticketId: string; readonly requestId?: string; readonly httpStatus: number }
  | {
      readonly kind: 'retry';
      readonly code?: string | number;
      readonly description: string;
      readonly httpStatus?: number;
      readonly requestId?: string;
      /** The shortest wait before the next attempt (the 1010 interval, `Retry-After`). */
      readonly minDelayMs: number;
      /** How long every send of the account waits (`Retry-After`). */
      readonly pauseMs?: number;
    }
  | {
      readonly kind: 'rejected' | 'unknown';
      readonly reason: OutcomeReason;
      readonly code?: string | number;
      readonly description: string;
      readonly httpStatus?: number;
      readonly requestId?: string;
      readonly pauseMs?: number;
    };

const temporary = SMS_ERRORS['1010'].retry;

/** The spec's shortest interval between attempts after a 1010 (10 s), read from core's catalogue. */
export const TEMPORARY_ERROR_DELAY_MS = temporary.retryable ? temporary.minIntervalMs : 10_000;

/** Longest `Retry-After` taken at its word (a larger one is read as this): one day. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The wait a `Retry-After` header asks for, ms: delta-seconds (`120`) or an HTTP-date relative to
 * `now`; `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/**
 * The outcome of a failed send.
 *
 * | failure | outcome |
 * |---|---|
 * | 1010 (`api-error`, retryable) | retry, after at least `temporaryErrorDelayMs` and `Retry-After` |
 * | 1000 | unknown (`service-error`): "the message may already have gone to the operator" |
 * | another service code | rejected (`service`) |
 * | `invalid-request` (core refused it before it left) | rejected (`service`, 540) |
 * | connection not opened (`reachedService: 'no'`) | retry |
 * | timeout | unknown (`timeout`) |
 * | dropped or reset connection, abort in flight | unknown (`connection-lost`) |
 * | 429 without an error record | retry after `Retry-After` |
 * | another 4xx without an error record | rejected (`service`) |
 * | 2xx, 3xx or 5xx without a usable answer | unknown (`unexpected-response`) |
 * | anything else thrown | unknown (`connection-lost`): nothing proves it did not leave |
 *
 * Any answer with `Retry-After` also pauses the account's sends (`pauseMs`).
 */
export function outcomeOfError(error: unknown, temporaryErrorDelayMs: number, now = Date.now()): SendOutcome {
  if (!(error instanceof SmsApiError)) {
    return { kind: 'unknown', reason: 'connection-lost', description: `the send failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const retryAfterMs = parseRetryAfter(error.raw?.response.headers.get('retry-after'), now);
  const facts = {
    ...(error.code === undefined ? {} : { code: error.code }),
    description: error.description,
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    ...(retryAfterMs === undefined ? {} : { pauseMs: retryAfterMs }),
  };
  switch (error.kind) {
    case 'invalid-request':
      return { kind: 'rejected', reason: 'service', ...facts };
    case 'api-error':
      if (error.retryable && error.reachedService === 'yes') {
        return { kind: 'retry', ...facts, minDelayMs: Math.max(temporaryErrorDelayMs, error.retryAfterMs ?? 0, retryAfterMs ?? 0) };
      }
      if (String(error.code) === '1000') return { kind: 'unknown', reason: 'service-error', ...facts };
      return { kind: 'rejected', reason: 'service', ...facts };
    case 'network':
    case 'aborted':
      if (error.reachedService === 'no') return { kind: 'retry', ...facts, minDelayMs: retryAfterMs ?? 0 };
      return { kind: 'unknown', reason: 'connection-lost', ...facts };
    case 'timeout':
      return { kind: 'unknown', reason: 'timeout', ...facts };
    case 'unexpected-response': {
      const status = error.httpStatus ?? 0;
      if (status === 429) return { kind: 'retry', ...facts, minDelayMs: retryAfterMs ?? 0 };
      if (status >= 400 && status < 500) return { kind: 'rejected', reason: 'service', ...facts };
      return { kind: 'unknown', reason: 'unexpected-response', ...facts };
    }
  }
}

/** Options of {@link retryDelay}. */
export interface RetryTiming {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** The wait before retry number `retries + 1`: doubling from `initialDelayMs`, capped at `maxDelayMs`, never below `minDelayMs`. */
export function retryDelay(retries: number, minDelayMs: number, { initialDelayMs, maxDelayMs }: RetryTiming): number {
  const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(retries, 30));
  return Math.max(minDelayMs, backoff);
}

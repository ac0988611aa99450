import type { ApiOperation } from '@smsv4/core';
import type { SmsApiError } from './errors.js';

/**
 * One HTTP attempt, as the `onAttempt` hook sees it once the attempt is over: for logging and
 * metrics. Requests refused before they leave (`invalid-request`) make no attempt.
 */
export interface AttemptEvent {
  readonly operation: ApiOperation;
  /** 1 for the first attempt of a call. */
  readonly attempt: number;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  /** When the attempt started (epoch ms). */
  readonly startedAt: number;
  /** How long it took, ms. */
  readonly durationMs: number;
  /** The HTTP status, when an answer arrived. */
  readonly httpStatus?: number;
  /** The `X-Request-Id` of the answer. */
  readonly requestId?: string;
  /** Why the attempt failed; absent when it succeeded. */
  readonly error?: SmsApiError;
  /** Set when another attempt follows: the wait before it, ms. */
  readonly nextDelayMs?: number;
}

/** The hook called after every attempt. What it throws is ignored: it cannot change the outcome of a call. */
export type AttemptHook = (event: AttemptEvent) => void;

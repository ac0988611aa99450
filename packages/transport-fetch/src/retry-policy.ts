/**
 * The retry policy: which failures are worth another attempt for which operation (the spec's
 * guidance), and how long to wait (jittered exponential backoff, `Retry-After`, the intervals the
 * spec gives for 1010).
 *
 * Which failures are retryable is fixed by what is safe:
 * - status and lookup (reads): network failures (but an unknown host or an untrusted certificate),
 *   timeouts, 1010, any 5xx and 429;
 * - send and Invoke Service (each call may deliver a message): 1010 (the service says it did not
 *   take the request), and a network failure that certainly happened before the request left
 *   (connection refused). Never after a timeout, a dropped connection, 1000 or another 5xx.
 * The policy only bounds how often and how long.
 */
import { INVOKE_ERRORS, SMS_ERRORS, type ApiOperation } from '@smsv4/core';

/** Limits of the retries of one operation. Every member has a default (see {@link DEFAULT_RETRY_POLICIES}). */
export interface RetryPolicy {
  /** Attempts in all, the first included (1 = never retry). */
  readonly maxAttempts?: number;
  /** Backoff before the first retry, ms; doubled at each retry, jittered between half and all of it. */
  readonly initialDelayMs?: number;
  /** Ceiling of the backoff, ms. */
  readonly maxDelayMs?: number;
  /**
   * Shortest wait after a 1010 (temporary error), ms. Defaults to the spec's guidance: 10 s for the
   * SMS API, 15 minutes for Invoke Service.
   */
  readonly temporaryErrorDelayMs?: number;
  /**
   * Longest single wait the client accepts, ms. When `Retry-After` or the 1010 interval asks for
   * more, the client stops and the error carries `retryAfterMs` for the caller to reschedule.
   */
  readonly maxWaitMs?: number;
  /** No retry starts later than this after the first attempt, ms (Invoke Service: 24 hours, the spec's window). */
  readonly windowMs?: number;
}

/** A {@link RetryPolicy} with every member set. */
export type ResolvedRetryPolicy = { readonly [K in keyof RetryPolicy]-?: number };

/** Retry settings of a client: a policy per operation (`false` turns one off) and the jitter source. */
export interface RetryOptions {
  readonly send?: RetryPolicy | false;
  readonly status?: RetryPolicy | false;
  readonly lookup?: RetryPolicy | false;
  readonly invokeService?: RetryPolicy | false;
  /** Source of jitter in [0, 1) (default `Math.random`); inject a constant for reproducible waits. */
  readonly random?: () => number;
}

const smsTemporary = SMS_ERRORS['1010'].retry;
const invokeTemporary = INVOKE_ERRORS[1010].retry;
const SMS_TEMPORARY_DELAY_MS = smsTemporary.retryable ? smsTemporary.minIntervalMs : 10_000;
const INVOKE_TEMPORARY_DELAY_MS = invokeTemporary.retryable ? invokeTemporary.minIntervalMs : 15 * 60_000;
const INVOKE_WINDOW_MS = invokeTemporary.retryable ? (invokeTemporary.maxWindowMs ?? Infinity) : Infinity;

const common = { maxAttempts: 3, initialDelayMs: 200, maxDelayMs: 5_000, maxWaitMs: 30_000, windowMs: Infinity } as const;

/**
 * The defaults. Sends wait the spec's 10 s after a 1010; Invoke Service's 15-minute interval is
 * longer than the default `maxWaitMs`, so an Invoke Service 1010 is handed back to the caller with
 * `retryAfterMs` (raise `maxWaitMs` to wait in the call).
 */
export const DEFAULT_RETRY_POLICIES: Readonly<Record<ApiOperation, ResolvedRetryPolicy>> = Object.freeze({
  send: Object.freeze({ ...common, temporaryErrorDelayMs: SMS_TEMPORARY_DELAY_MS }),
  status: Object.freeze({ ...common, temporaryErrorDelayMs: SMS_TEMPORARY_DELAY_MS }),
  lookup: Object.freeze({ ...common, temporaryErrorDelayMs: SMS_TEMPORARY_DELAY_MS }),
  invokeService: Object.freeze({ ...common, temporaryErrorDelayMs: INVOKE_TEMPORARY_DELAY_MS, windowMs: INVOKE_WINDOW_MS }),
});

const OPERATIONS: readonly ApiOperation[] = ['send', 'status', 'lookup', 'invokeService'];
const NEVER: ResolvedRetryPolicy = Object.freeze({ ...common, maxAttempts: 1, temporaryErrorDelayMs: 0 });

function checkNumber(operation: ApiOperation, name: keyof RetryPolicy, value: unknown, min: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min) {
    throw new TypeError(`retry.${operation}.${name} must be a number >= ${min}, got ${String(value)}`);
  }
  if (name === 'maxAttempts' && !Number.isInteger(value) && value !== Infinity) throw new TypeError(`retry.${operation}.maxAttempts must be an integer`);
  return value;
}

/** The policy of each operation, defaults filled in; a bad value is a `TypeError`. `false` turns every retry off. */
export function resolveRetryPolicies(retry: RetryOptions | false | undefined): Readonly<Record<ApiOperation, ResolvedRetryPolicy>> {
  if (retry === false) return { send: NEVER, status: NEVER, lookup: NEVER, invokeService: NEVER };
  if (retry !== undefined && (retry === null || typeof retry !== 'object')) throw new TypeError('retry must be an object or false');
  const resolved = {} as Record<ApiOperation, ResolvedRetryPolicy>;
  for (const operation of OPERATIONS) {
    const given = retry?.[operation];
    if (given === false) {
      resolved[operation] = NEVER;
      continue;
    }
    if (given !== undefined && (given === null || typeof given !== 'object')) throw new TypeError(`retry.${operation} must be an object or false`);
    const defaults = DEFAULT_RETRY_POLICIES[operation];
    const pick = (name: keyof RetryPolicy, min: number): number => checkNumber(operation, name, given?.[name] ?? defaults[name], min);
    resolved[operation] = {
      maxAttempts: pick('maxAttempts', 1),
      initialDelayMs: pick('initialDelayMs', 0),
      maxDelayMs: pick('maxDelayMs', 0),
      temporaryErrorDelayMs: pick('temporaryErrorDelayMs', 0),
      maxWaitMs: pick('maxWaitMs', 0),
      windowMs: pick('windowMs', 0),
    };
  }
  return resolved;
}

/** The facts of a failed attempt the retry decision reads. */
export interface FailureFacts {
  readonly kind: 'api-error' | 'network' | 'timeout' | 'unexpected-response';
  readonly httpStatus?: number;
  /** The catalogue says the code is temporary (1010 of either API). */
  readonly temporary?: boolean;
  /**
   * For a network failure that certainly happened before the request left: `transient` (connection
   * refused: trying again may work) or `permanent` (unknown host, untrusted certificate: it will not).
   */
  readonly notSent?: 'transient' | 'permanent';
}

/** Whether a failure may be retried for an operation, and the shortest wait the spec asks for. */
export interface Retryability {
  readonly retryable: boolean;
  /** Set for 1010: the policy's interval. */
  readonly minDelayMs?: number;
}

/** Reads a failure against the spec's guidance for the operation (see the module comment). */
export function retryability(operation: ApiOperation, facts: FailureFacts, policy: ResolvedRetryPolicy): Retryability {
  if (facts.temporary === true) return { retryable: true, minDelayMs: policy.temporaryErrorDelayMs };
  const read = operation === 'status' || operation === 'lookup';
  if (read) {
    if (facts.kind === 'network') return { retryable: facts.notSent !== 'permanent' };
    if (facts.kind === 'timeout') return { retryable: true };
    const status = facts.httpStatus ?? 0;
    return { retryable: status >= 500 || status === 429 };
  }
  return { retryable: facts.kind === 'network' && facts.notSent === 'transient' };
}

/** What {@link planRetry} needs to know about the attempt that just failed. */
export interface RetryContext {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** Time since the first attempt started, ms. */
  readonly elapsedMs: number;
  readonly retryability: Retryability;
  /** The wait `Retry-After` asked for, ms. */
  readonly retryAfterMs?: number;
}

/**
 * The wait before the next attempt, ms, or `undefined` when there is none: not retryable, attempts
 * used up, a wait above `maxWaitMs`, or a retry past `windowMs`. The wait is the larger of the
 * jittered backoff (between half and all of `initialDelayMs × 2^(attempt−1)`, capped at
 * `maxDelayMs`), the 1010 interval (plus up to 10 % jitter) and `Retry-After`.
 */
export function planRetry(policy: ResolvedRetryPolicy, context: RetryContext, random: () => number): number | undefined {
  const { attempt, elapsedMs, retryability: r, retryAfterMs } = context;
  if (!r.retryable || attempt >= policy.maxAttempts) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  let delay = ceiling * (0.5 + 0.5 * random());
  if (r.minDelayMs !== undefined && r.minDelayMs > 0) delay = Math.max(delay, r.minDelayMs * (1 + 0.1 * random()));
  if (retryAfterMs !== undefined) delay = Math.max(delay, retryAfterMs);
  delay = Math.round(delay);
  if (delay > policy.maxWaitMs && (r.minDelayMs ?? 0) <= policy.maxWaitMs && (retryAfterMs ?? 0) <= policy.maxWaitMs) delay = policy.maxWaitMs;
  if (delay > policy.maxWaitMs) return undefined;
  if (elapsedMs + delay > policy.windowMs) return undefined;
  return delay;
}

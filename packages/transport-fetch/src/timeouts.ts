/**
 * Attempt timeouts. Reads (status, lookup) time out by default and are retried; calls that may
 * deliver a message (send, Invoke Service) wait for the service's answer unless a timeout is set,
 * because a timeout turns a slow acceptance into an unknown outcome (the spec: "after a transport
 * timeout the request may still have been received; retrying can cause duplicate delivery").
 */
import type { ApiOperation } from '@smsv4/core';

/** A timeout per operation, ms; an operation without one waits for the answer. */
export type OperationTimeouts = Partial<Readonly<Record<ApiOperation, number>>>;

/** The default timeouts: 10 s for status and lookup; none for send and Invoke Service. */
export const DEFAULT_TIMEOUTS: Readonly<OperationTimeouts> = Object.freeze({ status: 10_000, lookup: 10_000 });

/** The longest delay timers take (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A timeout, checked: a number of ms from 1 to 2147483647; anything else is a `TypeError`. */
export function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value >= 1) || value > MAX_TIMER_MS) {
    throw new TypeError(`${name} must be a number of ms from 1 to ${MAX_TIMER_MS}, got ${String(value)}`);
  }
  return value;
}

const OPERATIONS: readonly ApiOperation[] = ['send', 'status', 'lookup', 'invokeService'];

/** The timeout of each operation: one number for all, or per operation (absent: none); default {@link DEFAULT_TIMEOUTS}. */
export function resolveTimeouts(option: number | OperationTimeouts | undefined): Readonly<Record<ApiOperation, number | undefined>> {
  if (typeof option === 'number') {
    const all = checkTimeout(option, 'timeoutMs');
    return { send: all, status: all, lookup: all, invokeService: all };
  }
  if (option !== undefined && (option === null || typeof option !== 'object')) throw new TypeError('timeoutMs must be a number or an object of numbers by operation');
  const given = option ?? DEFAULT_TIMEOUTS;
  const resolved = {} as Record<ApiOperation, number | undefined>;
  for (const operation of OPERATIONS) {
    const value = given[operation];
    resolved[operation] = value === undefined ? undefined : checkTimeout(value, `timeoutMs.${operation}`);
  }
  return resolved;
}

/** The matchers of the kit, for `expect.extend` in vitest and jest, and their types. */
import { toBeDeliveryReceipt, type ExpectedReceipt } from './delivery-receipt-matcher.js';
import { toBeValidMtRequest, toFailWith540 } from './mt-request-matchers.js';

/**
 * The matchers' signatures, for the type augmentation of a runner (`R` is what a matcher returns
 * there: `void` in vitest, `R` of `jest.Matchers<R>` in jest).
 */
export interface SmsMatchers<R = unknown> {
  /** The service would accept the MT request (no 540 rule broken). */
  toBeValidMtRequest(): R;
  /**
   * The service would reject the MT request (or did: an answer or error value) with 540 and this
   * description: in full, without `Invalid request - `, a rule key of `MT_INVALID`, or a pattern.
   */
  toFailWith540(description: string | RegExp): R;
  /** The value decodes as a delivery receipt with these members (those of `mtStatus` at the top). */
  toBeDeliveryReceipt(expected?: ExpectedReceipt): R;
}

/**
 * The matchers, for `expect.extend(smsMatchers)` in vitest or jest (the runner entries
 * `@smsv4/testing/vitest` and `@smsv4/testing/jest` do it for you, with the types).
 *
 * @example
 * import { expect } from 'vitest';
 * import { smsMatchers } from '@smsv4/testing';
 * expect.extend(smsMatchers);
 */
export const smsMatchers = Object.freeze({ toBeValidMtRequest, toFailWith540, toBeDeliveryReceipt });

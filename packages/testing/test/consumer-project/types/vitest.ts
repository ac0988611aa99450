// The matchers' types under vitest (checked with tsc, not run).
import { expect } from 'vitest';
import type {} from '@smsv4/testing/vitest';
import { buildDeliveryReceipt, smsMatchers } from '@smsv4/testing';

// The matchers object fits the runner's own expect.extend.
expect.extend(smsMatchers);

const receipt = buildDeliveryReceipt();
expect(receipt).toBeDeliveryReceipt({ code: 4, ticketId: expect.any(String) });
expect(receipt.body).not.toBeValidMtRequest();
expect({}).toFailWith540(/destination/);
expect([receipt]).toContainEqual(expect.toBeDeliveryReceipt({ code: 4 }));
// @ts-expect-error: toFailWith540 takes the description
expect({}).toFailWith540();

// The runner's own functions are what the receiver conformance suite takes.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ConformanceRunner } from '@smsv4/testing';
export const vitestRunner: ConformanceRunner = { describe, it, expect, beforeAll, afterAll };

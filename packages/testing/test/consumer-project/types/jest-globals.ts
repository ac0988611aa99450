// The matchers' types under jest with @jest/globals (checked with tsc, not run).
import { expect } from '@jest/globals';
import type {} from '@smsv4/testing/jest';
import { buildDeliveryReceipt, smsMatchers } from '@smsv4/testing';

// The matchers object fits the runner's own expect.extend.
expect.extend(smsMatchers);

const receipt = buildDeliveryReceipt();
expect(receipt).toBeDeliveryReceipt({ code: 4, ticketId: expect.any(String) });
expect(receipt.body).not.toBeValidMtRequest();
expect({}).toFailWith540(/destination/);
expect([receipt]).toContainEqual(expect.toBeDeliveryReceipt({ code: 4 }));
// @ts-expect-error: the expected members are an object
expect(receipt).toBeDeliveryReceipt('delivered');

// The runner's own functions are what the receiver conformance suite takes.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { ConformanceRunner } from '@smsv4/testing';
export const jestRunner: ConformanceRunner = { describe, it, expect, beforeAll, afterAll };

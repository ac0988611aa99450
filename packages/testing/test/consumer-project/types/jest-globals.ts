// The matchers' types under jest with @jest/globals (checked with tsc, not run).
import { expect } from '@jest/globals';
import type {} from '@smsv4/testing/jest';
import { buildDeliveryReceipt } from '@smsv4/testing';

const receipt = buildDeliveryReceipt();
expect(receipt).toBeDeliveryReceipt({ code: 4, ticketId: expect.any(String) });
expect(receipt.body).not.toBeValidMtRequest();
expect({}).toFailWith540(/destination/);
expect([receipt]).toContainEqual(expect.toBeDeliveryReceipt({ code: 4 }));
// @ts-expect-error: the expected members are an object
expect(receipt).toBeDeliveryReceipt('delivered');

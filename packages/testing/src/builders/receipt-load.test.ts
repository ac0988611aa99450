import { decodeDeliveryReceipt } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { createReceiptLoad } from './receipt-load.js';

describe('createReceiptLoad', () => {
  it.each(['xml', 'json'] as const)('gives %s receipts that decode, distinct but for the repeats', (format) => {
    const load = createReceiptLoad({ run: 'R1', format, deliveredAt: 0 });
    const seen = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      const decoded = decodeDeliveryReceipt(load.body(i), format);
      if (!decoded.ok) throw new Error(decoded.error.description);
      const { ticketId, segmentNumber, totalSegments } = decoded.value.mtStatus;
      expect({ ticketId, segmentNumber }).toEqual(load.receiptOf(i));
      expect(totalSegments).toBe(9);
      seen.set(`${ticketId}#${segmentNumber}`, (seen.get(`${ticketId}#${segmentNumber}`) ?? 0) + 1);
    }
    expect(seen.size).toBe(load.unique(100));
    expect([...seen.values()].filter((n) => n === 2)).toHaveLength(load.repeats(100));
    expect(load.repeats(100)).toBe(5); // requests 1, 21, 41, 61, 81
    expect(load.body(1)).toBe(load.body(0));
    expect(load.receiptOf(10)).toEqual({ ticketId: 'R1-000001', segmentNumber: 2 });
  });

  it('can repeat nothing, and refuses runs that make no ticket ID', () => {
    expect(createReceiptLoad({ run: 'X', repeatEvery: 0 }).repeats(1000)).toBe(0);
    expect(() => createReceiptLoad({ run: 'A-B' })).toThrow('run must be letters and digits');
    expect(() => createReceiptLoad({ run: 'A', repeatEvery: 1 })).toThrow('repeatEvery must be 0 or a whole number from 2');
  });
});

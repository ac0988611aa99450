import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { decodeDeliveryReceipt, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { createReceiptAggregator, foldReceipts } from './receipt-aggregator.js';

function receipt(path: string): DeliveryReceipt {
  const result = decodeDeliveryReceipt(loadFixture(path), path.endsWith('.json') ? 'json' : 'xml');
  if (!result.ok) throw new Error(result.error.description);
  return result.value;
}

const part1 = receipt('webhooks/receipt-multipart-part1-delivered.xml');
const part2 = receipt('delivery-receipt/multipart-part2-expired.xml');
const part3 = receipt('webhooks/receipt-multipart-part3-delivered.xml');
const delivered = (n: number): DeliveryReceipt => ({ ...part1, mtStatus: { ...part1.mtStatus, segmentNumber: n, code: 4 } });

describe('foldReceipts', () => {
  it('gives a single-part message its own code', () => {
    const status = foldReceipts([receipt('delivery-receipt/single-delivered.json')]);
    expect(status).toMatchObject({ ticketId: '44101-0922I-13413-21GDL', totalSegments: 1, code: 4, outcome: 'delivered', complete: true, missing: [] });
  });

  it('summarises 831 while receipts are missing and no part failed', () => {
    expect(foldReceipts([part3])).toMatchObject({ code: 831, description: 'Awaiting complete message delivery status', outcome: 'pending', complete: false, missing: [1, 2] });
  });

  it('summarises 830 once a part failed, in any order', () => {
    expect(foldReceipts([part3, part2])).toMatchObject({ code: 830, outcome: 'failed', complete: false, missing: [1] });
    expect(foldReceipts([part2, part1, part3])).toMatchObject({ code: 830, complete: true, missing: [] });
  });

  it('gives the common code when every part agrees', () => {
    const status = foldReceipts([delivered(2), part1, part3]);
    expect(status).toMatchObject({ code: 4, description: 'Message delivered', outcome: 'delivered', complete: true });
    expect(status.parts.map((p) => p.deliveryDate)).toEqual([part1.mtStatus.deliveryDate, part1.mtStatus.deliveryDate, part3.mtStatus.deliveryDate]);
  });

  it('keeps the last receipt of a part reported twice', () => {
    expect(foldReceipts([part1, part2, part3, delivered(2)]).code).toBe(4);
  });

  it('compares delivery dates as instants, whatever offset each was written in', () => {
    // 10:00+05:00 is 05:00 UTC, earlier than 06:00Z although its text sorts later.
    const at = (n: number, deliveryDate: string, code = 4): DeliveryReceipt => ({ ...part1, mtStatus: { ...part1.mtStatus, segmentNumber: n, code, deliveryDate } });
    const early = at(1, '2024-03-14T10:00:00+05:00');
    const late = at(2, '2024-03-14T06:00:00Z', 811);
    for (const order of [
      [early, late],
      [late, early],
    ]) {
      const status = foldReceipts(order);
      expect(status.lastReceipt).toBe(late);
      expect(status.lastDeliveryInstant).toBe('2024-03-14T06:00:00.000Z');
      expect(status.parts.map((p) => [p.deliveryDate, p.deliveryInstant])).toStrictEqual([
        ['2024-03-14T10:00:00+05:00', '2024-03-14T05:00:00.000Z'],
        ['2024-03-14T06:00:00Z', '2024-03-14T06:00:00.000Z'],
        [undefined, undefined],
      ]);
    }
    // A part reported twice keeps the receipt with the later instant, not the later text or arrival.
    const retried = at(2, '2024-03-14T11:30:00+05:30', 4); // 06:00 UTC, same instant as `late`: the later given wins
    expect(foldReceipts([late, retried]).parts[1]?.code).toBe(4);
    const stale = at(2, '2024-03-14T09:00:00+05:00', 4); // 04:00 UTC: older than `late`
    expect(foldReceipts([late, stale]).parts[1]?.code).toBe(811);
    expect(foldReceipts([stale, late]).parts[1]?.code).toBe(811);
    const aggregator = createReceiptAggregator();
    aggregator.add(late);
    expect(aggregator.add(stale).parts[1]?.code).toBe(811);
  });

  it('refuses an empty list and receipts of different tickets', () => {
    expect(() => foldReceipts([])).toThrow(TypeError);
    expect(() => foldReceipts([part1, receipt('delivery-receipt/single-delivered.json')])).toThrow(/different tickets/);
  });
});

describe('createReceiptAggregator', () => {
  it('folds receipts as they come', () => {
    const aggregator = createReceiptAggregator();
    expect(aggregator.add(part1)).toMatchObject({ code: 831, complete: false });
    expect(aggregator.add(part3)).toMatchObject({ code: 831, missing: [2] });
    const last = aggregator.add(part2);
    expect(last).toMatchObject({ code: 830, complete: true });
    expect(last.lastReceipt).toBe(part2);
    expect(aggregator.get(part1.mtStatus.ticketId)?.code).toBe(830);
    expect(aggregator.delete(part1.mtStatus.ticketId)).toBe(true);
    expect(aggregator.size).toBe(0);
  });

  it('forgets a message after its TTL and keeps at most maxMessages', () => {
    let now = 0;
    const aggregator = createReceiptAggregator({ ttlMs: 100, maxMessages: 2, now: () => now });
    aggregator.add(part1);
    now = 100;
    expect(aggregator.get(part1.mtStatus.ticketId)).toBeUndefined();
    expect(aggregator.add(part3).missing).toEqual([1, 2]);
    for (const id of ['A-1', 'B-2']) aggregator.add({ ...part1, mtStatus: { ...part1.mtStatus, ticketId: id } });
    expect(aggregator.size).toBe(2);
    expect(aggregator.get(part1.mtStatus.ticketId)).toBeUndefined();
  });
});

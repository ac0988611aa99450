/**
 * A cheap stream of distinct receipts for load tests of a receiver: core's encoder builds one
 * receipt, and request `i` gets its own ticket ID and part by substitution (ticket IDs and numbers
 * need no escaping in either format); every `repeatEvery`-th request repeats the one before, as
 * the service's retries do.
 */
import { TICKET_ID_PATTERN } from '@smsv4/core';
import { buildDeliveryReceipt, type DeliveryReceiptOptions } from './delivery-receipt.js';

/** Options of {@link createReceiptLoad}. */
export interface ReceiptLoadOptions extends Omit<DeliveryReceiptOptions, 'ticketId' | 'segmentNumber' | 'totalSegments' | 'timestamps'> {
  /** Letters and digits that start every ticket ID of the run (`LOAD1` gives `LOAD1-000000`, ...): one per run keeps runs apart. */
  readonly run: string;
  /** Parts of each message (default 9): requests 0 to 8 are parts 1 to 9 of the first ticket, and so on. */
  readonly partsPerMessage?: number;
  /** Request `i` repeats request `i - 1` when `i % repeatEvery === 1` (default 20; 0 never repeats). */
  readonly repeatEvery?: number;
}

/** A receipt load: the body of request `i` and the counts a receiver must end with. */
export interface ReceiptLoad {
  readonly format: 'json' | 'xml';
  /** The body of request `i` (0, 1, 2, ...). */
  body(i: number): string;
  /** The ticket ID and part of request `i`. */
  receiptOf(i: number): { readonly ticketId: string; readonly segmentNumber: number };
  /** How many of the first `requests` requests repeat the one before. */
  repeats(requests: number): number;
  /** How many distinct receipts the first `requests` requests carry. */
  unique(requests: number): number;
}

const TEMPLATE_TICKET = 'TMPLT-999999';
const TEMPLATE_PARTS = 99_999;

/**
 * Creates a receipt load.
 *
 * @example
 * const load = createReceiptLoad({ run: 'R1' });
 * await pool.request({ method: 'POST', path: '/callbacks', headers: callbackHeaders('xml'), body: load.body(i) });
 */
export function createReceiptLoad(options: ReceiptLoadOptions): ReceiptLoad {
  const { run, partsPerMessage = 9, repeatEvery = 20, ...receipt } = options;
  if (typeof run !== 'string' || !/^[A-Za-z0-9]+$/.test(run)) throw new TypeError('run must be letters and digits');
  if (!Number.isInteger(partsPerMessage) || partsPerMessage < 1 || partsPerMessage >= TEMPLATE_PARTS) throw new TypeError('partsPerMessage must be a whole number from 1');
  if (!Number.isInteger(repeatEvery) || repeatEvery < 0 || repeatEvery === 1) throw new TypeError('repeatEvery must be 0 or a whole number from 2');
  const template = buildDeliveryReceipt({ ...receipt, ticketId: TEMPLATE_TICKET, segmentNumber: TEMPLATE_PARTS, totalSegments: TEMPLATE_PARTS });
  const xml = template.format === 'xml';
  const segment = xml ? `segmentNumber="${TEMPLATE_PARTS}"` : `"segmentNumber":${TEMPLATE_PARTS}`;
  const total = xml ? `totalSegments="${TEMPLATE_PARTS}"` : `"totalSegments":${TEMPLATE_PARTS}`;
  const pieces = template.body.replace(total, xml ? `totalSegments="${partsPerMessage}"` : `"totalSegments":${partsPerMessage}`).split(TEMPLATE_TICKET);
  if (pieces.length !== 2) throw new Error('the receipt template holds its ticket ID more than once');
  const [head = '', tail = ''] = pieces;
  const [before = '', after = ''] = tail.split(segment);
  const source = (i: number): number => (repeatEvery > 0 && i % repeatEvery === 1 ? i - 1 : i);
  const receiptOf = (i: number): { ticketId: string; segmentNumber: number } => {
    if (!Number.isSafeInteger(i) || i < 0) throw new TypeError(`a request index is a whole number from 0, got ${i}`);
    const n = source(i);
    const ticketId = `${run}-${String(Math.floor(n / partsPerMessage)).padStart(6, '0')}`;
    return { ticketId, segmentNumber: (n % partsPerMessage) + 1 };
  };
  if (!new RegExp(TICKET_ID_PATTERN).test(receiptOf(0).ticketId)) throw new TypeError('run makes ticket IDs the service would not send');
  const repeats = (requests: number): number => (repeatEvery > 0 ? Math.floor((requests + repeatEvery - 2) / repeatEvery) : 0);
  return {
    format: template.format,
    body(i) {
      const { ticketId, segmentNumber } = receiptOf(i);
      return `${head}${ticketId}${before}${xml ? `segmentNumber="${segmentNumber}"` : `"segmentNumber":${segmentNumber}`}${after}`;
    },
    receiptOf,
    repeats,
    unique: (requests) => requests - repeats(requests),
  };
}

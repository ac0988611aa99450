/**
 * The UTC instants of the delivery dates of a decoded status response or delivery receipt. The
 * decoded value keeps each `deliveryDate` exactly as the service wrote it (`xs:dateTime`, any
 * offset); these give the instants beside it, as `decodeCallback` gives `deliveryInstant`, so that
 * what is stored, ordered or shown is an instant, never a text.
 */
import type { DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { timestampInstant } from '../time/xs-date-time.js';
import type { MtStatus } from './mt-status.js';

/** The instant of one part's delivery date in a status response. */
export interface SegmentInstant {
  readonly segmentNumber: number;
  /** The UTC instant of the part's `deliveryDate`, with milliseconds, when it has one. */
  readonly deliveryInstant?: string;
}

/** The instants of a status response's delivery dates (see {@link statusInstants}). */
export interface StatusInstants {
  /** The UTC instant of `deliveryDate`, with milliseconds, when the status has one. */
  readonly deliveryInstant?: string;
  /** One entry per part of `segments`, in its order, when the status has segments. */
  readonly segmentInstants?: readonly SegmentInstant[];
}

/** The instant of a delivery receipt's delivery date (see {@link receiptInstants}). */
export interface ReceiptInstants {
  /** The UTC instant of `mtStatus.deliveryDate`, with milliseconds, when the receipt has one. */
  readonly deliveryInstant?: string;
}

const instantOf = (text: string | undefined): { deliveryInstant?: string } => (text === undefined ? {} : { deliveryInstant: timestampInstant(text) });

/**
 * The UTC instants of a decoded status response's delivery dates: the status's own and each
 * part's. Throws `TypeError` for a `deliveryDate` the timestamp reader refuses, which a value
 * `decodeMtStatus` gave never holds.
 *
 * @example
 * const status = decodeMtStatus(body, 'xml');
 * if (status.ok) console.log(statusInstants(status.value).deliveryInstant);
 * // deliveryDate="2024-03-14T04:26:54-05:00" → '2024-03-14T09:26:54.000Z'
 */
export function statusInstants(status: MtStatus): StatusInstants {
  const segments = status.segments;
  return {
    ...instantOf(status.deliveryDate),
    ...(segments === undefined ? {} : { segmentInstants: segments.map((s) => ({ segmentNumber: s.segmentNumber, ...instantOf(s.deliveryDate) })) }),
  };
}

/**
 * The UTC instant of a decoded delivery receipt's `mtStatus.deliveryDate` (what `decodeCallback`
 * gives as `deliveryInstant`). Throws `TypeError` for a date the timestamp reader refuses, which
 * a value `decodeDeliveryReceipt` gave never holds.
 *
 * @example
 * const receipt = decodeDeliveryReceipt(body, 'json');
 * if (receipt.ok) console.log(receiptInstants(receipt.value).deliveryInstant);
 */
export function receiptInstants(receipt: DeliveryReceipt): ReceiptInstants {
  return instantOf(receipt.mtStatus.deliveryDate);
}

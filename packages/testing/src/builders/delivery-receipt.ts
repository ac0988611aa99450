/** Delivery receipts: one per part, as the service posts them, and the summary of a multipart message. */
import {
  deliveryState,
  encodeDeliveryReceipt,
  summarizeMultipart,
  type DeliveryReceipt,
  type MultipartSummary,
  type StatusDestination,
  type StatusSource,
} from '@smsv4/core';
import { encodeOptions, finishPayload, formatOf, type Payload, type WireOptions } from './payload.js';
import { randomTicketId } from './ticket-id.js';
import { utcText, type InstantInput } from './timestamps.js';

/** The destination the builders use unless told otherwise (a US number on operator 383). */
export const DEFAULT_RECEIPT_DESTINATION: StatusDestination = Object.freeze({ address: '14155550100', mobileOperatorId: 383, alpha2Code: 'US' });
/** The source the builders use unless told otherwise (a short code). */
export const DEFAULT_RECEIPT_SOURCE: StatusSource = Object.freeze({ address: '24273', ton: 3 });

/** Options of {@link buildDeliveryReceipt}: the members of the receipt and its wire form. */
export interface DeliveryReceiptOptions extends WireOptions {
  /** Default: a fresh random ticket ID. */
  readonly ticketId?: string;
  /** The final code (default 4, message delivered). */
  readonly code?: number;
  /** Default: the catalogue's description of `code` (none for a code it does not know). */
  readonly description?: string;
  /** When the final state was reached (`deliveryDate`; default now); `null` leaves it out. */
  readonly deliveredAt?: InstantInput | null;
  /** The part this receipt is for (multipart messages only), with `totalSegments`. */
  readonly segmentNumber?: number;
  readonly totalSegments?: number;
  readonly mobileOperatorId?: number;
  readonly note1?: string;
  readonly note2?: string;
  /** Default {@link DEFAULT_RECEIPT_DESTINATION}; `null` leaves it out. */
  readonly destination?: StatusDestination | null;
  /** Default {@link DEFAULT_RECEIPT_SOURCE}; `null` leaves it out. */
  readonly source?: StatusSource | null;
  /**
   * Where `destination` and `source` go: `beside` `mtStatus` (default, as the spec shows) or
   * `nested` inside it (as one published schema has it).
   */
  readonly layout?: 'beside' | 'nested';
}

/** The receipt value of the options. */
function receiptValue(options: DeliveryReceiptOptions): DeliveryReceipt {
  const {
    ticketId = randomTicketId(),
    code = 4,
    description = deliveryState(code)?.description,
    deliveredAt = Date.now(),
    segmentNumber,
    totalSegments,
    mobileOperatorId,
    note1,
    note2,
    destination = DEFAULT_RECEIPT_DESTINATION,
    source = DEFAULT_RECEIPT_SOURCE,
  } = options;
  const mtStatus: DeliveryReceipt['mtStatus'] = {
    ticketId,
    ...(deliveredAt === null ? {} : { deliveryDate: utcText(deliveredAt, 'deliveredAt') }),
    ...(segmentNumber === undefined ? {} : { segmentNumber }),
    ...(totalSegments === undefined ? {} : { totalSegments }),
    code,
    ...(description === undefined ? {} : { description }),
    ...(mobileOperatorId === undefined ? {} : { mobileOperatorId }),
    ...(note1 === undefined ? {} : { note1 }),
    ...(note2 === undefined ? {} : { note2 }),
  };
  return {
    type: 'final',
    mtStatus,
    ...(destination === null ? {} : { destination: { ...destination } }),
    ...(source === null ? {} : { source: { ...source } }),
  };
}

/** Moves `destination` and `source` inside `mtStatus`, in either format. */
function nest(body: string, format: 'json' | 'xml'): string {
  if (format === 'json') {
    const { deliveryReceipt } = JSON.parse(body) as { deliveryReceipt: Record<string, unknown> & { mtStatus: Record<string, unknown> } };
    const { destination, source, ...rest } = deliveryReceipt;
    const mtStatus = { ...rest.mtStatus, ...(destination === undefined ? {} : { destination }), ...(source === undefined ? {} : { source }) };
    return JSON.stringify({ deliveryReceipt: { ...rest, mtStatus } });
  }
  const children = [...body.matchAll(/<(destination|source)\b[^>]*\/>/g)].map((m) => m[0]);
  if (children.length === 0) return body;
  const stripped = children.reduce((text, child) => text.replace(child, ''), body);
  return stripped.replace(/<mtStatus\b([^>]*?)\/>/, (_all, attributes: string) => `<mtStatus${attributes}>${children.join('')}</mtStatus>`);
}

/**
 * A delivery receipt as the service posts it, in XML (default) or JSON, built with core's encoder.
 * `TypeError` for members that break the receipt's schema (a malformed ticket ID, a negative code).
 *
 * @example
 * const receipt = buildDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL', code: 811, format: 'json' });
 * await postCallback(`${url}/callbacks`, receipt);
 */
export function buildDeliveryReceipt(options: DeliveryReceiptOptions = {}): Payload<DeliveryReceipt> {
  const format = formatOf(options);
  const value = receiptValue(options);
  let encoded = encodeDeliveryReceipt(value, format, encodeOptions('deliveryReceipt', options));
  const { layout = 'beside' } = options;
  if (layout === 'nested') encoded = nest(encoded, format);
  else if (layout !== 'beside') throw new TypeError(`layout must be 'beside' or 'nested', got ${JSON.stringify(layout)}`);
  return finishPayload('deliveryReceipt', value, encoded, { ...options, format });
}

/** One part of a multipart message: its final code, or the options of its receipt. */
export type ReceiptPart = number | (Omit<DeliveryReceiptOptions, 'ticketId' | 'segmentNumber' | 'totalSegments' | keyof WireOptions> & { readonly code: number });

/** Options of {@link buildMultipartReceipts}. */
export interface MultipartReceiptsOptions extends Omit<DeliveryReceiptOptions, 'code' | 'description' | 'segmentNumber' | 'totalSegments'> {
  /** The final code of each part, in order (`[4, 811, 4]`), or per-part receipt options. */
  readonly parts: readonly ReceiptPart[];
}

/** The receipts of a multipart message and the status they fold into. */
export interface MultipartReceipts {
  readonly ticketId: string;
  /** One receipt per part, `segmentNumber` 1 to n of `totalSegments` n. */
  readonly receipts: readonly Payload<DeliveryReceipt>[];
  /** The message's code and description by the spec's rules (830 / 831 / the common code). */
  readonly summary: MultipartSummary;
}

/**
 * The receipts of a message of several parts, one per part with the same ticket ID, and the
 * summary its status reports once they are all in.
 *
 * @example
 * const { receipts, summary } = buildMultipartReceipts({ parts: [4, 811, 4] });
 * summary; // { code: 830, description: 'Partial message delivery failure' }
 */
export function buildMultipartReceipts(options: MultipartReceiptsOptions): MultipartReceipts {
  const { parts, ticketId = randomTicketId(), ...common } = options;
  if (!Array.isArray(parts) || parts.length < 2) throw new TypeError('a multipart message has at least two parts');
  const totalSegments = parts.length;
  const receipts = parts.map((part, i) =>
    buildDeliveryReceipt({ ...common, ...(typeof part === 'number' ? { code: part } : part), ticketId, segmentNumber: i + 1, totalSegments }),
  );
  const summary = summarizeMultipart(receipts.map((r) => ({ code: r.value.mtStatus.code, ...(r.value.mtStatus.description === undefined ? {} : { description: r.value.mtStatus.description }) })));
  return { ticketId, receipts, summary };
}

/**
 * Folds the per-part delivery receipts of a message into its message-level status, with the
 * summary code of `summarizeMultipart` (830 when a part failed, 831 while receipts are missing,
 * the common code when all parts agree).
 */
import type { DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { deliveryState } from '../errors/catalogue.js';
import { summarizeMultipart } from '../multipart/summarize-multipart.js';
import { DUPLICATE_MARGIN_MS, RECEIPT_RETRY_WINDOW_MS } from '../protocol/service-facts.js';
import { parseTimestamp } from '../time/xs-date-time.js';
import { checkPositiveIntegers } from '../option-checks.js';

/** The state of one part as its receipt reported it; no `code` while no receipt has come for it. */
export interface MessagePartStatus {
  readonly segmentNumber: number;
  readonly code?: number;
  readonly description?: string;
  /** The part's `deliveryDate` as received (any offset). */
  readonly deliveryDate?: string;
  /** The UTC instant of `deliveryDate`, with milliseconds (`2015-08-29T20:10:03.029Z`): what to compare and store. */
  readonly deliveryInstant?: string;
}

/** The message-level status folded from the receipts of its parts. */
export interface MessageDeliveryStatus {
  readonly ticketId: string;
  /** Parts of the message (1 for a single-part message). */
  readonly totalSegments: number;
  /** The summary code: the part's own code for a single-part message. */
  readonly code: number;
  readonly description: string;
  /** `delivered`, `failed` or `pending`, from the summary code (a code the catalogue does not know counts as failed). */
  readonly outcome: 'delivered' | 'failed' | 'pending';
  /** `true` once every part has a receipt. */
  readonly complete: boolean;
  /** One entry per part, in order. */
  readonly parts: readonly MessagePartStatus[];
  /** Numbers of the parts without a receipt yet. */
  readonly missing: readonly number[];
  /**
   * The newest receipt of the message (its notes, destination and source): the one with the latest
   * `deliveryDate` instant; where a receipt has no `deliveryDate`, the later one given.
   */
  readonly lastReceipt: DeliveryReceipt;
  /** The latest `deliveryDate` instant of the parts (UTC, milliseconds), when any part has one. */
  readonly lastDeliveryInstant?: string;
}

/** The instant of a receipt's `deliveryDate` in milliseconds; `undefined` without one (or, for a hand-built receipt, an invalid one). */
function deliveryMs(receipt: DeliveryReceipt): number | undefined {
  const date = receipt.mtStatus.deliveryDate;
  if (date === undefined) return undefined;
  const read = parseTimestamp(date);
  return read.ok ? read.value.epochMs : undefined;
}

/** `true` when `later`, given after `earlier`, is the newer of two receipts: by `deliveryDate` instant when both have one, else by order. */
function isNewer(later: DeliveryReceipt, earlier: DeliveryReceipt): boolean {
  const a = deliveryMs(later);
  const b = deliveryMs(earlier);
  return a === undefined || b === undefined || a >= b;
}

/**
 * The message-level status of the receipts of one message, in any order. Timestamps are compared
 * as instants, whatever offset they were written in: a part reported twice keeps the receipt with
 * the later `deliveryDate` (the later one given when they tie or one has none), and `lastReceipt`
 * is the newest. The number of parts is the largest `totalSegments` (or segment number) seen.
 * Throws `TypeError` for an empty list or receipts of different tickets.
 *
 * @example
 * foldReceipts([part1Delivered, part2Expired]).code; // 830 (partial message delivery failure)
 */
export function foldReceipts(receipts: readonly DeliveryReceipt[]): MessageDeliveryStatus {
  if (!Array.isArray(receipts) || receipts.length === 0) throw new TypeError('foldReceipts needs at least one receipt');
  const first = receipts[0] as DeliveryReceipt;
  const ticketId = first.mtStatus.ticketId;
  let total = 1;
  const bySegment = new Map<number, DeliveryReceipt>();
  let newest = first;
  for (const receipt of receipts) {
    const status = receipt?.mtStatus;
    if (status === undefined || status === null) throw new TypeError('each receipt must be a decoded deliveryReceipt');
    if (status.ticketId !== ticketId) throw new TypeError(`receipts of different tickets: ${ticketId} and ${status.ticketId}`);
    const segment = status.segmentNumber ?? 1;
    total = Math.max(total, status.totalSegments ?? 1, segment);
    const held = bySegment.get(segment);
    if (held === undefined || isNewer(receipt, held)) bySegment.set(segment, receipt);
    if (isNewer(receipt, newest)) newest = receipt;
  }
  let lastDelivery: { ms: number; instant: string } | undefined;
  const parts: MessagePartStatus[] = [];
  const missing: number[] = [];
  for (let n = 1; n <= total; n++) {
    const status = bySegment.get(n)?.mtStatus;
    if (status === undefined) {
      missing.push(n);
      parts.push({ segmentNumber: n });
      continue;
    }
    const date = status.deliveryDate === undefined ? undefined : parseTimestamp(status.deliveryDate);
    const instant = date?.ok === true ? date.value : undefined;
    if (instant !== undefined && (lastDelivery === undefined || instant.epochMs > lastDelivery.ms)) lastDelivery = { ms: instant.epochMs, instant: instant.instant };
    parts.push({
      segmentNumber: n,
      code: status.code,
      ...(status.description === undefined ? {} : { description: status.description }),
      ...(status.deliveryDate === undefined ? {} : { deliveryDate: status.deliveryDate }),
      ...(instant === undefined ? {} : { deliveryInstant: instant.instant }),
    });
  }
  const summary = summarizeMultipart(parts);
  return {
    ticketId,
    totalSegments: total,
    code: summary.code,
    description: summary.description,
    outcome: deliveryState(summary.code)?.outcome ?? 'failed',
    complete: missing.length === 0,
    parts,
    missing,
    lastReceipt: newest,
    ...(lastDelivery === undefined ? {} : { lastDeliveryInstant: lastDelivery.instant }),
  };
}

/** Options of {@link createReceiptAggregator}. */
export interface ReceiptAggregatorOptions {
  /** Most messages tracked; beyond it the least recently updated is forgotten (default 10 000). */
  readonly maxMessages?: number;
  /** How long a message is kept after its last receipt, in ms (default 25 hours: the 24-hour retry window and a margin). */
  readonly ttlMs?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/** Tracks the receipts of messages in memory and folds them as they come. */
export interface ReceiptAggregator {
  /** Adds a receipt (a repeated part replaces the earlier one unless that one's `deliveryDate` is later) and returns the message's status so far. */
  add(receipt: DeliveryReceipt): MessageDeliveryStatus;
  /** The status of a tracked message. */
  get(ticketId: string): MessageDeliveryStatus | undefined;
  /** Stops tracking a message (e.g. once it is complete and stored). */
  delete(ticketId: string): boolean;
  /** Messages tracked. */
  readonly size: number;
}

interface Tracked {
  readonly receipts: Map<number, DeliveryReceipt>;
  expiresAt: number;
}

/**
 * Creates an in-memory {@link ReceiptAggregator}, bounded in size and time. Use it inside
 * `onDeliveryReceipt` to learn the message-level status of multipart messages; with several
 * instances, store the receipts in your database and call {@link foldReceipts} on them instead.
 *
 * @example
 * const aggregator = createReceiptAggregator();
 * // in onDeliveryReceipt:
 * const status = aggregator.add(receipt);
 * if (status.complete) await saveStatus(status.ticketId, status.code);
 */
export function createReceiptAggregator({ maxMessages = 10_000, ttlMs = RECEIPT_RETRY_WINDOW_MS + DUPLICATE_MARGIN_MS, now = Date.now }: ReceiptAggregatorOptions = {}): ReceiptAggregator {
  checkPositiveIntegers({ maxMessages });
  if (!(ttlMs > 0)) throw new TypeError(`ttlMs must be a positive number, got ${String(ttlMs)}`);
  const messages = new Map<string, Tracked>();

  const live = (ticketId: string, at: number): Tracked | undefined => {
    const tracked = messages.get(ticketId);
    if (tracked === undefined) return undefined;
    if (tracked.expiresAt > at) return tracked;
    messages.delete(ticketId);
    return undefined;
  };

  return {
    add(receipt) {
      const ticketId = receipt?.mtStatus?.ticketId;
      if (typeof ticketId !== 'string') throw new TypeError('add needs a decoded deliveryReceipt');
      const at = now();
      const tracked = live(ticketId, at) ?? { receipts: new Map<number, DeliveryReceipt>(), expiresAt: 0 };
      // Re-insert so that the Map's first entry is always the least recently updated.
      messages.delete(ticketId);
      // Receipts stay in arrival order; a part reported again keeps the receipt with the later deliveryDate.
      const segment = receipt.mtStatus.segmentNumber ?? 1;
      const held = tracked.receipts.get(segment);
      if (held === undefined || isNewer(receipt, held)) {
        tracked.receipts.delete(segment);
        tracked.receipts.set(segment, receipt);
      }
      tracked.expiresAt = at + ttlMs;
      messages.set(ticketId, tracked);
      while (messages.size > maxMessages) {
        const oldest = messages.keys().next();
        if (oldest.done === true) break;
        messages.delete(oldest.value);
      }
      return foldReceipts([...tracked.receipts.values()]);
    },
    get(ticketId) {
      const tracked = live(ticketId, now());
      return tracked === undefined ? undefined : foldReceipts([...tracked.receipts.values()]);
    },
    delete(ticketId) {
      return messages.delete(ticketId);
    },
    get size() {
      return messages.size;
    },
  };
}

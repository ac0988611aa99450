/**
 * The sandbox's in-memory store: messages, callback attempts, inbound messages, Invoke Service
 * calls and the counters account limits read. Every collection is bounded by count and by age:
 * beyond its cap, or once older than the retention period (sandbox clock), the oldest entries are
 * evicted (a message's pending timers are cancelled with it). Entries are kept in the order they
 * were added, so eviction only ever looks at the oldest: constant time per entry.
 */
import type { MtRequest, WireFormat } from '@smsv4/core';
import type { TimerHandle } from '../engine/clock.js';
import type { NumberRoute } from './operators.js';
import type { CallbackAttemptView, InboundView, InvocationView, MessageView, TimelineEntry } from './views.js';

/** One part of a stored message. */
export interface PartRecord {
  segmentNumber: number;
  totalSegments: number;
  code: number;
  description?: string;
  /** When the part was delivered (codes 0 and 4). */
  deliveredAt?: number;
  /** Whether the part reached a final state. */
  final: boolean;
  text?: string;
}

/** A stored message. */
export interface MessageRecord {
  ticketId: string;
  accountId: string;
  submittedAt: number;
  format: WireFormat;
  request: MtRequest;
  encoding: MessageView['encoding'];
  route: NumberRoute;
  /** Where receipts go; absent when the send asked for none or no URL is known. */
  receiptUrl?: string;
  parts: PartRecord[];
  timeline: { at: number; event: string; detail?: string }[];
  timers: Set<TimerHandle>;
}

/** A stored inbound message part. */
export interface InboundRecord extends Omit<InboundView, 'submittedAt'> {
  submittedAt: number;
}

/** The store of one sandbox. */
export interface SandboxStore {
  readonly messages: Map<string, MessageRecord>;
  readonly callbacks: CallbackAttemptView[];
  readonly inbound: Map<string, InboundRecord>;
  readonly invocations: InvocationView[];
  /** Accepted sends per account and calendar month (`accountId|YYYY-MM`). */
  readonly monthlySends: Map<string, number>;
  /** Accepted sends of demo accounts. */
  readonly demoSends: Map<string, number>;
  addMessage(record: MessageRecord): void;
  addCallbackAttempt(view: CallbackAttemptView): void;
  addInbound(record: InboundRecord): void;
  addInvocation(view: InvocationView): void;
  /** Whether an ID is in use by a message or an inbound message. */
  hasTicket(ticketId: string): boolean;
  /** Empties everything, cancelling message timers. */
  clear(): void;
}

/** Options of {@link createStore}. */
export interface StoreOptions {
  /** Cap of each collection (default 10 000). */
  readonly maxRecords?: number;
  /** Longest time an entry is kept, in the clock's milliseconds (default: no limit). */
  readonly maxAgeMs?: number;
  /** The clock's time (needed with `maxAgeMs`). */
  readonly now?: () => number;
  /** Cancels a timer (the clock's). */
  readonly clearTimer: (handle: TimerHandle) => void;
}

/** Trims an array to its cap in batches, so pushing stays amortised O(1). */
function trim<T>(list: T[], cap: number): void {
  if (list.length > cap + Math.max(1, Math.floor(cap / 10))) list.splice(0, list.length - cap);
}

/** Creates an empty, bounded store. */
export function createStore({ maxRecords = 10_000, maxAgeMs = Number.POSITIVE_INFINITY, now = Date.now, clearTimer }: StoreOptions): SandboxStore {
  if (!Number.isSafeInteger(maxRecords) || maxRecords < 1) throw new TypeError('maxMessages must be a positive integer');
  if (!(maxAgeMs > 0)) throw new TypeError('maxAgeMs must be a positive number of milliseconds');
  const messages = new Map<string, MessageRecord>();
  const callbacks: CallbackAttemptView[] = [];
  const inbound = new Map<string, InboundRecord>();
  const invocations: InvocationView[] = [];
  const monthlySends = new Map<string, number>();
  const demoSends = new Map<string, number>();
  const cancel = (record: MessageRecord): void => {
    for (const timer of record.timers) clearTimer(timer);
    record.timers.clear();
  };
  /** Evicts what the retention period has passed, oldest first; at most every twentieth of the period. */
  let nextSweep = Number.NEGATIVE_INFINITY;
  const sweep = (): void => {
    if (maxAgeMs === Number.POSITIVE_INFINITY) return;
    const at = now();
    if (at < nextSweep) return;
    nextSweep = at + Math.max(1, maxAgeMs / 20);
    const oldest = at - maxAgeMs;
    for (const record of messages.values()) {
      if (record.submittedAt >= oldest) break;
      cancel(record);
      messages.delete(record.ticketId);
    }
    for (const record of inbound.values()) {
      if (record.submittedAt >= oldest) break;
      inbound.delete(record.ticketId);
    }
    for (const list of [callbacks, invocations] as { at: string }[][]) {
      let stale = 0;
      while (stale < list.length && Date.parse((list[stale] as { at: string }).at) < oldest) stale++;
      if (stale > 0) list.splice(0, stale);
    }
  };
  return {
    messages,
    callbacks,
    inbound,
    invocations,
    monthlySends,
    demoSends,
    addMessage(record) {
      sweep();
      messages.set(record.ticketId, record);
      while (messages.size > maxRecords) {
        const oldest = messages.keys().next().value as string;
        cancel(messages.get(oldest) as MessageRecord);
        messages.delete(oldest);
      }
    },
    addCallbackAttempt(view) {
      sweep();
      callbacks.push(view);
      trim(callbacks, maxRecords);
    },
    addInbound(record) {
      sweep();
      inbound.set(record.ticketId, record);
      while (inbound.size > maxRecords) inbound.delete(inbound.keys().next().value as string);
    },
    addInvocation(view) {
      sweep();
      invocations.push(view);
      trim(invocations, maxRecords);
    },
    hasTicket: (id) => messages.has(id) || inbound.has(id),
    clear() {
      for (const record of messages.values()) cancel(record);
      messages.clear();
      callbacks.length = 0;
      inbound.clear();
      invocations.length = 0;
      monthlySends.clear();
      demoSends.clear();
    },
  };
}

/** Adds an entry to a message's timeline. */
export function addTimeline(record: MessageRecord, at: number, event: string, detail?: string): void {
  record.timeline.push(detail === undefined ? { at, event } : { at, event, detail });
  // A message that keeps failing its receipts does not grow without bound.
  if (record.timeline.length > 200) record.timeline.splice(1, record.timeline.length - 200);
}

/** A timeline entry for the admin API. */
export function timelineView(entry: { at: number; event: string; detail?: string }): TimelineEntry {
  return entry.detail === undefined ? { at: new Date(entry.at).toISOString(), event: entry.event } : { at: new Date(entry.at).toISOString(), event: entry.event, detail: entry.detail };
}

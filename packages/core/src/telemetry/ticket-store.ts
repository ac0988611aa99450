/**
 * Where the telemetry remembers each accepted send (its span and when it was sent) by ticket ID,
 * so that the receipt's span links to the send's and the send-to-receipt latency is recorded.
 * The default keeps them in memory (the client and the receiver in one process); a store shared
 * through Redis (`createRedisTicketStore`) covers receivers on several instances and queue
 * workers in other processes.
 */
import type { SpanContextLike } from './otel-types.js';
import { checkNonNegativeIntegers } from '../option-checks.js';

/** What is remembered of one accepted send. */
export interface SentTicket {
  /** The send's span (absent when no tracer recorded one). */
  readonly context?: SpanContextLike;
  /** When the service accepted the send, epoch milliseconds. */
  readonly sentAt: number;
}

/**
 * A store of sent tickets. Either method may answer at once or with a promise; a failure or a
 * ticket not found only leaves the receipt without its link and latency.
 */
export interface TicketStore {
  /** Remembers an accepted send for `ttlMs`. */
  remember(ticketId: string, sent: SentTicket, ttlMs: number): void | PromiseLike<void>;
  /** The send of a ticket, or `undefined` when it is unknown or forgotten. */
  find(ticketId: string): SentTicket | undefined | PromiseLike<SentTicket | undefined>;
}

/** Options of {@link createMemoryTicketStore}. */
export interface MemoryTicketStoreOptions {
  /** Most tickets remembered (default 100 000; the oldest are forgotten first). */
  readonly maxTickets?: number;
  /** The clock, epoch ms (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * The default {@link TicketStore}: a bounded map in this process. Receipts taken by another
 * process (another receiver instance, or a receiver apart from the sending queue worker) find
 * nothing in it: share a Redis store instead.
 */
export function createMemoryTicketStore({ maxTickets = 100_000, now = Date.now }: MemoryTicketStoreOptions = {}): TicketStore {
  checkNonNegativeIntegers({ maxTickets });
  const entries = new Map<string, { readonly sent: SentTicket; readonly expiresAt: number }>();
  return {
    remember(ticketId, sent, ttlMs) {
      entries.delete(ticketId);
      entries.set(ticketId, { sent, expiresAt: now() + ttlMs });
      if (entries.size > maxTickets) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
    },
    find(ticketId) {
      const entry = entries.get(ticketId);
      if (entry === undefined) return undefined;
      if (now() > entry.expiresAt) {
        entries.delete(ticketId);
        return undefined;
      }
      return entry.sent;
    },
  };
}

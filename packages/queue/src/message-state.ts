/**
 * The life of a queued message: its states, why it ended where it did, and what `getMessage`
 * returns. Every state is stored in Redis, so every process sees the same one.
 */
import type { MessageDeliveryStatus, MtRequest } from '@smsv4/core';

/**
 * Where a message is:
 * - `queued`: waiting for a worker (or for its `delayMs`);
 * - `sending`: a worker marked it in flight and its request may be on the wire;
 * - `retrying`: the service certainly did not take it (1010, or the connection could not be
 *   opened); it waits in BullMQ's delayed set for its next attempt (`retryAt`);
 * - `accepted`: the service answered 202 (`ticketId`); receipts, if any, are to come;
 * - `delivered` / `failed`: the final receipts came (for a multipart message, every part's),
 *   folded by core's `foldReceipts`: `code` is the summary code (830 when a part failed);
 * - `rejected`: never sent and never will be: the service refused it (its `code` and
 *   `description`), or the retries ran out (`reason: 'retries-exhausted'`);
 * - `unknown`: a send left and its outcome is unknown (`reason`): the worker died or lost its lock
 *   mid-send, the request timed out or lost its connection, or the service answered 1000. The
 *   message may have been delivered. It is **never sent again by the queue**: call `resend` or
 *   `abandon` (a receipt carrying its key in `note2` also settles it);
 * - `abandoned`: an unknown fate you chose not to resend.
 */
export type MessageState = 'queued' | 'sending' | 'retrying' | 'accepted' | 'delivered' | 'failed' | 'rejected' | 'unknown' | 'abandoned';

/** Every {@link MessageState}, in the order of a message's life. */
export const MESSAGE_STATES: readonly MessageState[] = Object.freeze([
  'queued',
  'sending',
  'retrying',
  'accepted',
  'delivered',
  'failed',
  'rejected',
  'unknown',
  'abandoned',
]);

/**
 * States in which the queue does nothing more with a message by itself: `accepted` (until its
 * receipts come, if any were asked for), `delivered`, `failed`, `rejected`, `unknown` (until you
 * decide) and `abandoned`.
 */
export const SETTLED_STATES: readonly MessageState[] = Object.freeze(['accepted', 'delivered', 'failed', 'rejected', 'unknown', 'abandoned']);

/**
 * Why a message is in `unknown` or `rejected`:
 * - `worker-lost`: a worker marked the send in flight and never recorded its outcome (the process
 *   died, was killed, lost its lock or its Redis connection mid-send); found when the job came back;
 * - `timeout`: the request got no complete answer within `sendTimeoutMs`;
 * - `connection-lost`: the connection was reset or dropped after the request left;
 * - `service-error`: the service answered 1000 ("the message may already have gone to the operator");
 * - `unexpected-response`: an answer the spec does not describe, which may be an acceptance (a 202
 *   without `Location`, a 5xx page from a proxy);
 * - `worker-error`: the job failed for good in the middle of a send (see `jobAttempts`);
 * - `service`: the service rejected the message with an error code (`code`, `description`);
 * - `retries-exhausted`: `retry.maxRetries` retries after 1010 or unopened connections, all refused;
 * - `queue-error`: the job failed for good before anything was sent (Redis unreachable, ...).
 */
export type OutcomeReason =
  | 'worker-lost'
  | 'timeout'
  | 'connection-lost'
  | 'service-error'
  | 'unexpected-response'
  | 'worker-error'
  | 'service'
  | 'retries-exhausted'
  | 'queue-error';

/** A message as `getMessage` returns it. Times are epoch milliseconds. */
export interface QueuedMessage {
  /** Your key: the message is sent at most once per key. */
  readonly key: string;
  readonly state: MessageState;
  /** The request as validated by core at `enqueue` (with the key in `options.note2` when `keyInNote2`). */
  readonly request: MtRequest;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Requests that left, or may have left, for this key (the queue keeps it at 1 unless you `resend`). */
  readonly sends: number;
  /** Retries after a 1010 or a connection that could not be opened. */
  readonly retries: number;
  /** The ticket ID, once accepted (or learnt from a receipt). */
  readonly ticketId?: string;
  /** `X-Request-Id` of the last answer. */
  readonly requestId?: string;
  readonly acceptedAt?: number;
  /**
   * The service's code: a string for an error code (the rejection's, the `'1000'` of an unknown fate,
   * the last `'1010'`), a number for the delivery status of `delivered` and `failed` (the summary code).
   */
  readonly code?: string | number;
  readonly description?: string;
  /** HTTP status of the last answer, when one came. */
  readonly httpStatus?: number;
  /** Why the message is `unknown` or `rejected`. */
  readonly reason?: OutcomeReason;
  /** When a `retrying` message is sent again. */
  readonly retryAt?: number;
  /**
   * The in-flight marker: set in Redis before a request leaves, cleared when its outcome is
   * recorded. `token` names the worker process (`host/pid/job/n`). Still present on an `unknown`
   * message: the send whose outcome was lost.
   */
  readonly inFlight?: { readonly token: string; readonly since: number };
  /** A ticket of another send of the same key, learnt from a receipt (only after a `resend` whose first send had been accepted). */
  readonly otherTicketId?: string;
  /** The delivery status folded from the receipts recorded so far (core's `foldReceipts`). */
  readonly delivery?: MessageDeliveryStatus;
}

/** A state change, as `onStateChange` and `subscribe` listeners receive it. */
export interface StateChange {
  readonly key: string;
  readonly state: MessageState;
  /** The state before (absent for a new message). */
  readonly previous?: MessageState;
  /** When it changed (epoch ms). */
  readonly at: number;
  /** The ticket ID, on a change to `accepted` (from the answer or a receipt) and to `delivered` / `failed`. */
  readonly ticketId?: string;
  /**
   * The service's code, where the change has one: a string for an error code (`'1010'` on
   * `retrying`, the rejection's code, the `'1000'` of an unknown fate), a number for the summary
   * delivery status of `delivered` / `failed` (as {@link QueuedMessage.code}).
   */
  readonly code?: string | number;
}

/** What went wrong inside a receiver, reported through its `onError` hook (a closed set). */
export type WebhookErrorCode =
  /** A handler (`onDeliveryReceipt`, `onInboundMessage`) threw or rejected: the event was answered 500. */
  | 'handler-failed'
  /** A handler did not settle in time: the event was answered 503 (the handler may still finish). */
  | 'handler-timeout'
  /** A handler that had timed out failed later. */
  | 'late-handler-failed'
  /** `onDuplicate` or `onOrphan` threw or rejected. */
  | 'hook-failed'
  /** A store failed: reserving or holding a part answered 503; remembering, forgetting, ending a hand-over only reported. */
  | 'store-failed'
  /** An orphaned multipart inbound message could not be handed over. */
  | 'orphan-failed'
  /**
   * A handler outlived the lease of the multipart message it was given, and another instance took
   * the message again meanwhile: it may have been handed over twice.
   */
  | 'lease-expired'
  /** The request body was consumed by another body parser the receiver cannot read back. */
  | 'receiver-misconfigured';

/** Options of {@link WebhookError}. */
export interface WebhookErrorOptions {
  readonly cause?: unknown;
  /** The ticket ID of the event, when known. */
  readonly ticketId?: string;
  /** The duplicate key of the event, when known. */
  readonly key?: string;
}

/**
 * An error inside a receiver of receipts and inbound messages, handed to `onError` (it is never
 * thrown at the service: the service only sees the HTTP status). `cause` holds the original error.
 */
export class WebhookError extends Error {
  override readonly name = 'WebhookError';
  readonly code: WebhookErrorCode;
  readonly ticketId?: string;
  readonly key?: string;

  constructor(code: WebhookErrorCode, message: string, { cause, ticketId, key }: WebhookErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    if (ticketId !== undefined) this.ticketId = ticketId;
    if (key !== undefined) this.key = key;
  }
}

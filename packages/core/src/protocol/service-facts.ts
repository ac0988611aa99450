/**
 * Facts of the service's behaviour beyond single messages (wire-facts "Tickets", "Callbacks"),
 * written once for the sandbox, the receivers and the clients.
 */

/** The header every callback carries, and its value for the SMS API v4. */
export const API_VERSION_HEADER = 'X-API-Version';
/** The value of {@link API_VERSION_HEADER} on receipts and inbound messages. */
export const CALLBACK_API_VERSION = '4';

/** How long a message's status can be read after submission; later: 711 Ticket ID not found. */
export const STATUS_RETENTION_MS = 5 * 24 * 3_600_000;

/** How long the service keeps retrying a delivery receipt the receiver did not take (answered non-2xx). */
export const RECEIPT_RETRY_WINDOW_MS = 24 * 3_600_000;

/** How long the service keeps retrying an inbound message the receiver did not take. */
export const INBOUND_RETRY_WINDOW_MS = 3 * 24 * 3_600_000;

/**
 * How much longer than a retry window a receiver remembers an event it took, so that the last retry
 * of a window is still recognised as a duplicate despite clock skew and queueing (one hour).
 */
export const DUPLICATE_MARGIN_MS = 3_600_000;

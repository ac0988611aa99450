/**
 * The answers of a receiver of delivery receipts and inbound messages: one table from each closed
 * rejection code to its HTTP status and wording. The service retries every callback that is not
 * answered 2xx (receipts for 24 hours, inbound messages for 3 days), so a receiver answers non-2xx
 * exactly when it did not take the event.
 */
import { API_VERSION_HEADER, CALLBACK_API_VERSION } from '../protocol/service-facts.js';

/** Why a receiver did not take a callback (a closed set; each has one HTTP status). */
export type WebhookRejectionCode =
  | 'method-not-allowed'
  | 'forbidden'
  | 'unauthorized'
  | 'unsupported-api-version'
  | 'unsupported-media-type'
  | 'unsupported-content-encoding'
  | 'payload-too-large'
  | 'part-too-large'
  | 'malformed-payload'
  | 'unknown-callback'
  | 'callback-not-accepted'
  | 'request-aborted'
  | 'request-timeout'
  | 'in-flight'
  | 'handler-failed'
  | 'handler-timeout'
  | 'store-unavailable'
  | 'reassembly-full'
  | 'receiver-misconfigured';

/** One entry of {@link WEBHOOK_REJECTIONS}. */
export interface WebhookRejectionEntry {
  readonly status: number;
  readonly description: string;
}

/**
 * The HTTP status and description of every rejection. 4xx: the request is wrong (the service will
 * retry it all the same, and a fixed receiver then takes it); 409 and 5xx: the receiver could not
 * take the event now and wants the retry.
 */
export const WEBHOOK_REJECTIONS: Readonly<Record<WebhookRejectionCode, WebhookRejectionEntry>> = Object.freeze({
  'method-not-allowed': { status: 405, description: 'Callbacks are POST requests' },
  forbidden: { status: 403, description: 'The remote address is not allowed to post callbacks' },
  unauthorized: { status: 401, description: 'Callbacks to this URL need valid Basic credentials' },
  'unsupported-api-version': { status: 400, description: `${API_VERSION_HEADER} must be ${CALLBACK_API_VERSION}` },
  'unsupported-media-type': { status: 415, description: 'Content-Type must be application/xml or application/json (charset UTF-8)' },
  'unsupported-content-encoding': { status: 415, description: 'Content-Encoding must be identity' },
  'payload-too-large': { status: 413, description: 'Payload exceeds {maxBytes} bytes' },
  'part-too-large': { status: 413, description: 'A part of a multipart inbound message holds at most {maxOctets} octets' },
  'malformed-payload': { status: 400, description: 'Malformed payload' },
  'unknown-callback': { status: 400, description: 'Payload is neither a deliveryReceipt nor a mobileOriginate' },
  'callback-not-accepted': { status: 422, description: 'This URL does not take {kind}' },
  'request-aborted': { status: 400, description: 'The request body could not be read' },
  'request-timeout': { status: 408, description: 'The request body was not received within {timeoutMs} ms' },
  'in-flight': { status: 409, description: 'The same event is being handled by an earlier delivery; retry later' },
  'handler-failed': { status: 500, description: 'The event could not be handled; retry later' },
  'handler-timeout': { status: 503, description: 'The event was not handled in time; retry later' },
  'store-unavailable': { status: 503, description: 'A store of the receiver is unavailable; retry later' },
  'reassembly-full': { status: 503, description: 'The parts of multipart messages waiting for their siblings fill the receiver; retry later' },
  'receiver-misconfigured': { status: 500, description: 'The request body was consumed by another body parser before the receiver' },
});

/** The `Retry-After` of a 503 answered when the reassembly store's byte budget is spent, in seconds. */
export const REASSEMBLY_FULL_RETRY_AFTER_S = 60;

/** What a receiver did with a callback, for logs and metrics. */
export type WebhookOutcome =
  /** The handler took the event (200). */
  | 'handled'
  /** The event was seen before and handled then (200, handler not called). */
  | 'duplicate'
  /** One part of a multipart inbound message was kept until its other parts arrive (200). */
  | 'part-stored'
  /** Not taken: see {@link WebhookResponse.rejection}. */
  | 'rejected';

/** The answer to give, as plain data: any HTTP framework can send it. */
export interface WebhookResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** Empty on success; one line of text on a rejection. */
  readonly body: string;
  readonly outcome: WebhookOutcome;
  /** Set when `outcome` is `'rejected'`. */
  readonly rejection?: WebhookRejectionCode;
}

/** `Retry-After` of a 503 for a store that did not answer: a short wait, the service's own retries go on for hours. */
const STORE_RETRY_AFTER_SECONDS = '10';

const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const TEXT_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'text/plain; charset=utf-8' });

const OK_RESPONSES: Readonly<Record<'handled' | 'duplicate' | 'part-stored', WebhookResponse>> = Object.freeze({
  handled: Object.freeze({ status: 200, headers: EMPTY_HEADERS, body: '', outcome: 'handled' }),
  duplicate: Object.freeze({ status: 200, headers: EMPTY_HEADERS, body: '', outcome: 'duplicate' }),
  'part-stored': Object.freeze({ status: 200, headers: EMPTY_HEADERS, body: '', outcome: 'part-stored' }),
});

/** The 200 answer with an empty body the service expects for a taken receipt or inbound message. */
export function webhookAccepted(outcome: 'handled' | 'duplicate' | 'part-stored' = 'handled'): WebhookResponse {
  return OK_RESPONSES[outcome];
}

/** Options of {@link webhookRejection}. */
export interface WebhookRejectionOptions {
  /** Replaces the `{name}` placeholders of the description (`maxBytes`, `kind`). */
  readonly values?: Readonly<Record<string, string>>;
  /** Appended to the description after `: ` (e.g. the decoder's message). */
  readonly detail?: string;
  /** Extra response headers (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Rejections a receiver answers before it reads the body: they close the connection
 * (`Connection: close`), so that a server does not read a body nobody will look at (a stranger's
 * endless chunked body) to keep the connection open.
 */
const EARLY_REJECTIONS: ReadonlySet<WebhookRejectionCode> = new Set([
  'method-not-allowed',
  'forbidden',
  'unauthorized',
  'unsupported-api-version',
  'unsupported-media-type',
  'unsupported-content-encoding',
  'payload-too-large',
]);

/**
 * The answer for a rejection, from {@link WEBHOOK_REJECTIONS}: its status, a one-line plain-text
 * body, and the headers the status calls for (`Allow` with 405; `Connection: close` with the
 * rejections answered before the body is read: 401, 403, 405, 413, 415, and 400 for the API version;
 * `Retry-After` with a full reassembly store).
 *
 * @example
 * webhookRejection('payload-too-large', { values: { maxBytes: '65536' } }).status; // 413
 */
export function webhookRejection(code: WebhookRejectionCode, { values, detail, headers }: WebhookRejectionOptions = {}): WebhookResponse {
  const entry = WEBHOOK_REJECTIONS[code];
  if (entry === undefined) throw new TypeError(`unknown webhook rejection code: ${String(code)}`);
  let description = entry.description;
  if (values !== undefined) description = description.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] as string) : whole));
  if (detail !== undefined && detail !== '') description += `: ${detail}`;
  const own: Record<string, string> =
    code === 'method-not-allowed'
      ? { allow: 'POST', connection: 'close' }
      : EARLY_REJECTIONS.has(code) || code === 'request-timeout'
        ? { connection: 'close' }
        : code === 'store-unavailable'
          ? { 'retry-after': STORE_RETRY_AFTER_SECONDS }
          : code === 'reassembly-full'
            ? { 'retry-after': String(REASSEMBLY_FULL_RETRY_AFTER_S) }
            : {};
  return {
    status: entry.status,
    headers: { ...TEXT_HEADERS, ...own, ...headers },
    body: `${description.replace(/[\r\n]+/g, ' ')}\n`,
    outcome: 'rejected',
    rejection: code,
  };
}

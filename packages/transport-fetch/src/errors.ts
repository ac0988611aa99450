import type { ApiOperation } from '@smsv4/core';

/**
 * What went wrong, as a closed set:
 * - `invalid-request`: the request breaks a rule of the spec; it was refused before it left (the
 *   service's own code and description: 540 for a send, 12002 or 12007 for Invoke Service);
 * - `api-error`: the service rejected the request with an error record (`code`, `description`);
 * - `network`: no HTTP response arrived (connection refused, reset, DNS, TLS, a dropped connection);
 * - `timeout`: no complete response within the timeout;
 * - `unexpected-response`: a response the spec does not describe (a 202 without `Location`, an HTML
 *   error page, a 415 without a body, a body that is not the expected document, one too large);
 * - `aborted`: the caller's `AbortSignal` fired.
 */
export type SmsApiErrorKind = 'invalid-request' | 'api-error' | 'network' | 'timeout' | 'unexpected-response' | 'aborted';

/** Every {@link SmsApiErrorKind}, for exhaustive handling and documentation. */
export const SMS_API_ERROR_KINDS: readonly SmsApiErrorKind[] = Object.freeze([
  'invalid-request',
  'api-error',
  'network',
  'timeout',
  'unexpected-response',
  'aborted',
]);

/**
 * Whether the request reached the service: `yes` (an HTTP response came back), `no` (it certainly
 * did not: refused before it left, or the connection could not be opened) or `unknown` (it may have:
 * a timeout, a reset or dropped connection, an abort in flight). A send whose answer is `unknown` may
 * have been delivered: sending it again may deliver it twice.
 */
export type ReachedService = 'yes' | 'no' | 'unknown';

/** The raw HTTP answer an error came with. */
export interface ErrorResponse {
  /** The Fetch `Response` (its body already read). */
  readonly response: Response;
  /** The body as text (UTF-8, invalid sequences replaced). */
  readonly body: string;
}

/** What {@link SmsApiError} is built from. */
export interface SmsApiErrorInit {
  readonly kind: SmsApiErrorKind;
  readonly operation: ApiOperation;
  /** The spec's code: a string for the SMS API (`'540'`), an integer for Invoke Service (`12002`). */
  readonly code?: string | number;
  readonly description: string;
  readonly httpStatus?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly reachedService: ReachedService;
  readonly attempts: number;
  readonly raw?: ErrorResponse;
  readonly cause?: unknown;
}

/**
 * The one error of the client. Every failure of `send`, `getStatus`, `lookup` and `invokeService`
 * rejects with it; misuse of the API (a malformed ticket ID, a bad option) is a `TypeError` instead.
 *
 * @example
 * try {
 *   await client.send(mt);
 * } catch (error) {
 *   if (error instanceof SmsApiError && error.kind === 'timeout') {
 *     // error.reachedService === 'unknown': the message may have gone out; do not simply resend.
 *   }
 * }
 */
export class SmsApiError extends Error {
  override readonly name = 'SmsApiError';
  /** What went wrong (closed set). */
  readonly kind: SmsApiErrorKind;
  /** The operation that failed. */
  readonly operation: ApiOperation;
  /** The spec's code (`'540'`, `'1010'`, `12002`...), for `api-error` and `invalid-request`. */
  readonly code?: string | number;
  /** The spec's description for a code; otherwise a description of the failure. */
  readonly description: string;
  /** The HTTP status of the answer, when one arrived. */
  readonly httpStatus?: number;
  /** The `X-Request-Id` of the answer, when one arrived. */
  readonly requestId?: string;
  /**
   * Whether trying again is safe and may succeed, by the spec's guidance and the operation (a send
   * is retryable only after a 1010 or when it certainly did not leave). Whether the client did retry
   * is its retry policy's business: see {@link SmsApiError.attempts}.
   */
  readonly retryable: boolean;
  /** The shortest wait before a retry (from `Retry-After` or the spec's guidance for 1010), when known. */
  readonly retryAfterMs?: number;
  /** Whether the request reached the service. */
  readonly reachedService: ReachedService;
  /** HTTP attempts made, this one included (0 when refused before the first). */
  readonly attempts: number;
  /** The raw HTTP answer, for `api-error` and `unexpected-response`. */
  readonly raw?: ErrorResponse;

  constructor(init: SmsApiErrorInit) {
    const code = init.code === undefined ? '' : ` ${String(init.code)}`;
    const status = init.httpStatus === undefined ? '' : ` (HTTP ${init.httpStatus})`;
    super(`${init.operation} failed: ${init.kind}${code}${status}: ${init.description}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    if (init.code !== undefined) this.code = init.code;
    this.description = init.description;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    this.retryable = init.retryable;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.reachedService = init.reachedService;
    this.attempts = init.attempts;
    if (init.raw !== undefined) this.raw = init.raw;
  }
}

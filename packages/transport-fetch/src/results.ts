import type { MtStatus, Preview, StatusInstants } from '@smsv4/core';

/** What every successful call returns beside its value: the HTTP facts and the raw answer. */
export interface ResponseInfo {
  /** The HTTP status (202 for a send; 200 for status and lookup; 202, or 200, for Invoke Service). */
  readonly httpStatus: number;
  /** The `X-Request-Id` of the answer (the service always sends one). */
  readonly requestId?: string;
  /** The Fetch `Response` (its body already read: see {@link ResponseInfo.body}). */
  readonly response: Response;
  /** The body as text (empty for a send and Invoke Service). */
  readonly body: string;
  /** HTTP attempts it took (1 without a retry). */
  readonly attempts: number;
}

/** An accepted send. */
export interface SendResult extends ResponseInfo {
  /** The ticket ID: the last path segment of `Location`. */
  readonly ticketId: string;
  /** The `Location` header (the message resource). */
  readonly location: string;
}

/**
 * A status answer. For a multipart message `status.code` is the summary and `status.segments` holds
 * each part. `status` keeps each `deliveryDate` as the service wrote it (any offset);
 * `deliveryInstant` and `segmentInstants` give their UTC instants with milliseconds.
 */
export interface GetStatusResult extends ResponseInfo, StatusInstants {
  readonly status: MtStatus;
}

/** An operator lookup answer. */
export interface LookupResult extends ResponseInfo {
  readonly preview: Preview;
}

/** An accepted Invoke Service request (no body: the service does not tell whether the service ran). */
export type InvokeServiceResult = ResponseInfo;

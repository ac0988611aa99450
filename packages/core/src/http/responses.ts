import type { BodyInput } from '../body/body-text.js';
import type { WireFormat } from '../codec/wire-format.js';
import { INVOKE_ERRORS, SMS_ERRORS, type InvokeErrorCode, type RetryGuidance, type SmsErrorCode } from '../errors/catalogue.js';
import { decodeErrorRecord } from '../error-record/error-record.js';
import { decodeInvokeErrorBody } from '../error-record/invoke-error-body.js';
import { decodeMtStatus, type MtStatus } from '../mt-status/mt-status.js';
import { statusInstants, type StatusInstants } from '../mt-status/status-instants.js';
import { decodePreview, type Preview } from '../preview/preview.js';
import { err, ok, type Result } from '../result.js';
import type { ApiOperation } from './endpoints.js';
import { headerValue, type HeadersLike } from './headers.js';
import { formatOfContentType } from './media-type.js';
import { ticketIdFromLocation } from './ticket-id.js';

/** An HTTP response as plain data, from any HTTP client. */
export interface HttpResponseData {
  readonly status: number;
  readonly headers: HeadersLike;
  readonly body: BodyInput;
}

/** Why a response is not a success, as a value. */
export type ApiFailure =
  | {
      /** The service rejected the request with an error record. */
      readonly kind: 'api-error';
      readonly operation: ApiOperation;
      readonly httpStatus: number;
      /** SMS codes are strings (`'540'`), Invoke Service codes integers (`12002`). */
      readonly code: string | number;
      readonly description: string;
      readonly requestId?: string;
      readonly retry: RetryGuidance;
    }
  | {
      /** The response is not what the spec says the service answers (e.g. 202 without Location, an HTML page, 415 without a body). */
      readonly kind: 'unexpected-response';
      readonly operation: ApiOperation;
      readonly httpStatus: number;
      readonly description: string;
      readonly requestId?: string;
    };

/** An accepted send. */
export interface SendAccepted {
  readonly ticketId: string;
  readonly location: string;
  readonly requestId?: string;
  readonly httpStatus: number;
}

/**
 * A status answer. `status` keeps each `deliveryDate` as the service wrote it; `deliveryInstant`
 * and `segmentInstants` give their UTC instants with milliseconds (see `statusInstants`).
 */
export interface StatusResult extends StatusInstants {
  readonly status: MtStatus;
  readonly requestId?: string;
  readonly httpStatus: number;
}

/** A lookup answer. */
export interface LookupResult {
  readonly preview: Preview;
  readonly requestId?: string;
  readonly httpStatus: number;
}

/** An accepted Invoke Service request (202; one sample of the spec shows 200). */
export interface InvokeAccepted {
  readonly requestId?: string;
  readonly httpStatus: number;
}

const NO_RETRY: RetryGuidance = { retryable: false };

const bodyIsEmpty = (body: BodyInput): boolean => (typeof body === 'string' ? body.trim().length === 0 : body.byteLength === 0);

function unexpected(operation: ApiOperation, res: HttpResponseData, description: string, requestId: string | undefined): { ok: false; error: ApiFailure } {
  return err({ kind: 'unexpected-response', operation, httpStatus: res.status, description, ...(requestId === undefined ? {} : { requestId }) });
}

/** The format of a response body: its Content-Type, else a sniff of the first character. */
function bodyFormat(res: HttpResponseData): WireFormat | undefined {
  const declared = formatOfContentType(headerValue(res.headers, 'content-type'));
  if (declared) return declared;
  const text = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body.subarray(0, 64));
  const first = text.trimStart()[0];
  return first === '<' ? 'xml' : first === '{' ? 'json' : undefined;
}

/** Interprets an SMS rejection: the error record in the body, or an unexpected response. */
function smsFailure(operation: ApiOperation, res: HttpResponseData, requestId: string | undefined): { ok: false; error: ApiFailure } {
  const format = bodyFormat(res);
  if (format === undefined || bodyIsEmpty(res.body)) {
    return unexpected(operation, res, `HTTP ${res.status} without an error record`, requestId);
  }
  const record = decodeErrorRecord(res.body, format);
  if (!record.ok) return unexpected(operation, res, `HTTP ${res.status} with a body that is not an error record: ${record.error.description}`, requestId);
  const { code, description } = record.value;
  const entry = Object.hasOwn(SMS_ERRORS, code) ? SMS_ERRORS[code as SmsErrorCode] : undefined;
  return err({
    kind: 'api-error',
    operation,
    httpStatus: res.status,
    code,
    description,
    ...(requestId === undefined ? {} : { requestId }),
    retry: entry?.retry ?? NO_RETRY,
  });
}

/** Interprets the answer to a send: 202 + Location → the ticket ID; otherwise the failure. */
export function parseSendResponse(res: HttpResponseData): Result<SendAccepted, ApiFailure> {
  const requestId = headerValue(res.headers, 'x-request-id');
  if (res.status === 202) {
    const location = headerValue(res.headers, 'location');
    const ticketId = ticketIdFromLocation(location);
    if (location === undefined || ticketId === undefined) {
      return unexpected('send', res, location === undefined ? '202 without a Location header' : `202 with a Location that names no ticket: ${location}`, requestId);
    }
    return ok({ ticketId, location, httpStatus: res.status, ...(requestId === undefined ? {} : { requestId }) });
  }
  if (res.status >= 200 && res.status < 300) return unexpected('send', res, `HTTP ${res.status} where 202 was expected`, requestId);
  return smsFailure('send', res, requestId);
}

function parseDocumentResponse<T>(
  operation: 'status' | 'lookup',
  res: HttpResponseData,
  decode: (body: BodyInput, format: WireFormat) => Result<T, { description: string }>,
): Result<{ value: T; requestId?: string }, ApiFailure> {
  const requestId = headerValue(res.headers, 'x-request-id');
  if (res.status !== 200) {
    if (res.status >= 200 && res.status < 300) return unexpected(operation, res, `HTTP ${res.status} where 200 was expected`, requestId);
    return smsFailure(operation, res, requestId);
  }
  const format = bodyFormat(res);
  if (format === undefined) return unexpected(operation, res, 'HTTP 200 with a body that is neither XML nor JSON', requestId);
  const decoded = decode(res.body, format);
  if (!decoded.ok) return unexpected(operation, res, `HTTP 200 with an invalid ${operation} document: ${decoded.error.description}`, requestId);
  return ok({ value: decoded.value, ...(requestId === undefined ? {} : { requestId }) });
}

/** Interprets the answer to a status request. */
export function parseStatusResponse(res: HttpResponseData): Result<StatusResult, ApiFailure> {
  const r = parseDocumentResponse('status', res, decodeMtStatus);
  if (!r.ok) return r;
  const status = r.value.value;
  return ok({ status, httpStatus: res.status, ...(r.value.requestId === undefined ? {} : { requestId: r.value.requestId }), ...statusInstants(status) });
}

/** Interprets the answer to a lookup. */
export function parseLookupResponse(res: HttpResponseData): Result<LookupResult, ApiFailure> {
  const r = parseDocumentResponse('lookup', res, decodePreview);
  return r.ok ? ok({ preview: r.value.value, httpStatus: res.status, ...(r.value.requestId === undefined ? {} : { requestId: r.value.requestId }) }) : r;
}

/** Interprets the answer to an Invoke Service request: 202 (or 200) → accepted; otherwise the JSON error body. */
export function parseInvokeServiceResponse(res: HttpResponseData): Result<InvokeAccepted, ApiFailure> {
  const requestId = headerValue(res.headers, 'x-request-id');
  if (res.status === 202 || res.status === 200) return ok({ httpStatus: res.status, ...(requestId === undefined ? {} : { requestId }) });
  if (res.status >= 200 && res.status < 300) return unexpected('invokeService', res, `HTTP ${res.status} where 202 was expected`, requestId);
  if (bodyIsEmpty(res.body)) return unexpected('invokeService', res, `HTTP ${res.status} without an error body`, requestId);
  const body = decodeInvokeErrorBody(res.body);
  if (!body.ok) return unexpected('invokeService', res, `HTTP ${res.status} with a body that is not an error body: ${body.error.description}`, requestId);
  const { code, description } = body.value;
  const entry = Object.hasOwn(INVOKE_ERRORS, code) ? INVOKE_ERRORS[code as InvokeErrorCode] : undefined;
  return err({
    kind: 'api-error',
    operation: 'invokeService',
    httpStatus: res.status,
    code,
    description,
    ...(requestId === undefined ? {} : { requestId }),
    retry: entry?.retry ?? NO_RETRY,
  });
}

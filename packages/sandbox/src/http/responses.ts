/**
 * Building the sandbox's HTTP answers. Codes, descriptions, HTTP statuses and bodies come from
 * core's catalogue and encoders.
 */
import {
  contentTypeFor,
  encodeErrorRecord,
  encodeInvokeErrorBody,
  INVOKE_ERRORS,
  SMS_ERRORS,
  type InvokeErrorCode,
  type SmsErrorCode,
  type WireFormat,
} from '@smsv4/core';

/** The error code an answer carries, kept on the `Response` for the sandbox's counters. */
export const ERROR_CODE: unique symbol = Symbol('smsv4.sandbox.error-code');

/** A `Response` that may carry the error code of its error record. */
export type CodedResponse = Response & { [ERROR_CODE]?: string };

const coded = (response: Response, code: string | number): Response => Object.assign(response, { [ERROR_CODE]: String(code) });

/** The error code of an answer, when it is an error record. */
export const errorCodeOf = (response: Response): string | undefined => (response as CodedResponse)[ERROR_CODE];

/** An SMS error record with the catalogue's HTTP status (`description` overrides the catalogue's). */
export function smsError(code: SmsErrorCode, format: WireFormat, requestId: string, description?: string): Response {
  const entry = SMS_ERRORS[code];
  const response = new Response(encodeErrorRecord({ code, description: description ?? entry.description }, format), {
    status: entry.httpStatus,
    headers: { 'content-type': contentTypeFor(format), 'x-request-id': requestId },
  });
  return coded(response, code);
}

/**
 * An error record carrying an Invoke Service code, for what the SMS API has no code for: an
 * unknown path (12006 "Invalid request URL", 404) and a wrong method (12003, 405). On the SMS
 * paths it is written as an SMS error record in the answer's format; under `/service/` as the
 * Invoke Service's JSON error body.
 */
export function urlError(code: 12003 | 12006, format: WireFormat | 'invoke', requestId: string, allow?: string): Response {
  const entry = INVOKE_ERRORS[code];
  const body =
    format === 'invoke'
      ? encodeInvokeErrorBody({ code, description: entry.description })
      : encodeErrorRecord({ code: String(code), description: entry.description }, format);
  const response = new Response(body, {
    status: entry.httpStatus,
    headers: {
      'content-type': contentTypeFor(format === 'invoke' ? 'json' : format),
      'x-request-id': requestId,
      ...(allow === undefined ? {} : { allow }),
    },
  });
  return coded(response, code);
}

/** An Invoke Service error body with the catalogue's HTTP status. */
export function invokeError(error: { code: InvokeErrorCode; description?: string }, requestId: string): Response {
  const entry = INVOKE_ERRORS[error.code];
  const response = new Response(encodeInvokeErrorBody({ code: error.code, description: error.description ?? entry.description }), {
    status: entry.httpStatus,
    headers: { 'content-type': contentTypeFor('json'), 'x-request-id': requestId },
  });
  return coded(response, error.code);
}

/** HTTP 415: a missing or unsupported Content-Type; empty body, no error code (as the spec says). */
export function unsupportedMediaType(requestId: string): Response {
  return new Response(null, { status: 415, headers: { 'x-request-id': requestId, 'content-length': '0' } });
}

/** An empty answer (202 of send and Invoke Service, 204 of the admin API). */
export function empty(status: number, requestId: string, headers: Record<string, string> = {}): Response {
  // A 204 carries no Content-Length at all (RFC 9110 8.6).
  const length: Record<string, string> = status === 204 ? {} : { 'content-length': '0' };
  return new Response(null, { status, headers: { 'x-request-id': requestId, ...length, ...headers } });
}

/** A document answer (status, lookup). */
export function document(body: string, format: WireFormat, requestId: string): Response {
  return new Response(body, { status: 200, headers: { 'content-type': contentTypeFor(format), 'x-request-id': requestId } });
}

/** A JSON answer of the admin API. */
export function json(value: unknown, status: number, requestId: string): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'x-request-id': requestId, 'cache-control': 'no-store' },
  });
}

/** An error of the admin API: `{ error: { code, description } }`. */
export function adminError(status: number, code: string, description: string, requestId: string): Response {
  return json({ error: { code, description } }, status, requestId);
}

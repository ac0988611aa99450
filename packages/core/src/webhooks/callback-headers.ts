/**
 * The request headers a receiver reads, taken in one pass: a record (Node's `IncomingHttpHeaders`)
 * is walked once for all of them instead of once a header.
 */
import { headerValue, type HeadersLike } from '../http/headers.js';
import { API_VERSION_HEADER } from '../protocol/service-facts.js';

const API_VERSION = API_VERSION_HEADER.toLowerCase();

/** The headers a receiver reads, each as {@link headerValue} gives it. */
export interface CallbackHeaders {
  readonly authorization: string | undefined;
  readonly apiVersion: string | undefined;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly contentLength: string | undefined;
}

type Raw = string | readonly string[] | number | undefined;
/** A header not met yet (a member present with the value `undefined` counts as met, as for {@link headerValue}). */
const UNSEEN: unique symbol = Symbol('unseen');

const text = (value: Raw | typeof UNSEEN): string | undefined =>
  value === UNSEEN || value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);

/**
 * Reads `Authorization` (only when `withAuthorization`), `X-API-Version`, `Content-Type`,
 * `Content-Encoding` and `Content-Length`, with the result of {@link headerValue} for each: the
 * first member whose name matches in any case, repeated values joined by `, `.
 */
export function callbackHeaders(headers: HeadersLike | undefined, withAuthorization: boolean): CallbackHeaders {
  if (headers === undefined || headers === null || typeof (headers as { get?: unknown }).get === 'function') {
    return {
      authorization: withAuthorization ? headerValue(headers, 'authorization') : undefined,
      apiVersion: headerValue(headers, API_VERSION),
      contentType: headerValue(headers, 'content-type'),
      contentEncoding: headerValue(headers, 'content-encoding'),
      contentLength: headerValue(headers, 'content-length'),
    };
  }
  const record = headers as Readonly<Record<string, Raw>>;
  let authorization: Raw | typeof UNSEEN = UNSEEN;
  let apiVersion: Raw | typeof UNSEEN = UNSEEN;
  let contentType: Raw | typeof UNSEEN = UNSEEN;
  let contentEncoding: Raw | typeof UNSEEN = UNSEEN;
  let contentLength: Raw | typeof UNSEEN = UNSEEN;
  for (const key of Object.keys(record)) {
    switch (key.toLowerCase()) {
      case 'authorization':
        if (authorization === UNSEEN) authorization = record[key];
        break;
      case API_VERSION:
        if (apiVersion === UNSEEN) apiVersion = record[key];
        break;
      case 'content-type':
        if (contentType === UNSEEN) contentType = record[key];
        break;
      case 'content-encoding':
        if (contentEncoding === UNSEEN) contentEncoding = record[key];
        break;
      case 'content-length':
        if (contentLength === UNSEEN) contentLength = record[key];
        break;
      default:
    }
  }
  return {
    authorization: withAuthorization ? text(authorization) : undefined,
    apiVersion: text(apiVersion),
    contentType: text(contentType),
    contentEncoding: text(contentEncoding),
    contentLength: text(contentLength),
  };
}

import { err, ok, type Result } from '../result.js';
import { invokeRequestLineError, type InvokeRequestLineError } from './errors.js';

/** The version of the Invoke Service API, as it appears in the path. */
export const INVOKE_SERVICE_VERSION = 'v1';

/** The operation name of the path. */
const OPERATION = 'invokeService';
/** Base for request targets given in origin form (`/service/v1/...`); never shown. */
const ORIGIN_FORM_BASE = 'http://origin-form.invalid';

/** The request line of an Invoke Service call. */
export interface InvokeServiceRequestLine {
  /** HTTP method; compared case-sensitively (methods are case-sensitive). */
  readonly method: string;
  /** Absolute URL, or the request target in origin form (path and query) as servers receive it. */
  readonly url: string | URL;
}

function isHex(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * Checks the method and URL of an Invoke Service call, `POST /service/v1/invokeService/<serviceId>`,
 * and returns the service ID (URL-decoded, case kept). The checks run in path order, then method,
 * then query: a path outside `/service/` or without a version is 12006; a version other than `v1`
 * is 12004; an operation other than `invokeService`, a missing, empty or non-hexadecimal service ID
 * (after URL decoding) or any further segment is 12006; a method other than `POST` is 12003; any
 * query (a `?` followed by anything) is 12005. The host is not checked. A method that is not a
 * string or a URL that is neither a string nor a `URL` is a `TypeError`.
 */
export function checkInvokeServiceRequestLine({ method, url }: InvokeServiceRequestLine): Result<{ serviceId: string }, InvokeRequestLineError> {
  if (typeof method !== 'string') throw new TypeError('method must be a string');
  if (typeof url !== 'string' && !(url instanceof URL)) throw new TypeError('url must be a string or a URL');
  let parsed: URL;
  try {
    parsed = url instanceof URL ? url : new URL(url, ORIGIN_FORM_BASE);
  } catch {
    return err(invokeRequestLineError(12006));
  }
  const segments = parsed.pathname.split('/');
  // ['', 'service', version, operation, serviceId]
  if (segments[1] !== 'service' || segments.length < 3 || segments[2] === '') return err(invokeRequestLineError(12006));
  if (segments[2] !== INVOKE_SERVICE_VERSION) return err(invokeRequestLineError(12004));
  if (segments[3] !== OPERATION || segments.length !== 5) return err(invokeRequestLineError(12006));
  let serviceId: string;
  try {
    serviceId = decodeURIComponent(segments[4] as string);
  } catch {
    return err(invokeRequestLineError(12006));
  }
  if (!isHex(serviceId)) return err(invokeRequestLineError(12006));
  if (method !== 'POST') return err(invokeRequestLineError(12003));
  if (parsed.search !== '') return err(invokeRequestLineError(12005));
  return ok({ serviceId });
}

/**
 * The path of an Invoke Service call for a service ID: `/service/v1/invokeService/<serviceId>`
 * (the ID URL-encoded). A service ID that is not a non-empty string of hexadecimal digits is a
 * `TypeError`.
 */
export function invokeServicePath(serviceId: string): string {
  if (typeof serviceId !== 'string' || !isHex(serviceId)) throw new TypeError('serviceId must be a non-empty string of hexadecimal digits');
  return `/service/${INVOKE_SERVICE_VERSION}/${OPERATION}/${encodeURIComponent(serviceId)}`;
}

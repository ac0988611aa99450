/**
 * What a failed `fetch` tells about the request. `fetch` rejects with a bare `TypeError` in browsers
 * and edge runtimes; Node's `fetch` (undici) chains the system error as `cause`. Only error codes that
 * mean "no connection was ever opened" prove that the request did not leave; everything else (a reset,
 * a closed socket, a browser's opaque failure) leaves its fate unknown.
 */

/** Codes of failures before a connection existed, which may succeed when tried again. */
const NOT_SENT_TRANSIENT = new Set(['ECONNREFUSED', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Codes of failures before the request was written, which trying again will not cure (DNS, TLS verification). */
const NOT_SENT_PERMANENT = new Set([
  'ENOTFOUND',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/** How far down `cause` chains and `AggregateError` lists to look. */
const MAX_DEPTH = 6;

/** What a network failure means for the request. */
export interface NetworkFailure {
  /** `no` when the request certainly did not reach the service. */
  readonly reachedService: 'no' | 'unknown';
  /** When it certainly did not leave: whether trying again may work (`transient`: connection refused...) or not. */
  readonly notSent?: 'transient' | 'permanent';
  /** The system error code found (`ECONNREFUSED`...), for the description. */
  readonly code?: string;
}

function findCode(error: unknown, depth: number, found: string[]): void {
  if (depth > MAX_DEPTH || error === null || typeof error !== 'object') return;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') found.push(code);
  if (Array.isArray(errors)) for (const inner of errors) findCode(inner, depth + 1, found);
  if (cause !== undefined) findCode(cause, depth + 1, found);
}

/** Reads a rejection of `fetch`. */
export function classifyNetworkFailure(error: unknown): NetworkFailure {
  const codes: string[] = [];
  findCode(error, 0, codes);
  // Every code found must say "not sent": an AggregateError of one refused and one reset address is unknown.
  if (codes.length > 0 && codes.every((c) => NOT_SENT_TRANSIENT.has(c) || NOT_SENT_PERMANENT.has(c))) {
    return { reachedService: 'no', notSent: codes.every((c) => NOT_SENT_TRANSIENT.has(c)) ? 'transient' : 'permanent', code: codes[0] as string };
  }
  return { reachedService: 'unknown', ...(codes[0] === undefined ? {} : { code: codes[0] }) };
}

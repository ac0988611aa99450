/**
 * The time bound of the queue's calls to Redis, and the error a caller gets at the bound: a Redis
 * that stops answering (stalled, down, failing over) makes `enqueue`, `getMessage`, `resend` and
 * the other calls fail with a {@link QueueUnavailableError} instead of waiting for it.
 */

/** Why the queue could not answer. */
export type QueueUnavailableReason =
  /** Redis did not answer within `operationTimeoutMs` (the call may still take effect: calls are idempotent per key). */
  | 'timeout'
  /**
   * Redis refused the call before the bound: its connection closed or refused, a Redis Cluster
   * without a master for the call's slot (`CLUSTERDOWN`, redirections given up), a server loading
   * its data or a replica that cannot take writes. The call may still have taken effect: it is
   * idempotent per key, and may be made again.
   */
  | 'unavailable'
  /** `persistence: 'require'` and Redis does not keep acknowledged writes (see the README). */
  | 'persistence';

/** The queue could not answer a call: Redis did not answer in time, or does not keep what it acknowledges. */
export class QueueUnavailableError extends Error {
  override readonly name = 'QueueUnavailableError';
  readonly reason: QueueUnavailableReason;
  /** The call: `enqueue`, `getMessage`, `resend`, ... */
  readonly operation: string;

  constructor(reason: QueueUnavailableReason, operation: string, message: string, options?: { readonly cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.operation = operation;
  }
}

/** Replies of a server that cannot serve now (the first word of a Redis error reply). */
const UNAVAILABLE_REPLY = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY|NOREPLICAS|BUSY)\b/;
/** What ioredis rejects a command with when it could not reach a server that answers it. */
const UNAVAILABLE_CLIENT = /^(Connection is closed|Too many Cluster redirections|Failed to refresh slots cache|Reached the max retries per request limit|Stream isn't writeable)/;
/** Socket errors (`error.code`). */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Whether `error` says Redis could not serve a call now (rather than a bug or a bad argument). */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof TypeError || error instanceof RangeError) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) || UNAVAILABLE_REPLY.test(error.message) || UNAVAILABLE_CLIENT.test(error.message);
}

/** The error a call rejects with when Redis could not serve it; any other error as it is. */
const unavailable = (operation: string, error: unknown): unknown =>
  isRedisUnavailable(error)
    ? new QueueUnavailableError('unavailable', operation, `${operation}: Redis could not serve the call (${(error as Error).message}); the call may have taken effect, and may be made again: it is idempotent per key`, { cause: error })
    : error;

/**
 * Awaits `work` for at most `timeoutMs` (`0`: no bound); rejects with a {@link QueueUnavailableError}
 * at the bound (reason `timeout`), or at once when Redis could not serve it (reason `unavailable`).
 */
export function withinBound<T>(operation: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  if (timeoutMs === 0) return work.catch((error: unknown) => Promise.reject(unavailable(operation, error)));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new QueueUnavailableError('timeout', operation, `${operation}: Redis did not answer within ${timeoutMs} ms (operationTimeoutMs); the call may still take effect, and may be made again: it is idempotent per key`)),
      timeoutMs,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(unavailable(operation, error));
      },
    );
  });
}

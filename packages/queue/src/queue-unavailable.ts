/**
 * The time bound of the queue's calls to Redis, and the error a caller gets at the bound: a Redis
 * that stops answering (stalled, down, failing over) makes `enqueue`, `getMessage`, `resend` and
 * the other calls fail with a {@link QueueUnavailableError} instead of waiting for it.
 */

/** Why the queue could not answer. */
export type QueueUnavailableReason =
  /** Redis did not answer within `operationTimeoutMs` (the call may still take effect: calls are idempotent per key). */
  | 'timeout'
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

/** Awaits `work` for at most `timeoutMs` (`0`: no bound); rejects with a {@link QueueUnavailableError} at the bound. */
export function withinBound<T>(operation: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  if (timeoutMs === 0) return work;
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
        reject(error);
      },
    );
  });
}

/**
 * The time bound of a receiver's store calls: a shared store (Redis) that stops answering must not
 * hold a callback past the time the service waits for its answer. A call that has not settled
 * within the bound rejects with a {@link StoreTimeoutError}, and the receiver answers 503 with
 * `Retry-After`; what the call does when it settles late is handed to `late`, so that a
 * reservation or a completed message taken after the answer is given back.
 */

/** Default bound of one store call, in milliseconds: well within the service's wait for an answer. */
export const DEFAULT_STORE_TIMEOUT_MS = 2_000;

/** A store call did not settle within the receiver's `storeTimeoutMs`. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number) {
    super(`${what}: the store did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

/**
 * Awaits `result` (a store call's value or promise) for at most `timeoutMs`. A synchronous value
 * (the in-memory stores) is returned as it is, without a timer. When the bound passes first, the
 * promise rejects with a {@link StoreTimeoutError}; the call's late value then goes to `late`
 * (a late failure is dropped: nothing was taken).
 */
export function withinStoreBound<T>(result: T | PromiseLike<T>, timeoutMs: number, what: string, late?: (value: T) => void): T | Promise<T> {
  if (!isThenable(result)) return result;
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new StoreTimeoutError(what, timeoutMs));
    }, timeoutMs);
    (result as PromiseLike<T>).then(
      (value) => {
        if (!timedOut) {
          clearTimeout(timer);
          resolve(value);
          return;
        }
        if (late === undefined) return;
        try {
          late(value);
        } catch {
          // What is done with a late value must not fail the process.
        }
      },
      (error: unknown) => {
        if (timedOut) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The time bound of reading a callback's body: a peer that sends its body slowly (or not at all)
 * must not hold a receiver's connection for the server's own limit (Node: 300 s). Past the bound
 * the receiver answers 408 with `Connection: close`, which frees the socket.
 */
import type { BodyInput } from '../body/body-text.js';

/** Default bound of reading one body, in milliseconds: a callback's body is at most 64 KiB. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** What {@link readBodyWithin} resolves with when the bound passed first. */
export const BODY_TIMED_OUT: unique symbol = Symbol('body timed out');

/**
 * Awaits a body being read for at most `timeoutMs`; resolves with {@link BODY_TIMED_OUT} at the
 * bound (a late failure of the read is dropped). A body given whole is returned as it is.
 */
export function readBodyWithin(
  read: BodyInput | null | PromiseLike<BodyInput | null>,
  timeoutMs: number,
): BodyInput | null | Promise<BodyInput | null | typeof BODY_TIMED_OUT> {
  if (read === null || typeof (read as { then?: unknown }).then !== 'function') return read as BodyInput | null;
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      resolve(BODY_TIMED_OUT);
    }, timeoutMs);
    (read as PromiseLike<BodyInput | null>).then(
      (body) => {
        if (done) return;
        clearTimeout(timer);
        resolve(body);
      },
      (error: unknown) => {
        if (done) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Why a bounded body read did not return a body (a closed set). */
export type BodyReadErrorCode =
  /** The body is larger than the limit: declared so by `Content-Length`, or more octets arrived. */
  | 'too-large'
  /** The body broke off: its stream failed (the client went away), or it ended before its declared length. */
  | 'aborted'
  /** The body was already read by someone else (a Fetch `Request` whose `bodyUsed` is true). */
  | 'consumed';

/** Options of {@link BodyReadError}. */
export interface BodyReadErrorOptions {
  /** The error the body stream failed with. */
  readonly cause?: unknown;
}

/**
 * Why {@link readBodyStream} or {@link readRequestBody} returned no body. It is a value of their
 * result (a read never rejects), and an `Error` so that a body reader may reject with it.
 */
export class BodyReadError extends Error {
  override readonly name = 'BodyReadError';
  readonly code: BodyReadErrorCode;
  /** The limit the read had, in octets. */
  readonly maxBytes: number;

  constructor(code: BodyReadErrorCode, message: string, maxBytes: number, { cause }: BodyReadErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.maxBytes = maxBytes;
  }
}

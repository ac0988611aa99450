/**
 * The raw body of a request for the receiver: core's Node request reader (what a body parser that
 * ran before the receiver left on the request, else the stream read with the limit), with Express's
 * own advice for a body a parser consumed.
 */
import type { IncomingMessage } from 'node:http';
import { createNodeRequestBodyReader, type BodyReader } from '@smsv4/core';

/** Options of {@link createNodeBodyReader}. */
export interface NodeBodyReaderOptions {
  /**
   * What to tell the user when a body parser consumed the body and left nothing the receiver can
   * read back (the advice depends on the framework that mounted the parser). It ends the message of
   * the `receiver-misconfigured` error.
   */
  readonly consumedAdvice?: string;
}

/** Where the receiver goes in an Express app whose parser left something it cannot read back. */
const EXPRESS_ADVICE = 'mount the receiver before it, or keep req.rawBody';
const EXPRESS_OPTIONS: NodeBodyReaderOptions = Object.freeze({ consumedAdvice: EXPRESS_ADVICE });

/**
 * A {@link BodyReader} for a Node request (express, or any framework on Node's `http`): the body a
 * parser already read (`req.rawBody`, a `Buffer` or string in `req.body`, or parsed JSON written
 * back), else the stream read with the receiver's limit, the rest discarded once it is exceeded.
 */
export function createNodeBodyReader(req: IncomingMessage, options?: NodeBodyReaderOptions): BodyReader {
  // The options of every request the same object: nothing allocated for them per request.
  return createNodeRequestBodyReader(req, options?.consumedAdvice === undefined ? EXPRESS_OPTIONS : options);
}

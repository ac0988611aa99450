/**
 * The raw body of a request for the receiver: taken back from a body parser that ran before the
 * receiver (`express.json()`, `express.text()`, `express.raw()`, or a `verify` hook that kept
 * `req.rawBody`), else read from the stream by core's bounded reader.
 */
import type { IncomingMessage } from 'node:http';
import { WebhookError, createStreamBodyReader, formatOfContentType, type BodyInput, type BodyReader } from '@smsv4/core';

/** What a body parser may have left on the request. */
interface ParsedRequest extends IncomingMessage {
  body?: unknown;
  rawBody?: unknown;
  /** Set by body-parser once it consumed the stream. */
  _body?: boolean;
}

const isBytesOrText = (value: unknown): value is BodyInput => typeof value === 'string' || value instanceof Uint8Array;

/** Options of {@link createNodeBodyReader}. */
export interface NodeBodyReaderOptions {
  /**
   * What to tell the user when a body parser consumed the body and left nothing the receiver can
   * read back (the advice depends on the framework that mounted the parser).
   */
  readonly consumedAdvice?: string;
}

const DEFAULT_ADVICE = 'mount the receiver before it, or keep req.rawBody';

/** The body a parser already read, or `undefined` when the stream is still unread. */
function consumedBody(req: ParsedRequest, advice: string): Promise<BodyInput> | undefined {
  if (req._body !== true && !req.readableEnded) return undefined;
  if (isBytesOrText(req.rawBody)) return Promise.resolve(req.rawBody);
  if (isBytesOrText(req.body)) return Promise.resolve(req.body);
  // express.json() parsed it: its text is gone, the value is written back (repeated members can no longer be seen).
  if (req.body !== null && typeof req.body === 'object' && formatOfContentType(req.headers['content-type']) === 'json') {
    return Promise.resolve(JSON.stringify(req.body));
  }
  return Promise.reject(
    new WebhookError(
      'receiver-misconfigured',
      `the request body was consumed by a body parser whose result the receiver cannot read back: ${advice}`,
    ),
  );
}

/**
 * A {@link BodyReader} for a Node request (express, or any framework on Node's `http`): the body a
 * parser already read (`req.rawBody`, a `Buffer` or string in `req.body`, or parsed JSON written
 * back), else the stream read with the receiver's limit, the rest discarded once it is exceeded.
 */
export function createNodeBodyReader(req: IncomingMessage, { consumedAdvice = DEFAULT_ADVICE }: NodeBodyReaderOptions = {}): BodyReader {
  return (maxBytes) => consumedBody(req, consumedAdvice) ?? createStreamBodyReader(req, { contentLength: req.headers['content-length'] })(maxBytes);
}

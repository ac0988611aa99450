/**
 * The body of a Node request for the receiver, wherever a framework left it: taken back from a body
 * parser that ran before the receiver (body-parser under Express and Nest: `express.json()`,
 * `express.text()`, `express.raw()`, a `verify` hook that kept `req.rawBody`), else read from the
 * stream with the receiver's limit. The request is described by shape: core imports nothing of Node.
 */
import type { BodyInput } from '../body/body-text.js';
import { formatOfContentType } from '../http/media-type.js';
import { readStreamForReceiver } from './body-readers.js';
import { WebhookError } from './webhook-error.js';
import type { BodyReader } from './webhook-handler.js';

/**
 * A Node request (`IncomingMessage`) as a body parser may have left it: the stream of its body,
 * its headers, and what the parser kept (`rawBody`, `body`, body-parser's `_body` flag).
 */
export interface NodeRequestBody extends AsyncIterable<Uint8Array | string> {
  readonly headers: { readonly 'content-type'?: string | undefined; readonly 'content-length'?: string | undefined };
  /** `true` once the stream was read to its end (by a parser, when the receiver has not read it). */
  readonly readableEnded?: boolean;
  /** The raw octets or text a parser kept (a `verify` hook, Nest's `{ rawBody: true }`). */
  readonly rawBody?: unknown;
  /** What a parser left: bytes (`express.raw()`), text (`express.text()`), a parsed value (`express.json()`). */
  readonly body?: unknown;
  /** Set by body-parser once it consumed the stream. */
  readonly _body?: unknown;
}

/** Options of {@link createNodeRequestBodyReader}. */
export interface NodeRequestBodyReaderOptions {
  /**
   * What to tell the user when a body parser consumed the body and left nothing the receiver can
   * read back: the fix depends on the framework that mounted the parser (default: mount the
   * receiver before the parser, or keep `req.rawBody`).
   */
  readonly consumedAdvice?: string;
}

const DEFAULT_ADVICE = 'mount the receiver before it, or keep req.rawBody';

const isBytesOrText = (value: unknown): value is BodyInput => typeof value === 'string' || value instanceof Uint8Array;

/** The body a parser already read, `undefined` when the stream is still unread. */
function consumedBody(req: NodeRequestBody, advice: string): Promise<BodyInput> | undefined {
  if (req._body !== true && req.readableEnded !== true) return undefined;
  if (isBytesOrText(req.rawBody)) return Promise.resolve(req.rawBody);
  const { body } = req;
  if (isBytesOrText(body)) return Promise.resolve(body);
  // A JSON parser parsed it: its text is gone, the value is written back (a repeated member can no longer be seen).
  if (body !== null && typeof body === 'object' && formatOfContentType(req.headers['content-type']) === 'json') {
    return Promise.resolve(JSON.stringify(body));
  }
  return Promise.reject(
    new WebhookError('receiver-misconfigured', `the request body was consumed by a body parser whose result the receiver cannot read back: ${advice}`),
  );
}

/**
 * A {@link BodyReader} for a Node request (Express, Nest on Express, any framework on Node's
 * `http`): the body a parser already read (`req.rawBody`, bytes or text in `req.body`, or parsed
 * JSON written back), else the stream read as `createStreamBodyReader` reads it, with the receiver's
 * limit (its `Content-Length` checked first). A parser that consumed the body into something else
 * (an XML parser's object) rejects with a `WebhookError` of code `receiver-misconfigured` whose
 * message ends with `consumedAdvice` (answered 500, so the service retries once the setup is fixed).
 *
 * @example
 * createServer(async (req, res) => {
 *   const answer = await receiver.handle({ method: req.method ?? '', headers: req.headers, body: createNodeRequestBodyReader(req) });
 *   res.writeHead(answer.status, answer.headers).end(answer.body);
 * });
 */
export function createNodeRequestBodyReader(req: NodeRequestBody, { consumedAdvice = DEFAULT_ADVICE }: NodeRequestBodyReaderOptions = {}): BodyReader {
  return (maxBytes) => consumedBody(req, consumedAdvice) ?? readStreamForReceiver(req, maxBytes, req.headers['content-length'], consumedAdvice);
}

/**
 * The raw body of a callback for the webhook controller: taken back from what Nest's body parsers
 * left on the request (`req.rawBody` with `{ rawBody: true }`, a string or bytes from
 * `useBodyParser('text' | 'raw')`, or parsed JSON written back), else read from the stream by
 * core's bounded reader.
 */
import type { IncomingMessage } from 'node:http';
import { WebhookError, createStreamBodyReader, formatOfContentType, type BodyInput, type BodyReader } from '@smsv4/core';

/** What Nest's body parsers (body-parser under the Express platform) may have left on the request. */
interface ParsedRequest extends IncomingMessage {
  body?: unknown;
  rawBody?: unknown;
  /** Set by body-parser once it consumed the stream. */
  _body?: boolean;
}

/** What to do when Nest's JSON parser consumed a webhook body without keeping the raw text. */
const NEST_CONSUMED_ADVICE = 'create the application with { rawBody: true }, or do not parse this route';

const isBytesOrText = (value: unknown): value is BodyInput => typeof value === 'string' || value instanceof Uint8Array;

/** The body a parser already read, or `undefined` when the stream is still unread. */
function consumedBody(req: ParsedRequest): Promise<BodyInput> | undefined {
  if (req._body !== true && !req.readableEnded) return undefined;
  if (isBytesOrText(req.rawBody)) return Promise.resolve(req.rawBody);
  if (isBytesOrText(req.body)) return Promise.resolve(req.body);
  // Nest's default JSON parser parsed it: its text is gone, the value is written back (repeated members can no longer be seen).
  if (req.body !== null && typeof req.body === 'object' && formatOfContentType(req.headers['content-type']) === 'json') {
    return Promise.resolve(JSON.stringify(req.body));
  }
  return Promise.reject(
    new WebhookError('receiver-misconfigured', `the request body was consumed by a body parser whose result the receiver cannot read back: ${NEST_CONSUMED_ADVICE}`),
  );
}

/** A core `BodyReader` for a request that reached the webhook controller. */
export function createNestBodyReader(req: IncomingMessage): BodyReader {
  return (maxBytes) => consumedBody(req) ?? createStreamBodyReader(req, { contentLength: req.headers['content-length'] })(maxBytes);
}

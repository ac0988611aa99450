/**
 * The body readers of the receiver: core's bounded reads, shaped as the {@link BodyReader} that
 * `createWebhookHandler` calls with its limit. Framework adapters hand one to `handle`.
 */
import type { BodyReadError } from '../body/body-read-error.js';
import type { ContentLength } from '../body/declared-length.js';
import { readBodyStream } from '../body/read-body-stream.js';
import { readRequestBody } from '../body/read-request-body.js';
import type { Result } from '../result.js';
import { WebhookError } from './webhook-error.js';
import type { BodyReader } from './webhook-handler.js';

/** Options of both body readers. */
export interface ReceiverBodyReaderOptions {
  /**
   * What to tell the user when something read the body before the receiver: the fix depends on the
   * framework (default: mount the receiver before anything that reads the body).
   */
  readonly consumedAdvice?: string;
}

/** Options of {@link createStreamBodyReader}. */
export interface StreamBodyReaderOptions extends ReceiverBodyReaderOptions {
  /** The request's `Content-Length` header, if any. */
  readonly contentLength?: ContentLength;
}

const DEFAULT_ADVICE = 'mount the receiver before anything that reads the body';

/** A read's outcome as the receiver takes it: the octets, `null` when too large, else a rejection (answered 400, or 500 when misconfigured). */
function receiverBody(result: Result<Uint8Array, BodyReadError>, consumedAdvice: string): Uint8Array | null {
  if (result.ok) return result.value;
  const { error } = result;
  if (error.code === 'too-large') return null;
  if (error.code === 'consumed') throw new WebhookError('receiver-misconfigured', `the request body was read before the receiver: ${consumedAdvice}`, { cause: error });
  throw error;
}

/** Reads a stream for the receiver: {@link readBodyStream} with its limit, the outcome as the receiver takes it. */
export function readStreamForReceiver(source: AsyncIterable<Uint8Array | string>, maxBytes: number, contentLength: ContentLength | undefined, consumedAdvice: string): Promise<Uint8Array | null> {
  return readBodyStream(source, { maxBytes, contentLength }).then((result) => receiverBody(result, consumedAdvice));
}

/**
 * A {@link BodyReader} over any async iterable of octets (a Node `IncomingMessage`, Fastify's
 * `request.raw`): {@link readBodyStream} with the receiver's limit.
 *
 * @example
 * const answer = await receiver.handle({
 *   method: req.method ?? '',
 *   headers: req.headers,
 *   body: createStreamBodyReader(req, { contentLength: req.headers['content-length'] }),
 * });
 */
export function createStreamBodyReader(source: AsyncIterable<Uint8Array | string>, { contentLength, consumedAdvice = DEFAULT_ADVICE }: StreamBodyReaderOptions = {}): BodyReader {
  return (maxBytes) => readStreamForReceiver(source, maxBytes, contentLength, consumedAdvice);
}

/**
 * A {@link BodyReader} over a Fetch `Request`: {@link readRequestBody} with the receiver's limit.
 * A body something else already read rejects with a `WebhookError` of code
 * `receiver-misconfigured` whose message ends with `consumedAdvice` (answered 500, so the service
 * retries once the setup is fixed).
 *
 * @example
 * app.post('/sms/callbacks', async (c) => {
 *   const request = c.req.raw;
 *   const answer = await receiver.handle({ method: request.method, headers: request.headers, body: createRequestBodyReader(request) });
 *   return new Response(answer.body, { status: answer.status, headers: answer.headers });
 * });
 */
export function createRequestBodyReader(request: Request, { consumedAdvice = DEFAULT_ADVICE }: ReceiverBodyReaderOptions = {}): BodyReader {
  return (maxBytes) => readRequestBody(request, { maxBytes }).then((result) => receiverBody(result, consumedAdvice));
}

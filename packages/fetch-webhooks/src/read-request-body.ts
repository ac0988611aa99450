/**
 * The raw body of a Fetch `Request` for the receiver: core's bounded reader, with the advice this
 * adapter gives when something read the body before the receiver.
 */
import { createRequestBodyReader, type BodyReader } from '@smsv4/core';

const ADVICE = 'hand the receiver the Request before anything reads its body (in Hono: c.req.raw, before c.req.json() or a validator)';

/** A {@link BodyReader} over a Fetch `Request`: Content-Length first, then the stream, cancelled once past the limit. */
export function createFetchBodyReader(request: Request): BodyReader {
  return createRequestBodyReader(request, { consumedAdvice: ADVICE });
}

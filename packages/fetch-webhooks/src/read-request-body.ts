/**
 * The raw body of a Fetch `Request`, read with the receiver's limit: the stream is read chunk by
 * chunk and cancelled once more than `maxBytes` arrived, so an oversized body is never buffered.
 */
import { WebhookError, type BodyReader } from '@smsv4/core';

const ADVICE = 'hand the receiver the Request before anything reads its body (in Hono: c.req.raw, before c.req.json() or a validator)';

/** A {@link BodyReader} over a Fetch `Request`. */
export function createRequestBodyReader(request: Request): BodyReader {
  return async (maxBytes) => {
    if (request.bodyUsed) throw new WebhookError('receiver-misconfigured', `the request body was read before the receiver: ${ADVICE}`);
    const stream = request.body;
    if (stream === null) return new Uint8Array(0);
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          return null;
        }
        chunks.push(value);
      }
    } finally {
      reader.releaseLock();
    }
    if (chunks.length === 1) return chunks[0] as Uint8Array;
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return body;
  };
}

/**
 * Reads the body of a Fetch `Request` (Hono, Bun, Deno, Cloudflare Workers, the sandbox) or of a
 * Fetch `Response` (the client reading the service's answers) with a size bound: `Content-Length`
 * is checked first, and no more than `maxBytes` octets are ever held.
 */
import { err } from '../result.js';
import { BodyReadError } from './body-read-error.js';
import { arrivedTooLarge, brokeOff, Chunks, notOctets, octets, tooLarge, type BodyResult } from './chunks.js';
import { checkMaxBytes, declaredLength } from './declared-length.js';

/** Options of {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  /** Largest body accepted, in octets. */
  readonly maxBytes: number;
}

/**
 * What {@link readRequestBody} reads: a Fetch `Request` or `Response` (described by shape, so that
 * any runtime's own classes fit).
 */
export interface FetchBody {
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyUsed: boolean;
}

const ignore = (): void => undefined;

/**
 * Reads the body of a Fetch `Request` or `Response`, at most `maxBytes` octets. A `Content-Length`
 * above the limit answers `too-large` at once and cancels the body unread. Any other body is read
 * chunk by chunk and cancelled as soon as it grows past the limit, whatever its `Content-Length`
 * said (a `Request` built in the same process may declare less than it carries). A body that ends
 * short of its declared length, or whose stream fails (the client went away), answers `aborted`;
 * a body that was already read (or is locked to another reader) answers `consumed`. The result is never a rejection (a limit that is
 * not a non-negative integer is a programmer's error: `TypeError`). A body of one chunk is returned
 * as that chunk, not copied.
 *
 * @example
 * // In a Fetch handler (Hono, Bun.serve, a Worker):
 * const body = await readRequestBody(request, { maxBytes: 64 * 1024 });
 * if (!body.ok) return new Response(null, { status: body.error.code === 'too-large' ? 413 : 400 });
 * const text = new TextDecoder().decode(body.value);
 */
export async function readRequestBody(message: FetchBody, { maxBytes }: ReadRequestBodyOptions): Promise<BodyResult> {
  checkMaxBytes(maxBytes);
  const stream = message.body;
  // A body read (or being read) by someone else.
  if (message.bodyUsed || stream?.locked === true) return err(new BodyReadError('consumed', 'the body was already read', maxBytes));
  const declared = declaredLength(message.headers.get('content-length'));
  if (declared !== undefined && declared > maxBytes) {
    void stream?.cancel().catch(ignore);
    return err(tooLarge(maxBytes, `Content-Length: ${declared}`));
  }
  const chunks = new Chunks();
  if (stream === null) return chunks.end(maxBytes, declared);
  const reader = stream.getReader();
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done === true) return chunks.end(maxBytes, declared);
      // A runtime's body yields octets; a stream made by hand may yield text (encoded as UTF-8) or anything else.
      const chunk = octets(step.value);
      if (chunk === undefined) {
        void reader.cancel().catch(ignore);
        return err(brokeOff(maxBytes, chunks.size, notOctets(step.value)));
      }
      if (!chunks.add(chunk, maxBytes)) {
        void reader.cancel().catch(ignore);
        return err(arrivedTooLarge(maxBytes));
      }
    }
  } catch (cause) {
    return err(brokeOff(maxBytes, chunks.size, cause));
  } finally {
    reader.releaseLock();
  }
}

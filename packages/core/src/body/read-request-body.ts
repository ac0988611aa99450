/**
 * Reads the body of a Fetch `Request` (Hono, Bun, Deno, Cloudflare Workers, the sandbox) with a
 * size bound: `Content-Length` is checked first, and no more than `maxBytes` octets are ever held.
 */
import { err, ok, type Result } from '../result.js';
import { BodyReadError } from './body-read-error.js';
import { checkMaxBytes, declaredLength, joinChunks } from './declared-length.js';

/** Options of {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  /** Largest body accepted, in octets. */
  readonly maxBytes: number;
}

const EMPTY = new Uint8Array(0);

const tooLarge = (maxBytes: number, received: string): BodyReadError =>
  new BodyReadError('too-large', `the body is larger than ${maxBytes} bytes (${received})`, maxBytes);
const aborted = (maxBytes: number, size: number, cause: unknown): BodyReadError =>
  new BodyReadError('aborted', `the body broke off after ${size} bytes`, maxBytes, { cause });

/**
 * Reads a request's body, at most `maxBytes` octets. A `Content-Length` above the limit answers
 * `too-large` at once and cancels the body unread; a body without a declared length is read chunk
 * by chunk and cancelled as soon as it grows past the limit. A declared length within the limit is
 * read in one go (HTTP framing holds the body to it, and a runtime may then skip its Web stream),
 * and checked again once read. A body that was already read answers `consumed`; a stream that
 * fails (the client went away) answers `aborted`. The result is never a rejection.
 *
 * @example
 * // In a Fetch handler (Hono, Bun.serve, a Worker):
 * const body = await readRequestBody(request, { maxBytes: 64 * 1024 });
 * if (!body.ok) return new Response(null, { status: body.error.code === 'too-large' ? 413 : 400 });
 * const text = new TextDecoder().decode(body.value);
 */
export async function readRequestBody(request: Request, { maxBytes }: ReadRequestBodyOptions): Promise<Result<Uint8Array, BodyReadError>> {
  checkMaxBytes(maxBytes);
  if (request.bodyUsed) return err(new BodyReadError('consumed', 'the request body was already read', maxBytes));
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared !== undefined && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return err(tooLarge(maxBytes, `Content-Length: ${declared}`));
  }
  if (declared !== undefined) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await request.arrayBuffer());
    } catch (cause) {
      return err(aborted(maxBytes, 0, cause));
    }
    if (bytes.byteLength > maxBytes) return err(tooLarge(maxBytes, `more than ${maxBytes} bytes arrived`));
    if (bytes.byteLength < declared) {
      return err(new BodyReadError('aborted', `the body ended after ${bytes.byteLength} of the ${declared} bytes its Content-Length declared`, maxBytes));
    }
    return ok(bytes);
  }
  if (request.body === null) return ok(EMPTY);
  const reader = request.body.getReader();
  let first: Uint8Array | undefined;
  let chunks: Uint8Array[] | undefined;
  let size = 0;
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      const chunk = step.value;
      size += chunk.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return err(tooLarge(maxBytes, `more than ${maxBytes} bytes arrived`));
      }
      if (first === undefined) first = chunk;
      else if (chunks === undefined) chunks = [first, chunk];
      else chunks.push(chunk);
    }
  } catch (cause) {
    return err(aborted(maxBytes, size, cause));
  } finally {
    reader.releaseLock();
  }
  if (first === undefined) return ok(EMPTY);
  return ok(chunks === undefined ? first : joinChunks(chunks, size));
}

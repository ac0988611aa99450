/**
 * Reads a body from any async iterable of octets (a Node `IncomingMessage` is one, so is a Web
 * `ReadableStream` where the runtime makes it iterable) with a size bound: `Content-Length` is
 * checked first, and no more than `maxBytes` octets are ever held.
 */
import { err } from '../result.js';
import { BodyReadError } from './body-read-error.js';
import { arrivedTooLarge, brokeOff, Chunks, notOctets, octets, tooLarge, type BodyResult } from './chunks.js';
import { checkMaxBytes, declaredLength, type ContentLength } from './declared-length.js';

/** Options of {@link readBodyStream}. */
export interface ReadBodyStreamOptions {
  /** Largest body accepted, in octets. */
  readonly maxBytes: number;
  /** The request's `Content-Length` header, if any: a declared length above `maxBytes` is refused without reading. */
  readonly contentLength?: ContentLength;
}

/**
 * A stream that also tells its chunks through events, as Node's readable streams do (described by
 * shape only: core imports nothing of Node).
 */
interface EventStream {
  on(event: 'data', listener: (chunk: unknown) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  readonly readableEnded: boolean;
  readonly destroyed?: boolean;
}

const ignore = (): void => undefined;

const isEventStream = (source: object): source is EventStream =>
  typeof (source as { on?: unknown }).on === 'function' && typeof (source as { readableEnded?: unknown }).readableEnded === 'boolean';

/**
 * Reads the rest of a body and drops it, in the background. A Node request must be read to its
 * end for its connection to carry the answer (ending the iteration early would destroy the
 * socket), so an oversized body is discarded rather than cancelled.
 */
function discard(iterator: AsyncIterator<unknown>): void {
  void (async () => {
    try {
      while ((await iterator.next()).done !== true);
    } catch {
      // The peer went away: nothing is left to discard.
    }
  })();
}

/** Reads through the async iterator protocol. */
async function readIterated(source: AsyncIterable<unknown>, maxBytes: number, declared: number | undefined): Promise<BodyResult> {
  const iterator = source[Symbol.asyncIterator]();
  if (declared !== undefined && declared > maxBytes) {
    discard(iterator);
    return err(tooLarge(maxBytes, `Content-Length: ${declared}`));
  }
  const chunks = new Chunks();
  for (;;) {
    let step: IteratorResult<unknown>;
    try {
      step = await iterator.next();
    } catch (cause) {
      return err(brokeOff(maxBytes, chunks.size, cause));
    }
    if (step.done === true) return chunks.end(maxBytes, declared);
    const chunk = octets(step.value);
    if (chunk === undefined) throw notOctets(step.value);
    if (!chunks.add(chunk, maxBytes)) {
      discard(iterator);
      return err(arrivedTooLarge(maxBytes));
    }
  }
}

/**
 * Reads through `data` / `end` / `error` / `close` events: for a Node stream, the same bytes as
 * its async iterator with less work per request. Chunks past the limit are dropped as they come
 * (the stream keeps flowing to its end, so the connection can carry the answer).
 */
function readEmitted(source: EventStream, maxBytes: number, declared: number | undefined): Promise<BodyResult> {
  if (source.readableEnded) return Promise.resolve(err(new BodyReadError('consumed', 'the body stream was already read to its end', maxBytes)));
  if (source.destroyed === true) return Promise.resolve(err(brokeOff(maxBytes, 0, undefined)));
  if (declared !== undefined && declared > maxBytes) {
    source.on('error', ignore);
    source.on('data', ignore);
    return Promise.resolve(err(tooLarge(maxBytes, `Content-Length: ${declared}`)));
  }
  return new Promise((resolve, reject) => {
    const chunks = new Chunks();
    // A promise settles once: events after the first outcome (the 'close' that follows 'end',
    // data past the limit) change nothing, so no listener needs removing on the hot path.
    let settled = false;
    source.on('data', (value) => {
      if (settled) return;
      const chunk = octets(value);
      if (chunk === undefined) {
        settled = true;
        reject(notOctets(value));
      } else if (!chunks.add(chunk, maxBytes)) {
        settled = true;
        resolve(err(arrivedTooLarge(maxBytes)));
      }
    });
    source.on('end', () => {
      if (!settled) resolve(chunks.end(maxBytes, declared));
    });
    source.on('error', (cause) => {
      if (!settled) resolve(err(brokeOff(maxBytes, chunks.size, cause)));
    });
    source.on('close', () => {
      // 'close' follows 'end' on every complete body: only a body that broke off is an error (and only then is one built).
      if (!source.readableEnded && !settled) resolve(err(brokeOff(maxBytes, chunks.size, undefined)));
    });
  });
}

/**
 * Reads a body from an async iterable of chunks, at most `maxBytes` octets. A `contentLength`
 * above the limit answers `too-large` at once, without reading; a body that grows past the limit
 * answers `too-large` as soon as it does, the chunks read so far dropped and the rest read and
 * discarded in the background (a Node request must be read to its end for its connection to carry
 * the answer). A stream that fails (the client went away), or ends before its declared length,
 * answers `aborted`; a Node stream already read to its end answers `consumed`. The result is never
 * a rejection (a chunk that is neither octets nor text is a programmer's error: `TypeError`). A
 * body of one chunk is returned as that chunk, not copied.
 *
 * A Node stream (a source with `on()` and `readableEnded`) is read through its `data` events rather
 * than its async iterator: the same outcome, with less work per request on Node.
 *
 * @example
 * // A Node request (express, Fastify's `request.raw`, `node:http`):
 * const body = await readBodyStream(req, { maxBytes: 64 * 1024, contentLength: req.headers['content-length'] });
 * if (!body.ok) return res.writeHead(body.error.code === 'too-large' ? 413 : 400).end();
 * const text = new TextDecoder().decode(body.value);
 */
export function readBodyStream(source: AsyncIterable<Uint8Array | string>, { maxBytes, contentLength }: ReadBodyStreamOptions): Promise<BodyResult> {
  try {
    checkMaxBytes(maxBytes);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const declared = declaredLength(contentLength);
  return isEventStream(source) ? readEmitted(source, maxBytes, declared) : readIterated(source, maxBytes, declared);
}

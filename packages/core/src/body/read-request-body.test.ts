import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRequestBody } from './read-request-body.js';

const URL_ = 'http://127.0.0.1/callbacks';
const bytes = (...values: number[]): Uint8Array<ArrayBuffer> => new Uint8Array(values);
const concat = (chunks: readonly Uint8Array[]): Uint8Array => new Uint8Array(chunks.flatMap((c) => [...c]));

/** A streamed body (no declared length) that records whether it was cancelled. */
function streamOf(chunks: readonly Uint8Array[], { failAfter }: { failAfter?: number } = {}) {
  const state = { pulled: 0, cancelled: false };
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && i === failAfter) {
        controller.error(new Error('socket hang up'));
        return;
      }
      if (i >= chunks.length) {
        controller.close();
        return;
      }
      state.pulled++;
      controller.enqueue(chunks[i++] as Uint8Array);
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}): Request =>
  new Request(URL_, { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);

describe('readRequestBody', () => {
  it('returns the octets of any streamed body within the limit, and too-large past it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 8 }), fc.nat(200), async (chunks, maxBytes) => {
        const whole = concat(chunks);
        const result = await readRequestBody(post(streamOf(chunks).stream), { maxBytes });
        if (whole.byteLength <= maxBytes) expect(result).toEqual({ ok: true, value: whole });
        else expect(!result.ok && result.error.code).toBe('too-large');
      }),
    );
  });

  it('takes exactly maxBytes octets and refuses one more, with or without a declared length', async () => {
    expect(await readRequestBody(post(bytes(1, 2, 3)), { maxBytes: 3 })).toEqual({ ok: true, value: bytes(1, 2, 3) });
    expect(await readRequestBody(post(streamOf([bytes(1, 2), bytes(3)]).stream), { maxBytes: 3 })).toEqual({ ok: true, value: bytes(1, 2, 3) });
    const declared = await readRequestBody(post(bytes(1, 2, 3, 4), { 'content-length': '4' }), { maxBytes: 3 });
    expect(!declared.ok && declared.error).toMatchObject({ name: 'BodyReadError', code: 'too-large', maxBytes: 3, message: 'the body is larger than 3 bytes (Content-Length: 4)' });
  });

  it('cancels a streamed body as soon as it passes the limit', async () => {
    const { stream, state } = streamOf([bytes(1, 2), bytes(3, 4), bytes(5), bytes(6)]);
    const result = await readRequestBody(post(stream), { maxBytes: 3 });
    expect(!result.ok && result.error.message).toBe('the body is larger than 3 bytes (more than 3 bytes arrived)');
    expect(state).toEqual({ pulled: 2, cancelled: true });
  });

  it('refuses a Content-Length above the limit without reading, and cancels the body', async () => {
    const { stream, state } = streamOf([bytes(1), bytes(2)]);
    const result = await readRequestBody(post(stream, { 'content-length': '2' }), { maxBytes: 1 });
    expect(!result.ok && result.error.code).toBe('too-large');
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  it('reads a body within the limit whatever its declared length, and cancels it once past the limit though it declared less', async () => {
    // A Request built in the same process may declare less than it carries: the limit holds all the same.
    const lying = streamOf(Array.from({ length: 1000 }, () => bytes(1, 2)));
    const result = await readRequestBody(post(lying.stream, { 'content-length': '2' }), { maxBytes: 5 });
    expect(!result.ok && result.error.message).toBe('the body is larger than 5 bytes (more than 5 bytes arrived)');
    expect(lying.state).toEqual({ pulled: 3, cancelled: true });
    // Within the limit, the octets that came are the body (lenient on what is received).
    expect(await readRequestBody(post(streamOf([bytes(1, 2), bytes(3)]).stream, { 'content-length': '2' }), { maxBytes: 5 })).toEqual({ ok: true, value: bytes(1, 2, 3) });
  });

  it('reads a Fetch Response the same way: its octets, too-large declared or streamed (cancelled early), aborted, consumed', async () => {
    const response = (body: BodyInit | null, headers: Record<string, string> = {}): Response => new Response(body, { headers });
    expect(await readRequestBody(response(bytes(1, 2, 3)), { maxBytes: 3 })).toEqual({ ok: true, value: bytes(1, 2, 3) });
    expect(await readRequestBody(response(null), { maxBytes: 0 })).toEqual({ ok: true, value: new Uint8Array(0) });
    const declared = streamOf([bytes(1), bytes(2)]);
    const refused = await readRequestBody(response(declared.stream, { 'content-length': '5000' }), { maxBytes: 1024 });
    expect(!refused.ok && refused.error.message).toBe('the body is larger than 1024 bytes (Content-Length: 5000)');
    expect(declared.state).toEqual({ pulled: 0, cancelled: true });
    const lying = streamOf(Array.from({ length: 1000 }, () => new Uint8Array(1024)));
    const over = await readRequestBody(response(lying.stream, { 'content-length': '10' }), { maxBytes: 2048 });
    expect(!over.ok && over.error.code).toBe('too-large');
    expect(lying.state).toEqual({ pulled: 3, cancelled: true });
    const failing = await readRequestBody(response(streamOf([bytes(1, 2), bytes(3)], { failAfter: 1 }).stream), { maxBytes: 10 });
    expect(!failing.ok && failing.error).toMatchObject({ code: 'aborted', message: 'the body broke off after 2 bytes' });
    const read = response('{}');
    await read.text();
    expect(await readRequestBody(read, { maxBytes: 10 })).toMatchObject({ ok: false, error: { code: 'consumed' } });
  });

  it('answers consumed for a body locked to another reader; takes text chunks as UTF-8, and answers aborted for a chunk that is neither', async () => {
    const locked = post(streamOf([bytes(1)]).stream);
    locked.body?.getReader();
    expect(await readRequestBody(locked, { maxBytes: 10 })).toMatchObject({ ok: false, error: { code: 'consumed' } });
    const made = (...chunks: unknown[]) => ({
      headers: new Headers(),
      body: new ReadableStream<unknown>({ start: (controller) => (chunks.forEach((c) => controller.enqueue(c)), controller.close()) }) as ReadableStream<Uint8Array>,
      bodyUsed: false,
    });
    // A stream made by hand: text is taken as UTF-8, anything else is no body.
    expect(await readRequestBody(made('{"a":', '"\u00e9"}'), { maxBytes: 11 })).toEqual({ ok: true, value: new TextEncoder().encode('{"a":"\u00e9"}') });
    const result = await readRequestBody(made(bytes(1), 42), { maxBytes: 10 });
    expect(!result.ok && result.error).toMatchObject({ code: 'aborted', message: 'the body broke off after 1 bytes' });
    expect(!result.ok && (result.error.cause as Error)).toBeInstanceOf(TypeError);
    expect(!result.ok && (result.error.cause as Error).message).toBe('a body stream must yield Uint8Array or string chunks, got number');
  });

  it('answers aborted when the stream fails mid-body, with or without a declared length', async () => {
    for (const headers of [{}, { 'content-length': '3' }] as Array<Record<string, string>>) {
      const result = await readRequestBody(post(streamOf([bytes(1, 2), bytes(3)], { failAfter: 1 }).stream, headers), { maxBytes: 10 });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('aborted');
      expect(result.error.cause).toBeInstanceOf(Error);
    }
  });

  it('answers aborted when the body ends before its declared length', async () => {
    const result = await readRequestBody(post(streamOf([bytes(1, 2)]).stream, { 'content-length': '5' }), { maxBytes: 10 });
    expect(!result.ok && result.error.message).toBe('the body ended after 2 of the 5 bytes its Content-Length declared');
  });

  it('answers consumed when the body was already read', async () => {
    const request = post('{}');
    await request.text();
    const result = await readRequestBody(request, { maxBytes: 10 });
    expect(!result.ok && result.error.code).toBe('consumed');
  });

  it('returns an empty body for a request without one', async () => {
    expect(await readRequestBody(new Request(URL_), { maxBytes: 0 })).toEqual({ ok: true, value: new Uint8Array(0) });
  });

  it('treats a bad limit as a TypeError', async () => {
    await expect(readRequestBody(post('x'), { maxBytes: Number.POSITIVE_INFINITY })).rejects.toThrow(TypeError);
  });
});

import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyReadError } from './body-read-error.js';
import { readBodyStream } from './read-body-stream.js';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const concat = (chunks: readonly Uint8Array[]): Uint8Array => new Uint8Array(chunks.flatMap((c) => [...c]));

/** An async iterable over chunks that records how far it was read and whether it was ended early. */
function source(chunks: readonly Uint8Array[], { failAfter }: { failAfter?: number } = {}) {
  const state = { pulled: 0, finished: false, returned: false };
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        async next() {
          await Promise.resolve();
          if (failAfter !== undefined && i === failAfter) throw new Error('socket hang up');
          if (i >= chunks.length) {
            state.finished = true;
            return { done: true, value: undefined };
          }
          state.pulled++;
          return { done: false, value: chunks[i++] as Uint8Array };
        },
        async return() {
          state.returned = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, state };
}

/** A body whose chunks are pushed by the test, to see when the read settles. */
function pushed() {
  const queue: Array<IteratorResult<Uint8Array>> = [];
  let wake: (() => void) | undefined;
  let pulls = 0;
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        pulls++;
        while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return queue.shift() as IteratorResult<Uint8Array>;
      },
    }),
  };
  const push = (value?: Uint8Array): void => {
    queue.push(value === undefined ? { done: true, value: undefined } : { done: false, value });
    wake?.();
  };
  return { iterable, push, pulls: () => pulls };
}

describe('readBodyStream', () => {
  it('returns the octets of any split of a body within the limit, and too-large past it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), fc.nat(200), async (chunks, maxBytes) => {
        const whole = concat(chunks);
        const result = await readBodyStream(source(chunks).iterable, { maxBytes });
        if (whole.byteLength <= maxBytes) expect(result).toEqual({ ok: true, value: whole });
        else expect(!result.ok && result.error.code).toBe('too-large');
      }),
    );
  });

  it('takes exactly maxBytes octets and refuses one more', async () => {
    expect(await readBodyStream(source([bytes(1, 2), bytes(3)]).iterable, { maxBytes: 3 })).toEqual({ ok: true, value: bytes(1, 2, 3) });
    const over = await readBodyStream(source([bytes(1, 2), bytes(3, 4)]).iterable, { maxBytes: 3 });
    expect(over.ok).toBe(false);
    if (over.ok) return;
    expect(over.error).toBeInstanceOf(BodyReadError);
    expect(over.error).toMatchObject({ name: 'BodyReadError', code: 'too-large', maxBytes: 3 });
    expect(over.error.message).toBe('the body is larger than 3 bytes (more than 3 bytes arrived)');
  });

  it('returns a one-chunk body as that chunk, without copying it', async () => {
    const chunk = bytes(7, 8, 9);
    const result = await readBodyStream(source([chunk]).iterable, { maxBytes: 10 });
    expect(result.ok && result.value).toBe(chunk);
  });

  it('returns an empty body for a stream without chunks', async () => {
    expect(await readBodyStream(source([]).iterable, { maxBytes: 0 })).toEqual({ ok: true, value: new Uint8Array(0) });
  });

  it('refuses a Content-Length above the limit before reading a chunk, and discards the body', async () => {
    const { iterable, state } = source([bytes(1), bytes(2), bytes(3)]);
    const result = await readBodyStream(iterable, { maxBytes: 2, contentLength: '3' });
    expect(!result.ok && result.error.message).toBe('the body is larger than 2 bytes (Content-Length: 3)');
    // Discarded in the background: read to its end, never ended early (a Node request would lose its socket).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state).toEqual({ pulled: 3, finished: true, returned: false });
  });

  it('settles as soon as the limit is passed, holding nothing more, and discards the rest', async () => {
    const body = pushed();
    const reading = readBodyStream(body.iterable, { maxBytes: 4 });
    body.push(bytes(1, 2, 3));
    body.push(bytes(4, 5));
    const result = await reading;
    expect(!result.ok && result.error.code).toBe('too-large');
    const pullsAtAnswer = body.pulls();
    body.push(bytes(6));
    body.push();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(body.pulls()).toBeGreaterThan(pullsAtAnswer);
  });

  it('answers aborted when the stream fails mid-body, with the failure as cause', async () => {
    const result = await readBodyStream(source([bytes(1, 2), bytes(3)], { failAfter: 1 }).iterable, { maxBytes: 10 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('aborted');
    expect(result.error.message).toBe('the body broke off after 2 bytes');
    expect((result.error.cause as Error).message).toBe('socket hang up');
  });

  it('answers aborted when the stream ends before its declared length', async () => {
    const result = await readBodyStream(source([bytes(1, 2)]).iterable, { maxBytes: 10, contentLength: '5' });
    expect(!result.ok && result.error.message).toBe('the body ended after 2 of the 5 bytes its Content-Length declared');
  });

  it('ignores a Content-Length that is not a length, and takes one as a number', async () => {
    for (const contentLength of ['abc', '-1', '1e3', '', null, undefined, Number.NaN]) {
      expect(await readBodyStream(source([bytes(1)]).iterable, { maxBytes: 4, contentLength })).toEqual({ ok: true, value: bytes(1) });
    }
    expect((await readBodyStream(source([bytes(1)]).iterable, { maxBytes: 4, contentLength: 9 })).ok).toBe(false);
    expect((await readBodyStream(source([bytes(1)]).iterable, { maxBytes: 4, contentLength: ' 1 ' })).ok).toBe(true);
  });

  it('encodes text chunks as UTF-8 (a Node stream with an encoding set)', async () => {
    async function* text() {
      yield 'h\u00e9';
      yield '!';
    }
    expect(await readBodyStream(text(), { maxBytes: 4 })).toEqual({ ok: true, value: bytes(0x68, 0xc3, 0xa9, 0x21) });
    expect((await readBodyStream(text(), { maxBytes: 3 })).ok).toBe(false);
  });

  it('treats misuse as a TypeError: a bad limit, a chunk that is not octets', async () => {
    await expect(readBodyStream(source([]).iterable, { maxBytes: -1 })).rejects.toThrow(TypeError);
    await expect(readBodyStream(source([]).iterable, { maxBytes: 1.5 })).rejects.toThrow(TypeError);
    async function* numbers() {
      yield 1 as unknown as Uint8Array;
    }
    await expect(readBodyStream(numbers(), { maxBytes: 4 })).rejects.toThrow('a body stream must yield Uint8Array or string chunks, got number');
  });
});

describe('readBodyStream on a Node stream (read through its events)', () => {
  const stream = (): PassThrough => new PassThrough();

  it('returns the octets of a body within the limit, joined from its chunks', async () => {
    const body = stream();
    const reading = readBodyStream(body, { maxBytes: 4, contentLength: '4' });
    body.write(bytes(1, 2));
    body.end(bytes(3, 4));
    expect(await reading).toEqual({ ok: true, value: bytes(1, 2, 3, 4) });
  });

  it('answers too-large once the limit is passed, and keeps the stream flowing to its end', async () => {
    const body = stream();
    const reading = readBodyStream(body, { maxBytes: 3 });
    body.write(bytes(1, 2));
    body.write(bytes(3, 4));
    const result = await reading;
    expect(!result.ok && result.error.code).toBe('too-large');
    const ended = new Promise((resolve) => body.once('end', resolve));
    body.end(new Uint8Array(1 << 20));
    await ended;
  });

  it('refuses a Content-Length above the limit without holding a chunk, and drains the stream', async () => {
    const body = stream();
    const result = await readBodyStream(body, { maxBytes: 3, contentLength: '10' });
    expect(!result.ok && result.error.message).toBe('the body is larger than 3 bytes (Content-Length: 10)');
    const ended = new Promise((resolve) => body.once('end', resolve));
    body.end(new Uint8Array(10));
    await ended;
  });

  it('answers aborted when the stream fails mid-body, with the failure as cause, and when it closes early', async () => {
    const failing = stream();
    const reading = readBodyStream(failing, { maxBytes: 10 });
    failing.write(bytes(1, 2));
    await new Promise((resolve) => setImmediate(resolve));
    failing.destroy(new Error('aborted'));
    const result = await reading;
    expect(!result.ok && result.error).toMatchObject({ code: 'aborted', message: 'the body broke off after 2 bytes' });
    expect(!result.ok && (result.error.cause as Error).message).toBe('aborted');

    const closed = stream();
    const closing = readBodyStream(closed, { maxBytes: 10 });
    closed.destroy();
    expect(await closing).toMatchObject({ ok: false, error: { code: 'aborted' } });
    // A stream that is gone before the read starts.
    expect(await readBodyStream(closed, { maxBytes: 10 })).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('answers aborted when the stream ends before its declared length', async () => {
    const body = stream();
    const reading = readBodyStream(body, { maxBytes: 10, contentLength: 5 });
    body.end(bytes(1, 2));
    expect(await reading).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('answers consumed for a stream already read to its end', async () => {
    const body = Readable.from([bytes(1)]);
    for await (const _ of body);
    expect(await readBodyStream(body, { maxBytes: 10 })).toMatchObject({ ok: false, error: { code: 'consumed' } });
  });

  it('refuses a chunk that is not octets as a TypeError', async () => {
    const body = new PassThrough({ objectMode: true });
    const reading = readBodyStream(body, { maxBytes: 10 });
    body.write(42);
    await expect(reading).rejects.toThrow(TypeError);
  });
});

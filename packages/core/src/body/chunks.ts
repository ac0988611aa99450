/**
 * What both bounded readers share: the chunks held until the body ends or passes its limit, and
 * the errors they answer with.
 */
import { err, ok, type Result } from '../result.js';
import { BodyReadError } from './body-read-error.js';

/** The outcome of a bounded read. */
export type BodyResult = Result<Uint8Array, BodyReadError>;

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/** A chunk as octets (text is encoded as UTF-8), or `undefined` for anything else. */
export const octets = (value: unknown): Uint8Array | undefined =>
  value instanceof Uint8Array ? value : typeof value === 'string' ? encoder.encode(value) : undefined;

/** The programmer's error of a stream that yields something else than octets or text. */
export const notOctets = (value: unknown): TypeError => new TypeError(`a body stream must yield Uint8Array or string chunks, got ${typeof value}`);

/** `too-large`, with what showed it (`Content-Length: 9`, or octets past the limit). */
export const tooLarge = (maxBytes: number, received: string): BodyReadError =>
  new BodyReadError('too-large', `the body is larger than ${maxBytes} bytes (${received})`, maxBytes);

/** `too-large` once more than `maxBytes` octets arrived. */
export const arrivedTooLarge = (maxBytes: number): BodyReadError => tooLarge(maxBytes, `more than ${maxBytes} bytes arrived`);

/** `aborted`: the stream failed (or closed) after `size` octets. */
export const brokeOff = (maxBytes: number, size: number, cause: unknown): BodyReadError =>
  new BodyReadError('aborted', `the body broke off after ${size} bytes`, maxBytes, cause === undefined ? {} : { cause });

/** The chunks read so far, held until the body ends or passes the limit. */
export class Chunks {
  size = 0;
  #first: Uint8Array | undefined;
  #rest: Uint8Array[] | undefined;

  /** Adds a chunk; `false` (and nothing held any more) once the body passes `maxBytes`. */
  add(chunk: Uint8Array, maxBytes: number): boolean {
    this.size += chunk.byteLength;
    if (this.size > maxBytes) {
      this.#first = undefined;
      this.#rest = undefined;
      return false;
    }
    if (this.#first === undefined) this.#first = chunk;
    else if (this.#rest === undefined) this.#rest = [this.#first, chunk];
    else this.#rest.push(chunk);
    return true;
  }

  /** The whole body once its stream ended: one chunk as it is, several joined; `aborted` when short of its declared length. */
  end(maxBytes: number, declared: number | undefined): BodyResult {
    if (declared !== undefined && this.size < declared) {
      return err(new BodyReadError('aborted', `the body ended after ${this.size} of the ${declared} bytes its Content-Length declared`, maxBytes));
    }
    const first = this.#first;
    if (first === undefined) return ok(EMPTY);
    const rest = this.#rest;
    if (rest === undefined) return ok(first);
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of rest) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return ok(bytes);
  }
}

import { err, ok, type Result } from '../result.js';

/** A request or callback body as a runtime hands it over: text, or raw bytes. */
export type BodyInput = string | Uint8Array;

/** Why a body could not be turned into text. */
export type BodyTextError = 'too-large' | 'invalid-utf8' | 'not-a-body';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const encoder = new TextEncoder();
const NON_ASCII = /[^\x00-\x7f]/;

/** The number of UTF-8 octets of a string (lone surrogates count as the 3 octets of U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** UTF-8 octets of a string. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Turns a body into text, checking its size before anything else: at most `maxBytes` UTF-8 octets.
 * Bytes must be valid UTF-8 (a leading byte order mark is dropped), strings must not hold lone
 * surrogates (they cannot have come from UTF-8).
 */
export function bodyToText(body: BodyInput, maxBytes: number): Result<string, BodyTextError> {
  if (typeof body === 'string') {
    // Cheap bounds first: every code unit is at least one octet and at most three, and exactly one
    // when the text is ASCII (a native scan), so the octets are counted only for long non-ASCII text.
    if (body.length > maxBytes) return err('too-large');
    if (body.length * 3 > maxBytes && NON_ASCII.test(body) && utf8ByteLength(body) > maxBytes) return err('too-large');
    if (!body.isWellFormed()) return err('invalid-utf8');
    return ok(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
  }
  if (!(body instanceof Uint8Array)) return err('not-a-body');
  if (body.byteLength > maxBytes) return err('too-large');
  try {
    return ok(utf8.decode(body));
  } catch {
    return err('invalid-utf8');
  }
}

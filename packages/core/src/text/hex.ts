/**
 * Hex codecs for `hexEncodedText` content in each charset of the spec and for `binary` content.
 *
 * - `GSM`: unpacked GSM 03.38 septets, one octet per septet; an extension character is `1B xx`.
 * - `Latin-1`: ISO-8859-1, one octet per character (U+0000-U+00FF; 80-9F are the C1 controls).
 * - `UTF-8`: UTF-8 octets; a leading byte order mark is kept as U+FEFF.
 * - `UTF-16`: big-endian code units, no byte order mark handling (a leading `FEFF` is U+FEFF).
 *
 * Encoders produce upper-case hex; decoders accept either case. Decoders return a {@link HexError}
 * value for malformed content (never garbage, never an exception); encoders throw a `TypeError`
 * naming a character the charset cannot represent (a programmer error: check first with
 * {@link canEncodeHex} or `isGsmText`).
 *
 * GSM content is decoded strictly: `1B` followed by a septet that has no extension character
 * (including `1B 1B`, reserved for a further extension table) is an error, not the fallback TS
 * 23.038 6.2.1.1 prescribes to receivers: the sender would not see what the recipient sees. Inbound
 * text, which the service sends us, is decoded the receiver's way (`gsmDecode` with
 * `mode: 'receiver'`, used by `decodeInboundText`). With `nationalTables` (or, for
 * `decodeHexContent` with `udh`, the national shift elements of the header) GSM content is
 * encoded and decoded in those tables.
 */
import { err, ok, type Result } from '../result.js';
import { GSM_DEFAULT, GSM_ESCAPE, NONE, EXTENSION_FLAG, TABLE_LIMIT, describeChar, septetOf } from './gsm-alphabet.js';
import { decodeSeptets, describeTables, failureMessage, gsmEncode, gsmUnencodableIndex, nationalShiftOfHeader } from './gsm-codec.js';
import { isDefaultTables, nationalTablesOfIds, type NationalTables } from './gsm-national.js';

/** The charsets of `hexEncodedText` content, spelled as on the wire. */
export type HexCharset = 'GSM' | 'Latin-1' | 'UTF-8' | 'UTF-16';

/** Every {@link HexCharset}, in the spec's order. */
export const HEX_CHARSETS: readonly HexCharset[] = ['GSM', 'Latin-1', 'UTF-8', 'UTF-16'];

/** Why hex content could not be decoded. */
export type HexErrorKind = 'odd-length' | 'not-hex' | 'invalid-octets' | 'lone-surrogate' | 'bad-udh';

/**
 * A hex decoding failure. `offset` is the index in the hex string (a character index: octet `n`
 * starts at `2n`) where the problem starts.
 */
export interface HexError {
  readonly kind: HexErrorKind;
  readonly offset: number;
  readonly message: string;
}

/** Hex content decoded by {@link decodeHexContent}. */
export interface HexContent {
  /** Decoded octets, user data header included. */
  readonly octets: number;
  /** The text after the header; absent for `binary` content. */
  readonly text?: string;
  /** The user data header, its length octet (UDHL) included; present only with `udh: true`. */
  readonly udh?: Uint8Array;
}

/** Options of the hex text codecs: the GSM tables (ignored for the other charsets). */
export interface HexTextOptions {
  /** National language tables of GSM content (default: the default alphabet and extension table). */
  readonly nationalTables?: NationalTables;
}

/** Options of {@link decodeHexContent}. */
export interface HexContentOptions extends HexTextOptions {
  /** The first octet is the user data header length; the header is split off (default `false`). */
  readonly udh?: boolean;
}

const HEX_DIGITS = '0123456789ABCDEF';
/** Octet → two upper-case hex digits. */
const HEX_PAIRS: readonly string[] = /* @__PURE__ */ Array.from({ length: 256 }, (_, b) => HEX_DIGITS.charAt(b >> 4) + HEX_DIGITS.charAt(b & 15));
/**
 * Octet → its two hex digits as two ASCII octets packed in one 16-bit unit in the platform's byte
 * order, so that a `Uint16Array` of these read as bytes is the hex text (decoded natively).
 */
const HEX_UNITS = /* @__PURE__ */ (() => {
  const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const t = new Uint16Array(256);
  for (let b = 0; b < 256; b++) {
    const hi = HEX_DIGITS.charCodeAt(b >> 4);
    const lo = HEX_DIGITS.charCodeAt(b & 15);
    t[b] = littleEndian ? hi | (lo << 8) : (hi << 8) | lo;
  }
  return t;
})();
/** Character code (low 8 bits) → its value as a hex digit (either case), or 0x100 when it is not one. */
const NIBBLE = /* @__PURE__ */ (() => {
  const t = new Uint16Array(256).fill(0x100);
  for (let i = 0; i < 16; i++) {
    t[HEX_DIGITS.charCodeAt(i)] = i;
    t[HEX_DIGITS.toLowerCase().charCodeAt(i)] = i;
  }
  return t;
})();
/**
 * Two character codes (low 8 bits each, the first one high) → the octet they spell as hex digits,
 * or 0x100 when they are not two hex digits: one lookup per octet.
 */
const HEX_OCTETS = /* @__PURE__ */ (() => {
  const t = new Uint16Array(0x10000).fill(0x100);
  const codes = Array.from(`${HEX_DIGITS}abcdef`, (d) => d.charCodeAt(0));
  for (const hi of codes) for (const lo of codes) t[(hi << 8) | lo] = ((NIBBLE[hi] as number) << 4) | (NIBBLE[lo] as number);
  return t;
})();

/**
 * The hex methods of ES2026 (`Uint8Array.fromHex`, `Uint8Array.prototype.toHex`), used where the
 * runtime has them. (A property read is kept by bundlers unless marked pure, hence the wrappers.)
 */
const nativeFromHex = /* @__PURE__ */ (() => (Uint8Array as unknown as { fromHex?: (hex: string) => Uint8Array }).fromHex)();
const nativeToHex = /* @__PURE__ */ (() => (Uint8Array.prototype as unknown as { toHex?: (this: Uint8Array) => string }).toHex)();

const utf8Decoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** A native UTF-16BE decoder, where the runtime has one (every browser, Node with ICU, Deno, Bun). */
const utf16Decoder = /* @__PURE__ */ (() => {
  try {
    return new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true });
  } catch {
    return undefined;
  }
})();
/** Decodes ASCII octets (hex digits, or Latin-1 content below 80). */
const asciiDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** Hex content at least this long is read as ASCII octets by a native `TextEncoder` first. */
const LONG_HEX = 1024;

/*
 * Content of a message's size is converted through scratch buffers allocated once and reused by
 * every call (their contents never outlive the call), so that no typed array is allocated per call;
 * the native steps (`TextEncoder.encodeInto`, `TextDecoder.decode`) do the copying, and the loops
 * in between do one table lookup per octet. Longer content, or any fault, takes the paths below.
 */
/** Longest text (UTF-16 code units) encoded through the scratch buffers. */
const SCRATCH_TEXT = 2048;
/** Longest hex content decoded through the scratch buffers. */
const SCRATCH_HEX = 4096;
/** Size of the input scratch buffer in octets: a text's UTF-8, or hex digits as ASCII. */
const SCRATCH_IN = 3 * SCRATCH_TEXT + 8;
/*
 * Each scratch buffer is an `ArrayBuffer` with views on it, made in arrow calls marked pure: a
 * bundler keeps a module-level `new` whose arguments read another constant or a property, so a
 * program that never converts through them (one that only counts SMS parts) would allocate them
 * at import.
 */
const scratchInBuffer = /* @__PURE__ */ (() => new ArrayBuffer(SCRATCH_IN))();
/** Octets and hex digits as ASCII: read by `encodeInto`, viewed as 16-bit words of two digits. */
const scratchBytes = /* @__PURE__ */ (() => new Uint8Array(scratchInBuffer))();
const scratchWords = /* @__PURE__ */ (() => new Uint16Array(scratchInBuffer))();
/** The same octets as 32-bit words: two hex digit pairs (two octets of content) at a time. */
const scratchQuads = /* @__PURE__ */ (() => new Uint32Array(scratchInBuffer))();
/** The memory of the output views, for views of the length at hand. */
const scratchOutBuffer = /* @__PURE__ */ (() => new ArrayBuffer(2 * SCRATCH_IN))();
/** Hex digits out (two ASCII digits per 16-bit unit), or UTF-8 octets out. */
const scratchOut = /* @__PURE__ */ (() => new Uint8Array(scratchOutBuffer))();
const scratchUnits = /* @__PURE__ */ (() => new Uint16Array(scratchOutBuffer))();
/** The same as 32-bit words: two units (four hex digits) at a time. */
const scratchPairs = /* @__PURE__ */ (() => new Uint32Array(scratchOutBuffer))();
/** Decodes UTF-8 that is valid by construction. */
const lenientUtf8 = /* @__PURE__ */ new TextDecoder('utf-8', { ignoreBOM: true });

const LITTLE_ENDIAN = /* @__PURE__ */ (() => new Uint8Array(new Uint16Array([1]).buffer)[0] === 1)();
/** Shift of the first of the two 16-bit words of a 32-bit word read from memory (the second's is 16 minus it). */
const FIRST_WORD_SHIFT = LITTLE_ENDIAN ? 0 : 16;
/** A 16-bit word of two ASCII hex digits, as the platform reads it from memory → the octet, or 0x100. */
const HEX_WORDS = /* @__PURE__ */ (() => {
  if (!LITTLE_ENDIAN) return HEX_OCTETS;
  const t = new Uint16Array(0x10000);
  for (let w = 0; w < 0x10000; w++) t[w] = HEX_OCTETS[((w & 0xff) << 8) | (w >>> 8)] as number;
  return t;
})();

/**
 * GSM septet `s` (index `s`) and extension septet `x` after the escape (index `0x80 | x`) → the
 * character's UTF-8 octets, packed: the first in the low byte, then the second and the third, their
 * count in the top byte (0: no character, at the escape and where the extension table has none).
 */
const GSM_UTF8 = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    const ch = i < 0x80 ? GSM_DEFAULT.decode[i] : GSM_DEFAULT.decodeExtension.get(i & 0x7f);
    if (ch === undefined) continue;
    const bytes = utf8Encoder.encode(ch);
    table[i] = ((bytes.length << 24) | (bytes[0] as number) | ((bytes[1] ?? 0) << 8) | ((bytes[2] ?? 0) << 16)) >>> 0;
  }
  return table;
})();
/**
 * A value of {@link HEX_WORDS} → the character code of the septet it is when that character is
 * ASCII (one UTF-8 octet), else 0: the escape, a septet of another character, an octet over 7F and
 * the mark of a pair that is not hex (0x100).
 */
const GSM_ASCII = /* @__PURE__ */ Uint8Array.from({ length: 0x101 }, (_, s) => (s < 0x80 && (GSM_UTF8[s] as number) >>> 24 === 1 ? (GSM_UTF8[s] as number) & 0xff : 0));
/** Two hex digits as a 16-bit word read from memory → {@link GSM_ASCII} of the octet they spell; made on first use. */
let gsmHexAscii: Uint8Array | undefined;
function gsmHexAsciiTable(): Uint8Array {
  const t = new Uint8Array(0x10000);
  for (let w = 0; w < 0x10000; w++) t[w] = GSM_ASCII[HEX_WORDS[w] as number] as number;
  return (gsmHexAscii = t);
}
/** UTF-16 code unit below 80 → its GSM hex (one 16-bit unit of two ASCII digits) when it is one septet, else 0. */
const GSM_ASCII_UNITS = /* @__PURE__ */ Uint16Array.from({ length: 0x80 }, (_, c) => {
  const v = GSM_DEFAULT.encodeLow[c] as number;
  return v === NONE || v >= EXTENSION_FLAG ? 0 : (HEX_UNITS[v] as number);
});

/**
 * UTF-16 code unit `c` below {@link TABLE_LIMIT} → its GSM hex as one or two 16-bit units of two
 * ASCII digits (the escape's, then the extension septet's, for a character of the extension
 * table), packed in the low and high half; 0 when the default alphabet has no such character.
 */
const GSM_HEX_UNITS = /* @__PURE__ */ (() => {
  const table = new Uint32Array(TABLE_LIMIT);
  for (let c = 0; c < TABLE_LIMIT; c++) {
    const v = GSM_DEFAULT.encodeLow[c] as number;
    if (v === NONE) continue;
    table[c] = (v >= EXTENSION_FLAG ? ((HEX_UNITS[GSM_ESCAPE] as number) | ((HEX_UNITS[v & 0x7f] as number) << 16)) : (HEX_UNITS[v] as number)) >>> 0;
  }
  return table;
})();

/** Longest view of `scratchOut` kept for reuse (a 2,048-digit hex text, or that many octets of text). */
const KEPT_VIEW = 2048;
/** Views of `scratchOut[0..n)` by `n`, each made on first use. */
const scratchViews: (Uint8Array | undefined)[] = [];

/**
 * `scratchOut[0..n)`: a view made once per length and kept, since making a view costs about as
 * much as the native decoding of a short text it is made for.
 */
function scratchView(n: number): Uint8Array {
  if (n > KEPT_VIEW) return new Uint8Array(scratchOutBuffer, 0, n);
  let view = scratchViews[n];
  if (view === undefined) {
    // Filled up to `n` first, so that the array stays a dense list for engines.
    while (scratchViews.length < n) scratchViews.push(undefined);
    view = scratchViews[n] = new Uint8Array(scratchOutBuffer, 0, n);
  }
  return view;
}

/** The upper-case hex of `scratchUnits[0..n)` (two ASCII digits per unit) as a string. */
const scratchHexText = (n: number): string => asciiDecoder.decode(scratchView(2 * n));

/*
 * One function per charset, each called only for its own: an engine then optimizes each loop on
 * its own, and a call costs no dispatch on the charset.
 */

/*
 * The encoders read the text as UTF-8 octets a native `TextEncoder` writes into the scratch buffer:
 * reading octets from a typed array costs engines a fraction of `charCodeAt`. A lone surrogate
 * comes out as U+FFFD, which neither GSM nor Latin-1 has: the full path then names it.
 */

/** GSM hex (default tables) of a short text through the scratch buffers; `undefined` on any fault (the full path then throws). */
function gsmHexScratch(text: string): string | undefined {
  // Module-level tables as locals: a bundler may turn module constants into variables, which
  // engines then read from memory at every use instead of knowing them.
  const b = scratchBytes;
  const w = utf8Encoder.encodeInto(text, b).written;
  const out = scratchUnits;
  const pairs = scratchPairs;
  const table = GSM_HEX_UNITS;
  const ascii = GSM_ASCII_UNITS;
  const s0 = FIRST_WORD_SHIFT;
  const s1 = 16 - s0;
  let k = 0;
  for (let i = 0; i < w; i++) {
    let c = b[i] as number;
    if ((k & 1) === 0 && i + 4 <= w) {
      // Four characters of the default alphabet at a time, written as two 32-bit words: all four
      // one octet (ASCII) and one septet each (0 marks any other). A character taken alone (an
      // escape pair takes two units) leaves the output at an odd unit, where the next is alone too.
      const c1 = b[i + 1] as number;
      const c2 = b[i + 2] as number;
      const c3 = b[i + 3] as number;
      if ((c | c1 | c2 | c3) < 0x80) {
        const u0 = ascii[c] as number;
        const u1 = ascii[c1] as number;
        const u2 = ascii[c2] as number;
        const u3 = ascii[c3] as number;
        if (((u0 - 1) | (u1 - 1) | (u2 - 1) | (u3 - 1)) >= 0) {
          pairs[k >> 1] = (u0 << s0) | (u1 << s1);
          pairs[(k >> 1) + 1] = (u2 << s0) | (u3 << s1);
          k += 4;
          i += 3;
          continue;
        }
      }
    }
    if (c >= 0x80) {
      // Encoded by `encodeInto`, so well-formed: two or three octets below U+10000 (four above,
      // where GSM has nothing).
      if (c < 0xe0) c = ((c & 0x1f) << 6) | ((b[++i] as number) & 0x3f);
      else if (c < 0xf0) {
        c = ((c & 0x0f) << 12) | (((b[i + 1] as number) & 0x3f) << 6) | ((b[i + 2] as number) & 0x3f);
        i += 2;
      } else return undefined;
    }
    let u: number;
    if (c < TABLE_LIMIT) u = table[c] as number;
    else {
      // The few characters above the table (the euro sign): looked up in the alphabet's map.
      const v = septetOf(GSM_DEFAULT, c);
      u = v < 0 ? 0 : v >= EXTENSION_FLAG ? ((HEX_UNITS[GSM_ESCAPE] as number) | ((HEX_UNITS[v & 0x7f] as number) << 16)) >>> 0 : (HEX_UNITS[v] as number);
    }
    if (u === 0) return undefined;
    out[k++] = u & 0xffff;
    if (u > 0xffff) out[k++] = u >>> 16;
  }
  return scratchHexText(k);
}

/**
 * Writes the Latin-1 hex of a text into `out` (one 16-bit unit of two ASCII digits per character);
 * the index of the first character over FF, or -1 when there is none. Read with `charCodeAt`: its
 * UTF-8 would take two octets per character over 7F.
 */
function writeLatin1Hex(text: string, out: Uint16Array): number {
  const units = HEX_UNITS;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return i;
    out[i] = units[c] as number;
  }
  return -1;
}

/** Latin-1 hex of a short text through the scratch buffers; `undefined` on any fault. */
function latin1HexScratch(text: string): string | undefined {
  return writeLatin1Hex(text, scratchUnits) === -1 ? scratchHexText(text.length) : undefined;
}

/** UTF-8 hex of a short text through the scratch buffers; `undefined` on any fault. */
function utf8HexScratch(text: string): string | undefined {
  if (!text.isWellFormed()) return undefined;
  const out = scratchUnits;
  const units = HEX_UNITS;
  const bytes = scratchBytes;
  const octets = utf8Encoder.encodeInto(text, bytes).written;
  for (let i = 0; i < octets; i++) out[i] = units[bytes[i] as number] as number;
  return scratchHexText(octets);
}

/** Writes the hex of the big-endian UTF-16 code units of a text into `out` (two 16-bit units of two ASCII digits each per code unit). */
function writeUtf16Hex(text: string, out: Uint16Array): void {
  const units = HEX_UNITS;
  for (let i = 0, j = 0; i < text.length; i++, j += 2) {
    const c = text.charCodeAt(i);
    out[j] = units[c >> 8] as number;
    out[j + 1] = units[c & 0xff] as number;
  }
}

/** UTF-16 hex of a short text through the scratch buffers; `undefined` on any fault. */
function utf16HexScratch(text: string): string | undefined {
  if (!text.isWellFormed()) return undefined;
  writeUtf16Hex(text, scratchUnits);
  return scratchHexText(2 * text.length);
}

/**
 * Reads short hex content as ASCII into the scratch buffer: the number of octets it spells (the
 * 16-bit words of `scratchWords[0..count)`), or -1 when it holds a character outside ASCII or has
 * an odd length.
 */
function readHexScratch(hex: string): number {
  const n = hex.length;
  if ((n & 1) !== 0) return -1;
  const read = utf8Encoder.encodeInto(hex, scratchBytes);
  return read.read === n && read.written === n ? n >> 1 : -1;
}

/** `scratchOut[0..k)`, valid UTF-8 by construction, as text. */
const scratchText = (k: number): string => lenientUtf8.decode(scratchView(k));

/*
 * The decoders take four octets (eight hex digits, two 32-bit words) at a time while they are the
 * common case (ASCII text), and one at a time otherwise; an octet taken alone leaves the next one
 * at an odd index, taken alone too, so the loop is back on 32-bit words after one octet.
 */

/** The text of short Latin-1 hex content through the scratch buffers; `undefined` on any fault (the full path then names it). */
function latin1FromHexScratch(hex: string): string | undefined {
  const count = readHexScratch(hex);
  if (count < 0) return undefined;
  const words = scratchWords;
  const quads = scratchQuads;
  const out = scratchOut;
  const hexWords = HEX_WORDS;
  const s0 = FIRST_WORD_SHIFT;
  const s1 = 16 - s0;
  // Branch-free: an invalid pair (0x100) sets a bit above 0xFF of `bad`.
  let bad = 0;
  let k = 0;
  let j = 0;
  // Four octets at a time, each of them one octet of UTF-8 (ASCII) or two (80-FF).
  for (; j + 4 <= count; j += 4) {
    const q0 = quads[j >> 1] as number;
    const q1 = quads[(j >> 1) + 1] as number;
    const v0 = hexWords[(q0 >>> s0) & 0xffff] as number;
    const v1 = hexWords[(q0 >>> s1) & 0xffff] as number;
    const v2 = hexWords[(q1 >>> s0) & 0xffff] as number;
    const v3 = hexWords[(q1 >>> s1) & 0xffff] as number;
    if ((v0 | v1 | v2 | v3) < 0x80) {
      out[k] = v0;
      out[k + 1] = v1;
      out[k + 2] = v2;
      out[k + 3] = v3;
      k += 4;
      continue;
    }
    bad |= v0 | v1 | v2 | v3;
    k = latin1Utf8(out, k, v0);
    k = latin1Utf8(out, k, v1);
    k = latin1Utf8(out, k, v2);
    k = latin1Utf8(out, k, v3);
  }
  for (; j < count; j++) {
    const v = hexWords[words[j] as number] as number;
    bad |= v;
    k = latin1Utf8(out, k, v);
  }
  return bad > 0xff ? undefined : scratchText(k);
}

/** Writes the UTF-8 octets of code point `v` (at most FF) at `out[k]`; the index after them. */
function latin1Utf8(out: Uint8Array, k: number, v: number): number {
  if (v < 0x80) {
    out[k] = v;
    return k + 1;
  }
  out[k] = 0xc0 | (v >> 6);
  out[k + 1] = 0x80 | (v & 0x3f);
  return k + 2;
}

/** The text of short GSM hex content (default tables, strictly) through the scratch buffers; `undefined` on any fault. */
function gsmFromHexScratch(hex: string): string | undefined {
  const count = readHexScratch(hex);
  if (count < 0) return undefined;
  const words = scratchWords;
  const quads = scratchQuads;
  const out = scratchOut;
  const hexWords = HEX_WORDS;
  const table = GSM_UTF8;
  const ascii = gsmHexAscii ?? gsmHexAsciiTable();
  const s0 = FIRST_WORD_SHIFT;
  const s1 = 16 - s0;
  let k = 0;
  for (let j = 0; j < count; j++) {
    if ((j & 1) === 0 && j + 4 <= count) {
      const q0 = quads[j >> 1] as number;
      const q1 = quads[(j >> 1) + 1] as number;
      // Four septets whose characters are ASCII (0 marks anything else).
      const a0 = ascii[(q0 >>> s0) & 0xffff] as number;
      const a1 = ascii[(q0 >>> s1) & 0xffff] as number;
      const a2 = ascii[(q1 >>> s0) & 0xffff] as number;
      const a3 = ascii[(q1 >>> s1) & 0xffff] as number;
      if (((a0 - 1) | (a1 - 1) | (a2 - 1) | (a3 - 1)) >= 0) {
        out[k] = a0;
        out[k + 1] = a1;
        out[k + 2] = a2;
        out[k + 3] = a3;
        k += 4;
        j += 3;
        continue;
      }
    }
    let v = hexWords[words[j] as number] as number;
    if (v === GSM_ESCAPE) {
      if (++j === count) return undefined;
      const x = hexWords[words[j] as number] as number;
      // Over 7F (not a septet, or not hex): no character.
      if (x > 0x7f) return undefined;
      v = 0x80 | x;
    } else if (v > 0x7f) return undefined;
    const u = table[v] as number;
    if (u === 0) return undefined;
    out[k] = u & 0xff;
    out[k + 1] = (u >>> 8) & 0xff;
    out[k + 2] = (u >>> 16) & 0xff;
    k += u >>> 24;
  }
  return scratchText(k);
}

/** The text of short UTF-8 hex content through the scratch buffers; `undefined` on any fault. */
function utf8FromHexScratch(hex: string): string | undefined {
  const count = readHexScratch(hex);
  if (count < 0) return undefined;
  const words = scratchWords;
  const out = scratchOut;
  const hexWords = HEX_WORDS;
  let bad = 0;
  for (let j = 0; j < count; j++) {
    const v = hexWords[words[j] as number] as number;
    bad |= v;
    out[j] = v;
  }
  if (bad > 0xff) return undefined;
  try {
    return utf8Decoder.decode(scratchView(count));
  } catch {
    return undefined;
  }
}

/** The text of short UTF-16 hex content through the scratch buffers; `undefined` on any fault. */
function utf16FromHexScratch(hex: string): string | undefined {
  const count = readHexScratch(hex);
  if (count < 0 || (count & 1) !== 0) return undefined;
  const words = scratchWords;
  const out = scratchOut;
  const hexWords = HEX_WORDS;
  let bad = 0;
  let k = 0;
  // Code units to UTF-8 octets; a lone surrogate is a fault.
  for (let j = 0; j < count; j += 2) {
    const hi = hexWords[words[j] as number] as number;
    const lo = hexWords[words[j + 1] as number] as number;
    bad |= hi | lo;
    const c = (hi << 8) | lo;
    if (c < 0x80) out[k++] = c;
    else if (c < 0x800) {
      out[k++] = 0xc0 | (c >> 6);
      out[k++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      out[k++] = 0xe0 | (c >> 12);
      out[k++] = 0x80 | ((c >> 6) & 0x3f);
      out[k++] = 0x80 | (c & 0x3f);
    } else {
      if (c > 0xdbff || j + 3 >= count) return undefined;
      const hi2 = hexWords[words[j + 2] as number] as number;
      const lo2 = hexWords[words[j + 3] as number] as number;
      const d = (hi2 << 8) | lo2;
      if ((hi2 | lo2) > 0xff || d < 0xdc00 || d > 0xdfff) return undefined;
      const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      out[k++] = 0xf0 | (cp >> 18);
      out[k++] = 0x80 | ((cp >> 12) & 0x3f);
      out[k++] = 0x80 | ((cp >> 6) & 0x3f);
      out[k++] = 0x80 | (cp & 0x3f);
      j += 2;
    }
  }
  return bad > 0xff ? undefined : scratchText(k);
}

const hexError = (kind: HexErrorKind, offset: number, message: string): HexError => ({ kind, offset, message });

const pair = (b: number): string => HEX_PAIRS[b] as string;

function assertCharset(charset: unknown, fn: string, binary = false): void {
  if (charset === 'GSM' || charset === 'Latin-1' || charset === 'UTF-8' || charset === 'UTF-16') return;
  if (binary && charset === 'binary') return;
  throw new TypeError(`${fn}: charset must be one of ${HEX_CHARSETS.join(', ')}${binary ? ', binary' : ''}, not ${String(charset)}`);
}

/** Upper-case hex of raw octets (`Uint8Array [0x0b, 0x84]` → `"0B84"`). */
export function bytesToHex(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytesToHex: bytes must be a Uint8Array');
  if (nativeToHex !== undefined) return nativeToHex.call(bytes).toUpperCase();
  const out = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = HEX_UNITS[bytes[i] as number] as number;
  return asciiDecoder.decode(out);
}

/** Octets of a hex string (either case); an odd number of digits or a non-hex character is an error. */
export function hexToBytes(hex: string): Result<Uint8Array, HexError> {
  if (typeof hex !== 'string') throw new TypeError('hexToBytes: hex must be a string');
  const n = hex.length;
  if ((n & 1) !== 0) {
    const bad = firstNonHex(hex, 0);
    if (bad >= 0) return err(notHex(hex, bad));
    return err(hexError('odd-length', n - 1, `hex content has an odd number of digits (${n})`));
  }
  if (nativeFromHex !== undefined) {
    try {
      return ok(nativeFromHex(hex));
    } catch {
      // Not hex: the loop below finds where.
    }
  }
  const out = n >= LONG_HEX ? octetsOfAsciiHex(hex) : octetsOfHex(hex);
  if (out === undefined) return err(notHex(hex, firstNonHex(hex, 0)));
  return ok(out);
}

/** Octets of hex content of even length, or `undefined` when a character is not a hex digit. */
function octetsOfHex(hex: string): Uint8Array | undefined {
  const out = new Uint8Array(hex.length >> 1);
  // Branch-free: an invalid digit or a code over FF sets a bit above 0xFF of `bad`.
  let bad = 0;
  for (let i = 0, j = 0; i < hex.length; i += 2, j++) {
    const v = octetAt(hex, i);
    bad |= v;
    out[j] = v;
  }
  return bad > 0xff ? undefined : out;
}

/**
 * {@link octetsOfHex} for long content: a native `TextEncoder` copies the digits as ASCII octets,
 * which are faster to read than the string's characters.
 */
function octetsOfAsciiHex(hex: string): Uint8Array | undefined {
  const n = hex.length;
  const ascii = new Uint8Array(n);
  // A character outside ASCII takes more than one octet: the encoder then stops short.
  if (utf8Encoder.encodeInto(hex, ascii).read !== n) return undefined;
  const out = new Uint8Array(n >> 1);
  let bad = 0;
  for (let i = 0, j = 0; i < n; i += 2, j++) {
    const v = HEX_OCTETS[((ascii[i] as number) << 8) | (ascii[i + 1] as number)] as number;
    bad |= v;
    out[j] = v;
  }
  return bad > 0xff ? undefined : out;
}

function firstNonHex(hex: string, from: number): number {
  for (let i = from; i < hex.length; i++) {
    const c = hex.charCodeAt(i);
    if (c > 0xff || NIBBLE[c] === 0x100) return i;
  }
  return -1;
}

function notHex(hex: string, offset: number): HexError {
  const cp = hex.codePointAt(offset) ?? 0;
  return hexError('not-hex', offset, `${describeChar(String.fromCodePoint(cp))} at offset ${offset} is not a hexadecimal digit`);
}

/**
 * Whether {@link encodeHex} can encode the text in the charset (no lone surrogates; every character
 * in the charset, for GSM in the tables of `options.nationalTables`).
 */
export function canEncodeHex(text: string, charset: HexCharset, options: HexTextOptions = {}): boolean {
  assertCharset(charset, 'canEncodeHex');
  if (charset === 'GSM' && !isDefaultTables(options.nationalTables)) return gsmUnencodableIndex(text, options.nationalTables) < 0;
  return unencodableIndex(text, charset) < 0;
}

/** Index of the first character the charset cannot represent, or -1. */
function unencodableIndex(text: string, charset: HexCharset): number {
  switch (charset) {
    case 'GSM':
      for (let i = 0; i < text.length; i++) if (septetOf(GSM_DEFAULT, text.charCodeAt(i)) === NONE) return i;
      return -1;
    case 'Latin-1':
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return i;
      return -1;
    default:
      return loneSurrogateIndex(text);
  }
}

function loneSurrogateIndex(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/**
 * Upper-case hex of a text in a charset, as `hexEncodedText` content carries it (GSM in the tables
 * of `options.nationalTables`, the default alphabet and extension table by default).
 * @throws TypeError when a character is not representable in the charset (naming it and its
 *   index), when the text holds a lone surrogate, or when the charset is not a {@link HexCharset}.
 */
export function encodeHex(text: string, charset: HexCharset, options: HexTextOptions = {}): string {
  if (typeof text !== 'string') throw new TypeError('encodeHex: text must be a string');
  if (text.length <= SCRATCH_TEXT) {
    // An unknown charset takes none of these and is refused below. The scratch path knows the
    // default GSM tables only; national ones take the path below.
    let hex: string | undefined;
    if (charset === 'GSM') {
      if (isDefaultTables(options.nationalTables)) hex = gsmHexScratch(text);
    } else if (charset === 'Latin-1') hex = latin1HexScratch(text);
    else if (charset === 'UTF-8') hex = utf8HexScratch(text);
    else if (charset === 'UTF-16') hex = utf16HexScratch(text);
    if (hex !== undefined) return hex;
  }
  assertCharset(charset, 'encodeHex');
  switch (charset) {
    case 'GSM': {
      if (!isDefaultTables(options.nationalTables)) return gsmNationalHex(text, options.nationalTables);
      const out = new Uint16Array(text.length * 2);
      let n = 0;
      for (let i = 0; i < text.length; i++) {
        const v = septetOf(GSM_DEFAULT, text.charCodeAt(i));
        if (v === NONE) throw unencodable(text, i, charset);
        if (v >= EXTENSION_FLAG) {
          out[n++] = HEX_UNITS[GSM_ESCAPE] as number;
          out[n++] = HEX_UNITS[v & 0x7f] as number;
        } else out[n++] = HEX_UNITS[v] as number;
      }
      return asciiDecoder.decode(out.subarray(0, n));
    }
    case 'Latin-1': {
      const out = new Uint16Array(text.length);
      const bad = writeLatin1Hex(text, out);
      if (bad !== -1) throw unencodable(text, bad, charset);
      return asciiDecoder.decode(out);
    }
    // Content of a message's size took the scratch path above: here is long content, or text with
    // a lone surrogate, which is refused.
    case 'UTF-8':
      if (!text.isWellFormed()) throw unencodable(text, loneSurrogateIndex(text), charset);
      return bytesToHex(utf8Encoder.encode(text));
    case 'UTF-16': {
      if (!text.isWellFormed()) throw unencodable(text, loneSurrogateIndex(text), charset);
      const out = new Uint16Array(text.length * 2);
      writeUtf16Hex(text, out);
      return asciiDecoder.decode(out);
    }
  }
}

function unencodable(text: string, index: number, charset: HexCharset, tables?: NationalTables): TypeError {
  const cp = text.codePointAt(index) ?? 0;
  const what = cp >= 0xd800 && cp <= 0xdfff ? `lone surrogate ${describeChar(String.fromCharCode(cp))}` : describeChar(String.fromCodePoint(cp));
  const within = tables === undefined ? '' : ` with ${describeTables(tables)}`;
  return new TypeError(`encodeHex: ${what} at index ${index} cannot be represented in ${charset}${within}`);
}

/** GSM hex of a text in national tables. */
function gsmNationalHex(text: string, tables: NationalTables | undefined): string {
  const bad = gsmUnencodableIndex(text, tables);
  if (bad >= 0) throw unencodable(text, bad, 'GSM', tables);
  return bytesToHex(gsmEncode(text, { nationalTables: tables }));
}

/**
 * Decodes hex content in a charset (GSM in the tables of `options.nationalTables`, strictly); see
 * {@link HexError} for what fails.
 */
export function decodeHex(hex: string, charset: HexCharset, options: HexTextOptions = {}): Result<string, HexError> {
  if (typeof hex !== 'string') throw new TypeError('decodeHex: hex must be a string');
  if (hex.length <= SCRATCH_HEX) {
    // As in `encodeHex`: an unknown charset is refused below, national GSM tables decode below.
    let text: string | undefined;
    if (charset === 'GSM') {
      if (isDefaultTables(options.nationalTables)) text = gsmFromHexScratch(hex);
    } else if (charset === 'Latin-1') text = latin1FromHexScratch(hex);
    else if (charset === 'UTF-8') text = utf8FromHexScratch(hex);
    else if (charset === 'UTF-16') text = utf16FromHexScratch(hex);
    if (text !== undefined) return ok(text);
  }
  assertCharset(charset, 'decodeHex');
  const bytes = hexToBytes(hex);
  if (!bytes.ok) return bytes;
  return decodeOctets(bytes.value, 0, charset, options.nationalTables);
}

/** The octet of the two hex digits at `hex[i]`, or a value over FF when they are not two hex digits. */
function octetAt(hex: string, i: number): number {
  const a = hex.charCodeAt(i);
  const b = hex.charCodeAt(i + 1);
  // Past the end `charCodeAt` is NaN, which indexes 0: not a hex digit.
  return (HEX_OCTETS[((a & 0xff) << 8) | (b & 0xff)] as number) | ((a | b) & 0xff00);
}

/**
 * Decodes `hexEncodedText` or `binary` content: the octet count, the header when `udh` is set (the
 * first octet is its length, and the header must fit in the content) and the text after it in the
 * charset (no text for `binary`). GSM text is decoded in `options.nationalTables` or, when not
 * given, in the tables the header's national shift elements name (an identifier TS 23.038 does
 * not define selects the default table).
 */
export function decodeHexContent(
  hex: string,
  charset: HexCharset | 'binary',
  options: HexContentOptions = {},
): Result<HexContent, HexError> {
  if (typeof hex !== 'string') throw new TypeError('decodeHexContent: hex must be a string');
  assertCharset(charset, 'decodeHexContent', true);
  const { udh = false, nationalTables } = options;
  const decoded = hexToBytes(hex);
  if (!decoded.ok) return decoded;
  const bytes = decoded.value;
  let start = 0;
  let header: Uint8Array | undefined;
  if (udh) {
    if (bytes.length === 0) return err(hexError('bad-udh', 0, 'the content has no user data header length octet'));
    const udhl = bytes[0] as number;
    if (1 + udhl > bytes.length) {
      return err(hexError('bad-udh', 0, `the user data header length (${udhl}) runs past the end of the content (${bytes.length - 1} octets after it)`));
    }
    start = 1 + udhl;
    header = bytes.slice(0, start);
  }
  if (charset === 'binary') return ok(header === undefined ? { octets: bytes.length } : { octets: bytes.length, udh: header });
  const tables = charset !== 'GSM' ? undefined : (nationalTables ?? (header === undefined ? undefined : nationalTablesOfIds(nationalShiftOfHeader(header)).tables));
  const text = decodeOctets(bytes, start, charset, tables);
  if (!text.ok) return text;
  return ok(header === undefined ? { octets: bytes.length, text: text.value } : { octets: bytes.length, text: text.value, udh: header });
}

/** Decodes `bytes[start..]` in a charset; error offsets are hex offsets in the whole content. */
function decodeOctets(bytes: Uint8Array, start: number, charset: HexCharset, tables: NationalTables | undefined): Result<string, HexError> {
  switch (charset) {
    case 'GSM':
      return isDefaultTables(tables) ? decodeGsm(bytes, start) : decodeGsmNational(bytes, start, tables);
    case 'Latin-1':
      return ok(latin1(bytes, start));
    case 'UTF-8':
      return decodeUtf8(bytes, start);
    case 'UTF-16':
      return decodeUtf16(bytes, start);
  }
}

function decodeGsm(bytes: Uint8Array, start: number): Result<string, HexError> {
  const table = GSM_DEFAULT.decode;
  const ext = GSM_DEFAULT.decodeExtension;
  let s = '';
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b > 0x7f) return err(hexError('invalid-octets', 2 * i, `octet ${pair(b)} at offset ${2 * i} is not a GSM 03.38 septet (over 7F)`));
    if (b !== GSM_ESCAPE) {
      s += table[b] as string;
      continue;
    }
    if (i + 1 >= bytes.length) return err(hexError('invalid-octets', 2 * i, `escape 1B at offset ${2 * i} ends the content`));
    const x = bytes[++i] as number;
    const ch = ext.get(x);
    if (ch === undefined) {
      return err(hexError('invalid-octets', 2 * i - 2, `escape pair 1B ${pair(x)} at offset ${2 * i - 2} has no GSM 03.38 extension character`));
    }
    s += ch;
  }
  return ok(s);
}

/** Strict GSM decoding in national tables. */
function decodeGsmNational(bytes: Uint8Array, start: number, tables: NationalTables | undefined): Result<string, HexError> {
  const decoded = decodeSeptets(bytes, start, tables, false);
  if (decoded.ok) return ok(decoded.value.text);
  const at = 2 * decoded.error.index;
  return err(hexError('invalid-octets', at, failureMessage(decoded.error, `at offset ${at}`, tables)));
}

function latin1(bytes: Uint8Array, start: number): string {
  let high = 0;
  for (let i = start; i < bytes.length; i++) high |= bytes[i] as number;
  // ASCII (the common case) decodes natively; otherwise every octet is its code point.
  if (high < 0x80) return asciiDecoder.decode(bytes.subarray(start));
  let s = '';
  const CHUNK = 8192;
  for (let i = start; i < bytes.length; i += CHUNK) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(i + CHUNK, bytes.length)) as unknown as number[]);
  }
  return s;
}

function decodeUtf8(bytes: Uint8Array, start: number): Result<string, HexError> {
  try {
    return ok(utf8Decoder.decode(bytes.subarray(start)));
  } catch {
    const at = start + invalidUtf8Index(bytes, start);
    return err(hexError('invalid-octets', 2 * at, `invalid UTF-8 sequence at offset ${2 * at} (octet ${pair(bytes[at] ?? 0)})`));
  }
}

/** Index (from `start`) of the first octet of the first invalid UTF-8 sequence (only called on failure). */
function invalidUtf8Index(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = b === 0xe0 ? 0xa0 : 0x80;
      if (b === 0xed) max = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = b === 0xf0 ? 0x90 : 0x80;
      if (b === 0xf4) max = 0x8f;
    } else return i - start;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i - start;
      if (k === 1 ? c < min || c > max : c < 0x80 || c > 0xbf) return i - start;
    }
    i += need + 1;
  }
  return bytes.length - start;
}

function decodeUtf16(bytes: Uint8Array, start: number): Result<string, HexError> {
  const n = bytes.length - start;
  if ((n & 1) !== 0) {
    return err(hexError('invalid-octets', 2 * (bytes.length - 1), `UTF-16 content has an odd number of octets (${n})`));
  }
  if (utf16Decoder !== undefined) {
    try {
      return ok(utf16Decoder.decode(bytes.subarray(start)));
    } catch {
      const at = loneSurrogateOctet(bytes, start);
      return err(loneSurrogate(bytes, at < 0 ? start : at));
    }
  }
  return decodeUtf16Portable(bytes, start);
}

function loneSurrogate(bytes: Uint8Array, at: number): HexError {
  return hexError('lone-surrogate', 2 * at, `lone surrogate ${pair(bytes[at] as number)}${pair(bytes[at + 1] as number)} at offset ${2 * at}`);
}

/** Decodes big-endian UTF-16 octets (`bytes[start..]`, an even count) without a native decoder; used where the runtime has none. */
export function decodeUtf16Portable(bytes: Uint8Array, start: number): Result<string, HexError> {
  const units = new Uint16Array((bytes.length - start) >> 1);
  let surrogates = false;
  for (let i = start, u = 0; i + 1 < bytes.length; i += 2, u++) {
    const c = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    units[u] = c;
    if (c >= 0xd800 && c <= 0xdfff) surrogates = true;
  }
  if (surrogates) {
    const at = loneSurrogateOctet(bytes, start);
    if (at >= 0) return err(loneSurrogate(bytes, at));
  }
  let s = '';
  const CHUNK = 8192;
  for (let i = 0; i < units.length; i += CHUNK) {
    s += String.fromCharCode.apply(null, units.subarray(i, Math.min(i + CHUNK, units.length)) as unknown as number[]);
  }
  return ok(s);
}

/** Index of the first octet of the first lone surrogate of big-endian UTF-16, or -1. */
function loneSurrogateOctet(bytes: Uint8Array, start: number): number {
  for (let i = start; i + 1 < bytes.length; i += 2) {
    const c = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = i + 3 < bytes.length ? ((bytes[i + 2] as number) << 8) | (bytes[i + 3] as number) : -1;
    if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) return i;
    i += 2;
  }
  return -1;
}

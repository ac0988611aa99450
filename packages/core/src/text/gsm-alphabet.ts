/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table, both directions.
 *
 * Septets are numbers 0x00-0x7F. `0x1B` is the escape to the extension table: an extension
 * character is written as the pair `1B xx` and costs two septets. Lookups are typed arrays built
 * once per table: every character of the GSM tables lies below U+0E00 except the euro sign (and the
 * infinity sign of the Portuguese locking shift table), so the national tables of India (U+0600 to
 * U+0DFF) are typed-array lookups too.
 */

/** The escape septet that announces a character of the extension (single shift) table. */
export const GSM_ESCAPE = 0x1b;

/**
 * The default alphabet, one character per septet (index = septet). The escape position (0x1B)
 * holds U+001B only as a placeholder: it is never a character.
 */
export const GSM_DEFAULT_ALPHABET =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table: septet after the escape → character (form feed, `^ { } \ [ ~ ] |` and `€`). */
export const GSM_EXTENSION_TABLE: ReadonlyMap<number, string> = new Map([
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
]);

/** Code points below this limit are looked up in typed arrays; the rest in a small map. */
export const TABLE_LIMIT = 0xe00;

/** No septet for this character. */
export const NONE = -1;

/** Flag set on a looked-up value when the character lives in the extension (single shift) table. */
export const EXTENSION_FLAG = 0x100;

/**
 * A two-way septet table: `encodeLow[c]` (c < {@link TABLE_LIMIT}) or `encodeHigh.get(c)` gives the
 * septet of UTF-16 code unit `c`, with {@link EXTENSION_FLAG} set for a single shift (escape pair)
 * character, or {@link NONE}.
 */
export interface SeptetLookup {
  readonly encodeLow: Int16Array;
  readonly encodeHigh: ReadonlyMap<number, number>;
  /** Locking shift septet → character (`undefined` at the escape). */
  readonly decode: readonly (string | undefined)[];
  /** Single shift septet → character. */
  readonly decodeExtension: ReadonlyMap<number, string>;
}

/**
 * Builds the lookups of one locking shift table (128 positions: a string, or an array where
 * `undefined` marks a position without a character) and one single shift table. The escape
 * position (0x1B) of the locking shift table is never a character. A character of both tables is
 * written with the locking shift table (one septet); a character printed at two positions of one
 * table is written with the later one (the Kannada locking shift table prints U+0CAA at 0x24, the
 * place of U+0CA1, and again at 0x3D).
 */
export function buildSeptetLookup(locking: string | readonly (string | undefined)[], single: ReadonlyMap<number, string>): SeptetLookup {
  if (locking.length !== 128) throw new TypeError(`a locking shift table has 128 positions, not ${locking.length}`);
  const encodeLow = new Int16Array(TABLE_LIMIT).fill(NONE);
  const encodeHigh = new Map<number, number>();
  const put = (c: number, value: number): void => {
    if (c < TABLE_LIMIT) {
      if (encodeLow[c] === NONE) encodeLow[c] = value;
    } else if (!encodeHigh.has(c)) encodeHigh.set(c, value);
  };
  const decode: (string | undefined)[] = [];
  for (let s = 0; s < 128; s++) {
    const ch = s === GSM_ESCAPE ? undefined : locking[s];
    decode.push(ch === undefined || ch.length !== 1 ? undefined : ch);
  }
  // From the last position down, so that the first `put` of a character is its later position.
  for (let s = 127; s >= 0; s--) {
    const ch = decode[s];
    if (ch !== undefined) put(ch.charCodeAt(0), s);
  }
  const singles = [...single].sort((a, b) => b[0] - a[0]);
  for (const [s, ch] of singles) put(ch.charCodeAt(0), s | EXTENSION_FLAG);
  return { encodeLow, encodeHigh, decode, decodeExtension: single };
}

/** The default alphabet with the default extension table. */
export const GSM_DEFAULT: SeptetLookup = /* @__PURE__ */ buildSeptetLookup(GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE);

/** The septet value of UTF-16 code unit `c` in a lookup (with {@link EXTENSION_FLAG}), or {@link NONE}. */
export function septetOf(lookup: SeptetLookup, c: number): number {
  return c < TABLE_LIMIT ? (lookup.encodeLow[c] as number) : (lookup.encodeHigh.get(c) ?? NONE);
}

/** Whether a character (one UTF-16 code unit) is in the GSM default alphabet or its extension table. */
export function isGsmChar(char: string): boolean {
  return char.length === 1 && septetOf(GSM_DEFAULT, char.charCodeAt(0)) !== NONE;
}

/**
 * Whether every character of the text can be sent in the GSM 03.38 default alphabet and extension
 * table (no national tables). `true` for the empty string.
 */
export function isGsmText(text: string): boolean {
  const low = GSM_DEFAULT.encodeLow;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < TABLE_LIMIT ? low[c] === NONE : c !== 0x20ac) return false;
  }
  return true;
}

/**
 * The number of septets the text takes in the GSM default alphabet (an extension character counts
 * two), or `-1` when a character is not representable.
 */
export function gsmSeptetLength(text: string): number {
  const low = GSM_DEFAULT.encodeLow;
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < TABLE_LIMIT ? (low[c] as number) : c === 0x20ac ? EXTENSION_FLAG : NONE;
    if (v === NONE) return -1;
    septets += v >= EXTENSION_FLAG ? 2 : 1;
  }
  return septets;
}

/**
 * Describes a character for messages: `'€' (U+20AC)`. Lone surrogates and controls are shown by
 * code point only.
 */
export function describeChar(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const printable = cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0) && !(cp >= 0xd800 && cp <= 0xdfff);
  return printable ? `'${char}' (${hex})` : hex;
}

/**
 * The GSM 03.38 (3GPP TS 23.038) default alphabet and its extension table, both directions.
 *
 * Septets are numbers 0x00-0x7F. `0x1B` is the escape to the extension table: an extension
 * character is written as the pair `1B xx` and costs two septets. Lookups are typed arrays built
 * once at module load: every character of the GSM tables lies below U+0400 except the euro sign.
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
export const TABLE_LIMIT = 0x400;

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

/** Builds the lookups of one locking shift table (128 characters) and one single shift table. */
export function buildSeptetLookup(locking: string, single: ReadonlyMap<number, string>): SeptetLookup {
  if (locking.length !== 128) throw new TypeError(`a locking shift table has 128 characters, not ${locking.length}`);
  const encodeLow = new Int16Array(TABLE_LIMIT).fill(NONE);
  const encodeHigh = new Map<number, number>();
  const put = (c: number, value: number): void => {
    if (c < TABLE_LIMIT) {
      if (encodeLow[c] === NONE) encodeLow[c] = value;
    } else if (!encodeHigh.has(c)) encodeHigh.set(c, value);
  };
  const decode: (string | undefined)[] = [];
  for (let s = 0; s < 128; s++) {
    if (s === GSM_ESCAPE) {
      decode.push(undefined);
      continue;
    }
    const ch = locking.charAt(s);
    decode.push(ch);
    put(ch.charCodeAt(0), s);
  }
  // A character of both tables is written with the locking shift table (one septet).
  for (const [s, ch] of single) put(ch.charCodeAt(0), s | EXTENSION_FLAG);
  return { encodeLow, encodeHigh, decode, decodeExtension: single };
}

/** The default alphabet with the default extension table. */
export const GSM_DEFAULT: SeptetLookup = buildSeptetLookup(GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE);

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

/**
 * GSM 03.38 unpacked septets of a text, one octet per septet, an extension character as `1B xx`.
 * @throws TypeError naming the first character that the default alphabet and extension table cannot represent.
 */
export function gsmEncode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new TypeError('gsmEncode: text must be a string');
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = septetOf(GSM_DEFAULT, c);
    if (v === NONE) {
      const cp = text.codePointAt(i) ?? c;
      throw new TypeError(
        `${describeChar(String.fromCodePoint(cp))} at index ${i} is not in the GSM 03.38 default alphabet or extension table`,
      );
    }
    if (v >= EXTENSION_FLAG) {
      out[n++] = GSM_ESCAPE;
      out[n++] = v & 0x7f;
    } else out[n++] = v;
  }
  return out.subarray(0, n);
}

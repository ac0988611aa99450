/**
 * The content of inbound messages: the user data header of one part of a multipart message, and
 * the text of hex content. An inbound message does not say its charset, so text is decoded in a
 * charset the receiver names, or guessed (see {@link guessInboundCharset}).
 *
 * GSM text is decoded as TS 23.038 6.2.1.1 tells a receiver to (lenient, never lossy): an escape
 * followed by a septet without a single shift character is the locking shift table's character,
 * `1B 1B` a space, a trailing escape is dropped, and each such place is reported in
 * `substitutions`. The national language shift elements of the header select the tables.
 */
import type { MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { err, ok, type Result } from '../result.js';
import { decodeSeptets, failureMessage, type GsmSubstitution } from '../text/gsm-codec.js';
import { isDefaultTables, nationalTablesOfIds, type NationalTables } from '../text/gsm-national.js';
import { bytesToHex, decodeHex, hexToBytes, type HexCharset, type HexError } from '../text/hex.js';
import { parseUserDataHeader, type NationalShift, type UserDataHeader } from '../text/udh.js';

/** The charset to decode hex inbound content in: one of the hex charsets, or `'auto'` to guess it. */
export type InboundCharset = HexCharset | 'auto';

/** The user data header of an inbound message and where its payload starts. */
export interface InboundHeader {
  readonly header: UserDataHeader;
  /** The content's hex after the header. */
  readonly payload: string;
}

/**
 * The user data header at the start of an inbound message's content, when `udh` is `true` and the
 * type is `hexEncodedText` or `binary`; `undefined` otherwise (no header). A header that does not
 * parse is an error.
 */
export function inboundHeader(message: MobileOriginate['message']): Result<InboundHeader | undefined, HexError> {
  if (message.udh !== true || (message.type !== 'hexEncodedText' && message.type !== 'binary')) return ok(undefined);
  const bytes = hexToBytes(message.content);
  if (!bytes.ok) return bytes;
  const header = parseUserDataHeader(bytes.value);
  if (!header.ok) return header;
  return ok({ header: header.value, payload: message.content.slice(2 * header.value.length) });
}

/**
 * Guesses the charset of hex text content, since inbound messages do not carry one:
 *
 * 1. an octet above 7F rules GSM out: UTF-8 when it decodes as UTF-8 (text in other charsets
 *    almost never does), else UTF-16 when the length is even and it decodes, else Latin-1;
 * 2. otherwise UTF-16 when the length is even and at least half of the 16-bit units have a high
 *    octet of 00 to 0F (Latin, Greek, Cyrillic, Hebrew, Arabic, Indic and Thai text in UTF-16;
 *    unpacked GSM text would need an accented letter or symbol every other character);
 * 3. otherwise GSM (unpacked septets, as the service writes them; decoded the receiver's way, so
 *    an escape sequence no table defines does not make it something else).
 *
 * Short CJK text whose every octet is below 80 is the known misreading: name the charset when
 * your traffic holds such text.
 */
export function guessInboundCharset(octets: Uint8Array): HexCharset {
  let high = false;
  for (let i = 0; i < octets.length; i++) {
    if ((octets[i] as number) > 0x7f) {
      high = true;
      break;
    }
  }
  const even = octets.length % 2 === 0 && octets.length > 0;
  if (high) {
    if (decodesAs(octets, 'UTF-8')) return 'UTF-8';
    return even && decodesAs(octets, 'UTF-16') ? 'UTF-16' : 'Latin-1';
  }
  if (even) {
    let low = 0;
    for (let i = 0; i < octets.length; i += 2) if ((octets[i] as number) <= 0x0f) low++;
    if (low * 2 >= octets.length / 2 && decodesAs(octets, 'UTF-16')) return 'UTF-16';
  }
  return 'GSM';
}

function decodesAs(octets: Uint8Array, charset: HexCharset): boolean {
  return decodeHex(bytesToHex(octets), charset).ok;
}

/** Decoded inbound text and the charset it was read in. */
export interface InboundText {
  readonly text: string;
  readonly charset: HexCharset;
  /** GSM text: the national language tables it was decoded in, when the header named any. */
  readonly nationalTables?: NationalTables;
  /**
   * GSM text: each place where the receiver decoding of TS 23.038 6.2.1.1 substituted (present only
   * when it did), with the septets, their octet index in the hex and what they became.
   */
  readonly substitutions?: readonly GsmSubstitution[];
}

/** Options of {@link decodeInboundText}. */
export interface InboundTextOptions {
  /**
   * The national language shift elements of the message's user data header (TS 23.038 language
   * identifiers, as `parseUserDataHeader` gives them): GSM text is decoded in those tables, and
   * `'auto'` reads text with them as GSM. An identifier TS 23.038 does not define selects the
   * default table, as a receiver that does not know the language does.
   */
  readonly national?: NationalShift;
}

/**
 * Decodes the hex of inbound text (the payload after any user data header) in `charset`, or in
 * the guessed one with `'auto'` ({@link guessInboundCharset}). GSM text is decoded the receiver's
 * way (see the module notes); only an octet over 7F makes it fail.
 */
export function decodeInboundText(hex: string, charset: InboundCharset = 'auto', options: InboundTextOptions = {}): Result<InboundText, HexError> {
  if (typeof hex !== 'string') throw new TypeError('decodeInboundText: hex must be a string');
  const tables = options.national === undefined ? undefined : nationalTablesOfIds(options.national).tables;
  const national = tables !== undefined && !isDefaultTables(tables) ? tables : undefined;
  let chosen: HexCharset;
  let bytes: Uint8Array | undefined;
  if (charset === 'auto' || charset === 'GSM') {
    const decoded = hexToBytes(hex);
    if (!decoded.ok) return decoded;
    bytes = decoded.value;
    chosen = charset === 'GSM' || (national !== undefined && bytes.every((b) => b < 0x80)) ? 'GSM' : guessInboundCharset(bytes);
  } else chosen = charset;
  if (chosen === 'GSM' && bytes !== undefined) {
    const gsm = decodeSeptets(bytes, 0, national, true);
    if (!gsm.ok) {
      const at = 2 * gsm.error.index;
      return err({ kind: 'invalid-octets', offset: at, message: failureMessage(gsm.error, `at offset ${at}`, national) });
    }
    const { text, substitutions } = gsm.value;
    return ok({
      text,
      charset: chosen,
      ...(national === undefined ? {} : { nationalTables: national }),
      ...(substitutions.length === 0 ? {} : { substitutions }),
    });
  }
  const text = decodeHex(hex, chosen);
  if (!text.ok) return err(text.error);
  return ok({ text: text.value, charset: chosen });
}

/**
 * GSM 7-bit text in any combination of TS 23.038 tables (the default alphabet and extension table,
 * or national locking and single shift tables): unpacked septets, one octet per septet, a single
 * shift character as the escape `1B` and its septet.
 *
 * Encoding is strict: a character outside the tables is an error. Decoding is strict by default;
 * `mode: 'receiver'` decodes as TS 23.038 6.2.1.1 tells a receiving entity to, for text the
 * service sends us, and reports each place where it did:
 *
 * | septets | strict | receiver (substitution kind) |
 * | --- | --- | --- |
 * | `1B xx`, `xx` without a character in the single shift table | error | the character of `xx` in the locking shift table (`unknown-escape`) |
 * | `1B 1B` (reserved for a further extension table) | error | a space (`escape-escape`) |
 * | `1B` ending the content | error | dropped (`trailing-escape`) |
 * | a septet without a character in the locking shift table (the national tables leave some empty) | error | U+FFFD (`no-character`) |
 * | an octet over 7F | error | error (not a septet) |
 */
import { err, ok, type Result } from '../result.js';
import { describeChar, EXTENSION_FLAG, GSM_ESCAPE, NONE, septetOf, type SeptetLookup } from './gsm-alphabet.js';
import { IEI_NATIONAL_LOCKING_SHIFT, IEI_NATIONAL_SINGLE_SHIFT, isDefaultTables, languageName, septetCosts, type NationalTables } from './gsm-national.js';

/** Options of {@link gsmEncode}: the tables to encode with (default: the default alphabet and extension table). */
export interface GsmCodecOptions {
  readonly nationalTables?: NationalTables;
}

/** Options of {@link gsmDecode}. */
export interface GsmDecodeOptions extends GsmCodecOptions {
  /**
   * `'strict'` (default): what the tables do not define is an error. `'receiver'`: decoded as TS
   * 23.038 6.2.1.1 tells a receiver to, each place reported in `substitutions`.
   */
  readonly mode?: 'strict' | 'receiver';
}

/** What a receiver did with septets the tables do not define (see the module table). */
export type GsmSubstitutionKind = 'unknown-escape' | 'escape-escape' | 'trailing-escape' | 'no-character';

/** One place where receiver decoding substituted: the septets, where they are and what they became. */
export interface GsmSubstitution {
  readonly kind: GsmSubstitutionKind;
  /** Index of the first septet concerned (in hex content: the octet index, so the hex offset is twice it). */
  readonly index: number;
  /** The septets as upper-case hex: `'1B41'`, `'1B1B'`, `'1B'`, `'11'`. */
  readonly septets: string;
  /** What was decoded in their place (`''` when dropped). */
  readonly char: string;
}

/** Decoded GSM text and, in receiver mode, what was substituted (empty in strict mode). */
export interface GsmDecoded {
  readonly text: string;
  readonly substitutions: readonly GsmSubstitution[];
}

/** Why septets do not decode. */
export type GsmDecodeErrorKind = 'not-a-septet' | 'unknown-escape' | 'escape-escape' | 'trailing-escape' | 'no-character';

/** A GSM decoding failure at septet `index`. */
export interface GsmDecodeError {
  readonly kind: GsmDecodeErrorKind;
  readonly index: number;
  readonly message: string;
}

const HEX = '0123456789ABCDEF';
const hex2 = (b: number): string => HEX.charAt(b >> 4) + HEX.charAt(b & 15);

/** The lookup of a combination of tables (cached with its costs). */
const lookupOf = (tables: NationalTables | undefined): SeptetLookup => septetCosts(tables ?? {}).lookup;

/**
 * The tables named for messages: `'the Hindi locking shift table and the default extension table'`
 * (`conjunction` `'or'` for "not in …").
 */
export function describeTables(tables: NationalTables | undefined, conjunction: 'and' | 'or' = 'and'): string {
  if (isDefaultTables(tables)) return `the GSM 03.38 default alphabet ${conjunction} extension table`;
  const locking = tables?.locking === undefined || tables.locking === 'spanish' ? 'the default alphabet' : `the ${languageName(tables.locking)} locking shift table`;
  const single = tables?.single === undefined ? 'the default extension table' : `the ${languageName(tables.single)} single shift table`;
  return `${locking} ${conjunction} ${single}`;
}

/** Index of the first UTF-16 code unit of `text` the tables cannot represent, or -1. */
export function gsmUnencodableIndex(text: string, tables?: NationalTables): number {
  const lookup = lookupOf(tables);
  for (let i = 0; i < text.length; i++) if (septetOf(lookup, text.charCodeAt(i)) === NONE) return i;
  return -1;
}

/**
 * Unpacked septets of a text in the given tables (default: the default alphabet and extension
 * table), one octet per septet, a single shift character as `1B xx`. A character in both tables
 * takes the locking shift table's one septet.
 * @throws TypeError naming the first character the tables cannot represent (with its index).
 */
export function gsmEncode(text: string, options: GsmCodecOptions = {}): Uint8Array {
  if (typeof text !== 'string') throw new TypeError('gsmEncode: text must be a string');
  const { nationalTables } = options;
  const lookup = lookupOf(nationalTables);
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = septetOf(lookup, c);
    if (v === NONE) {
      const cp = text.codePointAt(i) ?? c;
      throw new TypeError(`${describeChar(String.fromCodePoint(cp))} at index ${i} is not in ${describeTables(nationalTables, 'or')}`);
    }
    if (v >= EXTENSION_FLAG) {
      out[n++] = GSM_ESCAPE;
      out[n++] = v & 0x7f;
    } else out[n++] = v;
  }
  return out.subarray(0, n);
}

/** Where decoding failed: the kind, the septet index, and the septets (for messages). */
interface Failure {
  readonly kind: GsmDecodeErrorKind;
  readonly index: number;
  readonly septet: number;
  readonly next?: number;
}

/**
 * Decodes `bytes[start..]` as septets in the tables; receiver mode substitutes as the module table
 * says. Indexes in the result are indexes in `bytes`.
 */
export function decodeSeptets(
  bytes: Uint8Array,
  start: number,
  tables: NationalTables | undefined,
  receiver: boolean,
): Result<GsmDecoded, Failure> {
  const { decode, decodeExtension } = lookupOf(tables);
  const substitutions: GsmSubstitution[] = [];
  let s = '';
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b > 0x7f) return err({ kind: 'not-a-septet', index: i, septet: b });
    if (b !== GSM_ESCAPE) {
      const ch = decode[b];
      if (ch !== undefined) s += ch;
      else if (!receiver) return err({ kind: 'no-character', index: i, septet: b });
      else {
        s += '\ufffd';
        substitutions.push({ kind: 'no-character', index: i, septets: hex2(b), char: '\ufffd' });
      }
      continue;
    }
    if (i + 1 >= bytes.length) {
      if (!receiver) return err({ kind: 'trailing-escape', index: i, septet: b });
      substitutions.push({ kind: 'trailing-escape', index: i, septets: '1B', char: '' });
      continue;
    }
    const x = bytes[++i] as number;
    if (x > 0x7f) return err({ kind: 'not-a-septet', index: i, septet: x });
    const ch = decodeExtension.get(x);
    if (ch !== undefined) {
      s += ch;
      continue;
    }
    const kind: GsmSubstitutionKind = x === GSM_ESCAPE ? 'escape-escape' : 'unknown-escape';
    if (!receiver) return err({ kind, index: i - 1, septet: GSM_ESCAPE, next: x });
    // TS 23.038 6.2.1.1: the character of the main (locking shift) table; 1B 1B shows a space.
    const shown = x === GSM_ESCAPE ? ' ' : (decode[x] ?? '\ufffd');
    s += shown;
    substitutions.push({ kind, index: i - 1, septets: `1B${hex2(x)}`, char: shown });
  }
  return ok({ text: s, substitutions });
}

/** The message of a decoding failure; `where` names the place (`'at index 3'`, `'at offset 6'`). */
export function failureMessage(f: Failure, where: string, tables: NationalTables | undefined): string {
  switch (f.kind) {
    case 'not-a-septet':
      return `octet ${hex2(f.septet)} ${where} is not a GSM 03.38 septet (over 7F)`;
    case 'trailing-escape':
      return `escape 1B ${where} ends the content`;
    case 'no-character':
      return `septet ${hex2(f.septet)} ${where} has no character in ${describeTables(tables, 'or')}`;
    default:
      return isDefaultTables(tables)
        ? `escape pair 1B ${hex2(f.next ?? 0)} ${where} has no GSM 03.38 extension character`
        : `escape pair 1B ${hex2(f.next ?? 0)} ${where} has no character in ${describeTables(tables, 'or')}`;
  }
}

/**
 * Decodes unpacked septets in the given tables. Strict by default; with `mode: 'receiver'` only an
 * octet over 7F fails, and each substitution TS 23.038 prescribes is reported.
 * @throws TypeError when `septets` is not a `Uint8Array` or the mode is unknown.
 */
export function gsmDecode(septets: Uint8Array, options: GsmDecodeOptions = {}): Result<GsmDecoded, GsmDecodeError> {
  if (!(septets instanceof Uint8Array)) throw new TypeError('gsmDecode: septets must be a Uint8Array');
  const { nationalTables, mode = 'strict' } = options;
  if (mode !== 'strict' && mode !== 'receiver') throw new TypeError(`gsmDecode: mode must be strict or receiver, not ${String(mode)}`);
  const decoded = decodeSeptets(septets, 0, nationalTables, mode === 'receiver');
  if (decoded.ok) return decoded;
  const f = decoded.error;
  return err({ kind: f.kind, index: f.index, message: failureMessage(f, `at index ${f.index}`, nationalTables) });
}

/**
 * The national language shift elements (IEI 24 single, 25 locking) of a user data header (length
 * octet included), as language identifiers. Elements that do not fit the header end the scan; the
 * first element of each kind counts.
 */
export function nationalShiftOfHeader(header: Uint8Array): { single?: number; locking?: number } {
  const end = Math.min(header.length, 1 + (header[0] ?? 0));
  let single: number | undefined;
  let locking: number | undefined;
  for (let i = 1; i + 1 < end; ) {
    const iei = header[i] as number;
    const len = header[i + 1] as number;
    if (i + 2 + len > end) break;
    if (len === 1) {
      if (iei === IEI_NATIONAL_SINGLE_SHIFT && single === undefined) single = header[i + 2];
      if (iei === IEI_NATIONAL_LOCKING_SHIFT && locking === undefined) locking = header[i + 2];
    }
    i += 2 + len;
  }
  return { ...(single === undefined ? {} : { single }), ...(locking === undefined ? {} : { locking }) };
}

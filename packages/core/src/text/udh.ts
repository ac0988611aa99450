/**
 * User data headers (3GPP TS 23.040 9.2.3.24): parse and build the header octets that may start
 * `hexEncodedText` and `binary` content when `udh` is `true`. The header is its length octet
 * (UDHL) followed by information elements, each an identifier (IEI), a length and data.
 *
 * Known elements: concatenation with an 8-bit reference (IEI 00) or a 16-bit reference (IEI 08),
 * application port addressing with 8-bit (IEI 04) or 16-bit ports (IEI 05; WAP Push is
 * `06 05 04 0B84 23F0`: destination port 2948, source port 9200), and the national language single
 * shift (IEI 24) and locking shift (IEI 25). Other elements are kept as they are.
 */
import { err, ok, type Result } from '../result.js';
import type { ReferenceBits } from './capacity.js';
import { IEI_NATIONAL_LOCKING_SHIFT, IEI_NATIONAL_SINGLE_SHIFT } from './gsm-national.js';
import { bytesToHex, hexToBytes, type HexError } from './hex.js';

/** One information element of a user data header. */
export interface InformationElement {
  /** Information element identifier (IEI). */
  readonly iei: number;
  readonly data: Uint8Array;
}

/** The concatenation element of a part of a multipart message. */
export interface Concatenation {
  /** The reference shared by all parts of the message (0-255, or 0-65535 with a 16-bit reference). */
  readonly reference: number;
  /** Number of parts (1-255). */
  readonly total: number;
  /** This part's number, from 1 to `total`. */
  readonly sequence: number;
  readonly referenceBits: ReferenceBits;
}

/** Application port addressing. */
export interface PortAddressing {
  readonly destination: number;
  readonly source: number;
  /** Width of the ports: 8 (IEI 04) or 16 (IEI 05). */
  readonly portBits: 8 | 16;
}

/**
 * National language shift elements, as TS 23.038 language identifiers (1 Turkish, 2 Spanish, 3
 * Portuguese, 4 Bengali, 5 Gujarati, 6 Hindi, 7 Kannada, 8 Malayalam, 9 Oriya, 10 Punjabi, 11 Tamil,
 * 12 Telugu, 13 Urdu; `nationalTablesOfIds` turns them into tables).
 */
export interface NationalShift {
  readonly single?: number;
  readonly locking?: number;
}

/** A parsed user data header. */
export interface UserDataHeader {
  /** Octets of the header, its length octet included. */
  readonly length: number;
  readonly elements: readonly InformationElement[];
  readonly concatenation?: Concatenation;
  readonly ports?: PortAddressing;
  readonly national?: NationalShift;
}

/** What {@link buildUserDataHeader} writes; elements are written in the order concatenation, ports, national, others. */
export interface UserDataHeaderSpec {
  readonly concatenation?: Omit<Concatenation, 'referenceBits'> & { readonly referenceBits?: ReferenceBits };
  readonly ports?: Omit<PortAddressing, 'portBits'> & { readonly portBits?: 8 | 16 };
  readonly national?: NationalShift;
  readonly elements?: readonly InformationElement[];
}

/** Content split into its user data header and payload. */
export interface SplitUdh {
  /** The header's hex as given (length octet included). */
  readonly udh: string;
  /** The hex after the header. */
  readonly payload: string;
  readonly header: UserDataHeader;
}

/** IEI of concatenation with an 8-bit reference. */
export const IEI_CONCATENATION_8 = 0x00;
/** IEI of concatenation with a 16-bit reference. */
export const IEI_CONCATENATION_16 = 0x08;
/** IEI of application port addressing with 8-bit ports. */
export const IEI_PORTS_8 = 0x04;
/** IEI of application port addressing with 16-bit ports. */
export const IEI_PORTS_16 = 0x05;
export { IEI_NATIONAL_SINGLE_SHIFT, IEI_NATIONAL_LOCKING_SHIFT } from './gsm-national.js';

/** The WAP Push port-addressing header: destination port 2948 (WAP Push), source port 9200. */
export const WAP_PUSH_UDH = '0605040B8423F0';

const badUdh = (offset: number, message: string): HexError => ({ kind: 'bad-udh', offset, message });

const hex2 = (b: number): string => bytesToHex(new Uint8Array([b]));

/** Expected data length of the known elements. */
const KNOWN_LENGTH: ReadonlyMap<number, number> = new Map([
  [IEI_CONCATENATION_8, 3],
  [IEI_CONCATENATION_16, 4],
  [IEI_PORTS_8, 2],
  [IEI_PORTS_16, 4],
  [IEI_NATIONAL_SINGLE_SHIFT, 1],
  [IEI_NATIONAL_LOCKING_SHIFT, 1],
]);

/**
 * Parses the user data header at the start of `bytes` (octets after the header are ignored). The
 * elements must exactly fill the length the first octet announces; a known element must have its
 * defined length; a concatenation element must have a total of at least 1 and a sequence from 1 to
 * the total; a known element may not repeat. Error offsets are hex offsets (2 per octet).
 */
export function parseUserDataHeader(bytes: Uint8Array): Result<UserDataHeader, HexError> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('parseUserDataHeader: bytes must be a Uint8Array');
  if (bytes.length === 0) return err(badUdh(0, 'the user data header has no length octet'));
  const udhl = bytes[0] as number;
  const end = 1 + udhl;
  if (end > bytes.length) return err(badUdh(0, `the user data header length (${udhl}) runs past the end of the content (${bytes.length - 1} octets after it)`));
  const elements: InformationElement[] = [];
  let concatenation: Concatenation | undefined;
  let ports: PortAddressing | undefined;
  let single: number | undefined;
  let locking: number | undefined;
  const seen = new Set<number>();
  let i = 1;
  while (i < end) {
    const at = 2 * i;
    if (i + 2 > end) return err(badUdh(at, `information element at offset ${at} has no length octet inside the header`));
    const iei = bytes[i] as number;
    const len = bytes[i + 1] as number;
    if (i + 2 + len > end) return err(badUdh(at, `information element ${hex2(iei)} at offset ${at} (length ${len}) runs past the end of the header`));
    const data = bytes.slice(i + 2, i + 2 + len);
    const known = KNOWN_LENGTH.get(iei);
    if (known !== undefined) {
      if (len !== known) return err(badUdh(at, `information element ${hex2(iei)} at offset ${at} has length ${len}, not ${known}`));
      if (seen.has(iei)) return err(badUdh(at, `information element ${hex2(iei)} at offset ${at} repeats`));
      seen.add(iei);
      const d = (k: number): number => data[k] as number;
      switch (iei) {
        case IEI_CONCATENATION_8:
        case IEI_CONCATENATION_16: {
          if (concatenation !== undefined) return err(badUdh(at, `a second concatenation element at offset ${at}`));
          const bits: ReferenceBits = iei === IEI_CONCATENATION_8 ? 8 : 16;
          const reference = bits === 8 ? d(0) : (d(0) << 8) | d(1);
          const total = d(bits === 8 ? 1 : 2);
          const sequence = d(bits === 8 ? 2 : 3);
          if (total === 0 || sequence === 0 || sequence > total) {
            return err(badUdh(at, `concatenation element at offset ${at} has part ${sequence} of ${total}`));
          }
          concatenation = { reference, total, sequence, referenceBits: bits };
          break;
        }
        case IEI_PORTS_8:
        case IEI_PORTS_16: {
          if (ports !== undefined) return err(badUdh(at, `a second port addressing element at offset ${at}`));
          ports =
            iei === IEI_PORTS_8
              ? { destination: d(0), source: d(1), portBits: 8 }
              : { destination: (d(0) << 8) | d(1), source: (d(2) << 8) | d(3), portBits: 16 };
          break;
        }
        case IEI_NATIONAL_SINGLE_SHIFT:
          single = d(0);
          break;
        default:
          locking = d(0);
      }
    }
    elements.push({ iei, data });
    i += 2 + len;
  }
  const national: NationalShift | undefined =
    single === undefined && locking === undefined
      ? undefined
      : { ...(single === undefined ? {} : { single }), ...(locking === undefined ? {} : { locking }) };
  return ok({
    length: end,
    elements,
    ...(concatenation === undefined ? {} : { concatenation }),
    ...(ports === undefined ? {} : { ports }),
    ...(national === undefined ? {} : { national }),
  });
}

function byte(value: number, what: string, max = 0xff, min = 0): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new TypeError(`buildUserDataHeader: ${what} must be an integer from ${min} to ${max}, not ${String(value)}`);
  return value;
}

/**
 * Builds a user data header (length octet included).
 * @throws TypeError when a value is out of range (reference, total, sequence, ports, language
 *   identifiers, element identifiers or lengths) or the header would exceed 139 octets.
 */
export function buildUserDataHeader(spec: UserDataHeaderSpec): Uint8Array {
  if (spec === null || typeof spec !== 'object') throw new TypeError('buildUserDataHeader: spec must be an object');
  const { concatenation, ports, national, elements = [] } = spec;
  const out: number[] = [0];
  if (concatenation !== undefined) {
    const { reference, total, sequence, referenceBits = 8 } = concatenation;
    if (referenceBits !== 8 && referenceBits !== 16) throw new TypeError(`buildUserDataHeader: referenceBits must be 8 or 16, not ${String(referenceBits)}`);
    byte(total, 'concatenation total', 255, 1);
    byte(sequence, 'concatenation sequence', total, 1);
    if (referenceBits === 8) out.push(IEI_CONCATENATION_8, 3, byte(reference, 'an 8-bit reference'), total, sequence);
    else {
      byte(reference, 'a 16-bit reference', 0xffff);
      out.push(IEI_CONCATENATION_16, 4, reference >> 8, reference & 0xff, total, sequence);
    }
  }
  if (ports !== undefined) {
    const { destination, source, portBits = 16 } = ports;
    if (portBits === 8) out.push(IEI_PORTS_8, 2, byte(destination, 'an 8-bit port'), byte(source, 'an 8-bit port'));
    else if (portBits === 16) {
      byte(destination, 'a 16-bit port', 0xffff);
      byte(source, 'a 16-bit port', 0xffff);
      out.push(IEI_PORTS_16, 4, destination >> 8, destination & 0xff, source >> 8, source & 0xff);
    } else throw new TypeError(`buildUserDataHeader: portBits must be 8 or 16, not ${String(portBits)}`);
  }
  if (national?.single !== undefined) out.push(IEI_NATIONAL_SINGLE_SHIFT, 1, byte(national.single, 'a language identifier'));
  if (national?.locking !== undefined) out.push(IEI_NATIONAL_LOCKING_SHIFT, 1, byte(national.locking, 'a language identifier'));
  for (const { iei, data } of elements) {
    if (!(data instanceof Uint8Array)) throw new TypeError('buildUserDataHeader: element data must be a Uint8Array');
    out.push(byte(iei, 'an element identifier'), byte(data.length, 'an element length'), ...data);
  }
  if (out.length > 140) throw new TypeError(`buildUserDataHeader: a header of ${out.length} octets does not fit in a part`);
  out[0] = out.length - 1;
  return Uint8Array.from(out);
}

/**
 * Splits hex content whose first octet is a user data header length into the header and the
 * payload, parsing the header ({@link parseUserDataHeader}).
 */
export function splitUdh(hex: string): Result<SplitUdh, HexError> {
  if (typeof hex !== 'string') throw new TypeError('splitUdh: hex must be a string');
  const bytes = hexToBytes(hex);
  if (!bytes.ok) return bytes;
  const header = parseUserDataHeader(bytes.value);
  if (!header.ok) return header;
  const cut = 2 * header.value.length;
  return ok({ udh: hex.slice(0, cut), payload: hex.slice(cut), header: header.value });
}

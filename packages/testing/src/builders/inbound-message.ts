/**
 * Inbound messages (MO) as the service posts them: plain `text`, `hexEncodedText` (text with control
 * characters, or a part of a long message with its concatenation header) or `binary`; each part of a
 * long message on its own, split by core's segment estimator with a real user data header (8- or
 * 16-bit reference) at the start of its hex content.
 */
import {
  buildUserDataHeader,
  bytesToHex,
  canEncodeHex,
  decodeHexContent,
  encodeHex,
  encodeMobileOriginate,
  estimateSegments,
  type HexCharset,
  type MobileOriginate,
  type MoMessage,
} from '@smsv4/core';
import { encodeOptions, finishPayload, formatOf, type Payload, type WireOptions } from './payload.js';
import { randomTicketId } from './ticket-id.js';
import { utcText, type InstantInput } from './timestamps.js';

/** Options of the sender, the originator and the wire form, shared by both inbound builders. */
export interface InboundCommonOptions extends WireOptions {
  /** The handset's number (default `14155550123`). */
  readonly from?: string;
  /** Its mobile operator (default 383); `null` leaves it out. */
  readonly fromOperatorId?: number | null;
  /** The originator it was sent to (default the short code `24273`). */
  readonly to?: string;
  /** Type of number of `to` (default: 3 for up to 8 digits, 1 for a longer number, 5 for letters). */
  readonly toTon?: number;
  /** When the service took it (`submittedDate`, default now); `null` leaves it out. */
  readonly submittedAt?: InstantInput | null;
  /**
   * XML: where the text goes: the `content` attribute of `<message>` (default, as the spec shows) or
   * a `<content>` child element (as real payloads also carry it).
   */
  readonly content?: 'attribute' | 'element';
}

/** Options of {@link buildInboundMessage}. */
export interface InboundMessageOptions extends InboundCommonOptions {
  /** The text (give `text` or `hex`). */
  readonly text?: string;
  /** Hex content (give `text` or `hex`): `hexEncodedText`, or `binary` with `binary: true`. */
  readonly hex?: string;
  readonly binary?: boolean;
  /** `hex` starts with a user data header (default `false`). */
  readonly udh?: boolean;
  /** Text only: its charset when it goes as `hexEncodedText` (default GSM when it can, else UTF-16). */
  readonly charset?: HexCharset;
  /** Default: a fresh random ticket ID. */
  readonly ticketId?: string;
}

// C0 controls other than tab, line feed and carriage return, and DEL: text the service sends as hex.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** `ton` of an originator. */
export function tonOf(address: string): number {
  if (!/^[0-9]+$/.test(address)) return 5;
  return address.length <= 8 ? 3 : 1;
}

/** Moves `content="…"` of `<message>` into a `<content>` child (the escaped text reads back the same). */
function contentAsElement(xml: string): string {
  return xml.replace(/<message\b([^>]*?)\scontent="([^"]*)"([^>]*?)\/>/, (_all, before: string, text: string, after: string) => `<message${before}${after}><content>${text}</content></message>`);
}

function inboundPayload(message: MoMessage, options: InboundCommonOptions & { ticketId?: string }): Payload<MobileOriginate> {
  const format = formatOf(options);
  const { from = '14155550123', fromOperatorId = 383, to = '24273', toTon = tonOf(to), submittedAt = Date.now(), ticketId = randomTicketId(), content = 'attribute' } = options;
  if (content !== 'attribute' && content !== 'element') throw new TypeError(`content must be 'attribute' or 'element', got ${JSON.stringify(content)}`);
  const value: MobileOriginate = {
    ...(submittedAt === null ? {} : { submittedDate: utcText(submittedAt, 'submittedAt') }),
    ticketId,
    source: { ton: 1, address: from, ...(fromOperatorId === null ? {} : { mobileOperatorId: fromOperatorId }) },
    destination: { ton: toTon, address: to },
    message,
  };
  let encoded = encodeMobileOriginate(value, format, encodeOptions('mobileOriginate', options));
  if (format === 'xml' && content === 'element') encoded = contentAsElement(encoded);
  return finishPayload('mobileOriginate', value, encoded, { ...options, format });
}

/**
 * One inbound message in one part. Plain text goes as `text`; text with control characters as
 * `hexEncodedText` (GSM when it can, else UTF-16, or `charset`); `hex` as `hexEncodedText`, or
 * `binary` with `binary: true`. `TypeError` for a value the service cannot send.
 *
 * @example
 * const stop = buildInboundMessage({ text: 'STOP', from: '14155550123', to: '24273' });
 */
export function buildInboundMessage(options: InboundMessageOptions): Payload<MobileOriginate> {
  const { text, hex, binary = false, udh = false, charset } = options;
  if ((text === undefined) === (hex === undefined)) throw new TypeError('give either text or hex');
  let message: MoMessage;
  if (hex !== undefined) {
    if (typeof hex !== 'string' || !/^(?:[0-9A-Fa-f]{2})+$/.test(hex)) throw new TypeError('hex must be an even number of hexadecimal digits');
    message = { type: binary ? 'binary' : 'hexEncodedText', udh, content: hex.toUpperCase() };
  } else if (typeof text !== 'string' || text.length === 0) {
    throw new TypeError('text must be a non-empty string');
  } else if (CONTROL.test(text) || charset !== undefined) {
    const chosen = charset ?? (canEncodeHex(text, 'GSM') ? 'GSM' : 'UTF-16');
    if (!canEncodeHex(text, chosen)) throw new TypeError(`the text cannot be written in ${chosen}`);
    message = { type: 'hexEncodedText', udh: false, content: encodeHex(text, chosen) };
  } else {
    message = { type: 'text', udh: false, content: text };
  }
  return inboundPayload(message, options);
}

/** Options of {@link buildMultipartInbound}. */
export interface MultipartInboundOptions extends InboundCommonOptions {
  /** Text longer than one part. */
  readonly text: string;
  /** The charset of the parts (default GSM when every character is in the GSM alphabet, else UTF-16). */
  readonly charset?: HexCharset;
  /** Width of the concatenation reference: 8 (default) or 16 bits. */
  readonly referenceBits?: 8 | 16;
  /** The concatenation reference (default random, within the width). */
  readonly reference?: number;
  /** The ticket ID of each part (default: fresh random ones). */
  readonly ticketIds?: readonly string[];
}

/** The parts of a long inbound message, and how they were split. */
export interface MultipartInbound {
  /** One payload per part, in order of sequence number; each has its own ticket ID. */
  readonly parts: readonly Payload<MobileOriginate>[];
  readonly text: string;
  readonly charset: HexCharset;
  readonly referenceBits: 8 | 16;
  readonly reference: number;
  /** The text each part carries (their concatenation is `text`). */
  readonly partTexts: readonly string[];
}

/**
 * A long inbound message split as a handset splits it: core's estimator cuts the text (never an
 * escape pair or a surrogate pair), and each part goes as `hexEncodedText` with `udh: true` and a
 * concatenation header (IEI 00 with an 8-bit reference, or 08 with a 16-bit one) before its hex.
 * `TypeError` for text that fits in one part, or that the charset cannot carry.
 *
 * @example
 * const { parts } = buildMultipartInbound({ text: 'Long reply '.repeat(20), referenceBits: 16 });
 * for (const part of parts.toReversed()) await postCallback(url, part); // in any order
 */
export function buildMultipartInbound(options: MultipartInboundOptions): MultipartInbound {
  const { text, referenceBits = 8, ticketIds } = options;
  if (typeof text !== 'string' || text.length === 0) throw new TypeError('text must be a non-empty string');
  if (referenceBits !== 8 && referenceBits !== 16) throw new TypeError('referenceBits must be 8 or 16');
  const limit = referenceBits === 8 ? 0x100 : 0x10000;
  const reference = options.reference ?? Math.floor(Math.random() * limit);
  if (!Number.isInteger(reference) || reference < 0 || reference >= limit) throw new TypeError(`reference must be an integer from 0 to ${limit - 1}`);
  const charset = options.charset ?? (canEncodeHex(text, 'GSM') ? 'GSM' : 'UTF-16');
  if (!canEncodeHex(text, charset)) throw new TypeError(`the text cannot be written in ${charset}`);
  const estimate = estimateSegments(encodeHex(text, charset), { type: 'hexEncodedText', charset, referenceBits });
  if (!estimate.ok) throw new TypeError(`the text cannot be split: ${estimate.error.message}`);
  const hexParts = estimate.value.parts;
  if (hexParts.length < 2) throw new TypeError('the text fits in one part: use buildInboundMessage');
  if (ticketIds !== undefined && ticketIds.length !== hexParts.length) throw new TypeError(`ticketIds must name ${hexParts.length} parts`);
  const total = hexParts.length;
  const partTexts = hexParts.map((partHex) => {
    const decoded = decodeHexContent(partHex, charset);
    if (!decoded.ok || decoded.value.text === undefined) throw new TypeError(`a part does not decode in ${charset}`);
    return decoded.value.text;
  });
  const parts = hexParts.map((partHex, i) => {
    const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence: i + 1, referenceBits } }));
    return inboundPayload({ type: 'hexEncodedText', udh: true, content: header + partHex }, { ...options, ticketId: ticketIds?.[i] ?? randomTicketId() });
  });
  return { parts, text, charset, referenceBits, reference, partTexts };
}

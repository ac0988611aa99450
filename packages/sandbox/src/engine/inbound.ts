/**
 * Inbound messages (MO): a handset's message to one of the customer's originators, posted to the
 * customer's receiver as `mobileOriginate`. Plain single-part text goes as `text`; text with control
 * characters as `hexEncodedText`; text that needs several parts is split with core's estimator and
 * each part goes on its own as `hexEncodedText` with a concatenation header (8- or 16-bit
 * reference) at the start of its content; hex content goes as `hexEncodedText` or `binary`.
 */
import {
  buildUserDataHeader,
  bytesToHex,
  canEncodeHex,
  decodeHexContent,
  encodeHex,
  estimateSegments,
  HEX_CHARSETS,
  type HexCharset,
  type MobileOriginate,
  type WireFormat,
} from '@smsv4/core';

/** An inbound message to inject (`POST /__sandbox/api/inbound`, `sandbox.injectInbound`). */
export interface InboundInput {
  /** The account that owns the originator `to` (default: the first account). */
  readonly accountId?: string;
  /** The handset's number: 5 to 20 digits, country code first. */
  readonly from: string;
  /** The originator it was sent to: 1 to 20 letters or digits (short code, long code, ...). */
  readonly to: string;
  /** The text (give `text` or `hex`). */
  readonly text?: string;
  /** Hex content (give `text` or `hex`). */
  readonly hex?: string;
  /**
   * `text`: the charset the parts of a multipart message are encoded in (default GSM when every
   * character is in the GSM alphabet, else UTF-16). `hex`: the charset of the content, to show it.
   */
  readonly charset?: HexCharset;
  /** `hex` is binary content (`type: binary`). */
  readonly binary?: boolean;
  /** `hex` starts with a user data header (default `false`). */
  readonly udh?: boolean;
  /** `false` sends long text as one message instead of parts (default `true`). */
  readonly multipart?: boolean;
  /** Width of the concatenation reference of the parts: 8 (default) or 16. */
  readonly referenceBits?: 8 | 16;
  /**
   * Where to post (default: the account's inbound URL): loopback, the accounts' hosts or
   * `callbackHosts`; credentials in its userinfo are sent as `Authorization: Basic`.
   */
  readonly url?: string;
  /** Format of the post (default: the account's inbound format, else XML). */
  readonly format?: WireFormat;
}

/** One part ready to post. */
export interface InboundPart {
  readonly message: MobileOriginate['message'];
  /** The readable text of the part, when known. */
  readonly text?: string;
}

/** Why an inbound message was refused (HTTP 400 `invalid-inbound`). */
export interface InboundError {
  readonly code: 'invalid-inbound';
  readonly description: string;
}

const fail = (description: string): { ok: false; error: InboundError } => ({ ok: false, error: { code: 'invalid-inbound', description } });

// C0 controls other than tab, line feed and carriage return, and DEL: not "plain" text.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Checks the members of an inbound input (a parsed JSON body may hold anything). */
export function checkInboundInput(input: unknown): { ok: true; value: InboundInput } | { ok: false; error: InboundError } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('the body must be a JSON object');
  const v = input as Record<string, unknown>;
  const known = ['accountId', 'from', 'to', 'text', 'hex', 'charset', 'binary', 'udh', 'multipart', 'referenceBits', 'url', 'format'];
  const unknown = Object.keys(v).find((k) => !known.includes(k));
  if (unknown !== undefined) return fail(`unknown member ${JSON.stringify(unknown)}`);
  if (typeof v.from !== 'string' || !/^[0-9]{5,20}$/.test(v.from)) return fail('from must be a phone number of 5 to 20 digits (country code first, no +)');
  if (typeof v.to !== 'string' || !/^[A-Za-z0-9]{1,20}$/.test(v.to)) return fail('to must be an originator of 1 to 20 letters or digits');
  if ((v.text === undefined) === (v.hex === undefined)) return fail('give either text or hex');
  if (v.text !== undefined && (typeof v.text !== 'string' || v.text.length === 0)) return fail('text must be a non-empty string');
  if (typeof v.text === 'string' && !v.text.isWellFormed()) return fail('text holds a lone surrogate');
  if (v.hex !== undefined && (typeof v.hex !== 'string' || !/^(?:[0-9A-Fa-f]{2})+$/.test(v.hex))) return fail('hex must be an even number of hexadecimal digits');
  if (v.charset !== undefined && !HEX_CHARSETS.includes(v.charset as HexCharset)) return fail(`charset must be one of ${HEX_CHARSETS.join(', ')}`);
  for (const flag of ['binary', 'udh', 'multipart'] as const) {
    if (v[flag] !== undefined && typeof v[flag] !== 'boolean') return fail(`${flag} must be true or false`);
  }
  if (v.binary === true && v.hex === undefined) return fail('binary content is given as hex');
  if (v.referenceBits !== undefined && v.referenceBits !== 8 && v.referenceBits !== 16) return fail('referenceBits must be 8 or 16');
  if (v.url !== undefined && (typeof v.url !== 'string' || !/^https?:\/\/./.test(v.url) || !URL.canParse(v.url))) return fail('url must be an http:// or https:// URL');
  if (v.format !== undefined && v.format !== 'json' && v.format !== 'xml') return fail('format must be json or xml');
  if (v.accountId !== undefined && typeof v.accountId !== 'string') return fail('accountId must be a string');
  if (typeof v.text === 'string' && v.text.length > 10_000) return fail('text is longer than 10 000 characters');
  if (typeof v.hex === 'string' && v.hex.length > 20_000) return fail('hex is longer than 20 000 digits');
  return { ok: true, value: v as unknown as InboundInput };
}

/**
 * The parts of an inbound message: one for short text or hex content, several (with a shared
 * random concatenation reference) for text over one part.
 */
export function buildInboundParts(input: InboundInput, random: (max: number) => number): { ok: true; value: InboundPart[] } | { ok: false; error: InboundError } {
  if (input.hex !== undefined) {
    const hex = input.hex.toUpperCase();
    const udh = input.udh === true;
    const charset = input.binary === true ? 'binary' : (input.charset ?? 'GSM');
    const decoded = decodeHexContent(hex, charset, { udh });
    if (!decoded.ok) return fail(`hex does not decode${input.binary === true ? '' : ` in ${charset}`}: ${decoded.error.message}`);
    const message = { type: input.binary === true ? 'binary' : 'hexEncodedText', udh, content: hex };
    return { ok: true, value: [decoded.value.text === undefined ? { message } : { message, text: decoded.value.text }] };
  }
  const text = input.text as string;
  const referenceBits = input.referenceBits ?? 8;
  const gsm = canEncodeHex(text, 'GSM');
  const charset: HexCharset = input.charset ?? (gsm ? 'GSM' : 'UTF-16');
  if (!canEncodeHex(text, charset)) return fail(`the text cannot be written in ${charset}`);
  const hex = encodeHex(text, charset);
  const estimate = estimateSegments(hex, { type: 'hexEncodedText', charset, referenceBits });
  if (!estimate.ok) return fail(`the text cannot be split: ${estimate.error.message}`);
  const { parts } = estimate.value;
  if (parts.length === 1 || input.multipart === false) {
    if (CONTROL.test(text)) return { ok: true, value: [{ message: { type: 'hexEncodedText', udh: false, content: hex }, text }] };
    return { ok: true, value: [{ message: { type: 'text', udh: false, content: text }, text }] };
  }
  const reference = random(referenceBits === 8 ? 0x100 : 0x10000);
  const total = parts.length;
  return {
    ok: true,
    value: parts.map((partHex: string, i: number) => {
      const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence: i + 1, referenceBits } }));
      const decoded = decodeHexContent(partHex, charset);
      const message = { type: 'hexEncodedText', udh: true, content: header + partHex };
      return decoded.ok && decoded.value.text !== undefined ? { message, text: decoded.value.text } : { message };
    }),
  };
}

/** Type of number of an originator: 3 for a short code (up to 8 digits), 1 for a longer number, 5 for letters. */
export function tonOf(address: string): number {
  if (!/^[0-9]+$/.test(address)) return 5;
  return address.length <= 8 ? 3 : 1;
}

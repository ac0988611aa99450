/**
 * Validation of an MT request against every 540 rule of the spec, and its normalisation.
 *
 * Fast path: the compiled wire schema, then normalisation, then the rules joining members. Only
 * when that fails does the ordered walk ({@link findMtRequestProblem}) run to name the one rule to
 * report. The walk is the authority: it decides alone whether a request is valid, and the fast
 * path only ever accepts what the walk accepts.
 */
import { utf8ByteLength } from '../body/body-text.js';
import { isDigits, wireBoolean, wireDigits } from '../codec/wire-values.js';
import { MT_INVALID, type MtInvalidRule } from '../errors/catalogue.js';
import { isJsonObject, own } from '../json/strict-json.js';
import { err, ok, type Result } from '../result.js';
import { decodeHexContent } from '../text/hex.js';
import {
  CHARSETS,
  INTERACTIONS,
  MESSAGE_TYPES,
  MLC_VALUES,
  MT_LIMITS,
  RECEIPT_REQUESTED_VALUES,
  type MtCharset,
  type MtInteraction,
  type MtMessageType,
  type MtMlc,
  type MtReceiptRequested,
  type MtSourceTon,
} from './members.js';
import type { MtDelivery, MtDestination, MtMessage, MtRequest, MtRequestOptions, MtSource } from './schema.js';
import { mtRequestWireCheck } from './wire-schema.js';

/** A 540 rejection of an MT request: the spec's code and description, and the rule broken. */
export interface MtRequestError {
  readonly code: '540';
  /** The spec's description, from `MT_INVALID`. */
  readonly description: string;
  /** The rule of the 540 table that was broken (a key of `MT_INVALID`). */
  readonly rule: MtInvalidRule;
}

/** Builds the {@link MtRequestError} of a rule, with the catalogue's description. */
export function mtRequestError(rule: MtInvalidRule): MtRequestError {
  return { code: '540', description: MT_INVALID[rule], rule };
}

/**
 * Validates an MT request that is already parsed: the inside of `mobileTerminate` (not the
 * `{ mobileTerminate: ... }` wrapper), either a decoded {@link MtRequest} or a JSON-shaped object
 * in wire form (Booleans as `"true"`/`"false"`, numbers as digit strings). Returns the normalised
 * request, or the one 540 error the decoders would report for the same body. A value that is not
 * an object gives the "invalid JSON in the payload" description. Never throws.
 */
export function validateMtRequest(value: unknown): Result<MtRequest, MtRequestError> {
  const result = checkMtRequest(value);
  return result.ok ? result : err(mtRequestError(result.error));
}

/** {@link validateMtRequest} returning the rule only (used by the decoders). */
export function checkMtRequest(mt: unknown): Result<MtRequest, MtInvalidRule> {
  const fast = acceptMtRequestFast(mt);
  if (fast !== undefined) return ok(fast);
  const rule = findMtRequestProblem(mt);
  return rule === undefined ? ok(normaliseMtRequest(mt) as MtRequest) : err(rule);
}

/**
 * The fast path: the compiled wire schema, normalisation, then the rules joining members. The
 * normalised request when all hold; `undefined` otherwise (the request may still be valid: the
 * ordered walk decides). Never accepts a request the walk rejects.
 */
export function acceptMtRequestFast(mt: unknown): MtRequest | undefined {
  if (!mtRequestWireCheck.Check(mt)) return undefined;
  const value = normaliseMtRequest(mt);
  return value !== undefined && joinedRulesHold(value) ? value : undefined;
}

/**
 * The rules the wire schema cannot express, on a value it accepted and that was normalised:
 * charset required, content within 2680 octets and decodable, url required for wapPush, URLs
 * parseable, source address against its ton, validityPeriod within its maximum.
 */
function joinedRulesHold(v: MtRequest): boolean {
  const m = v.message;
  if (m.type === 'hexEncodedText' && m.charset === undefined) return false;
  if (m.type === 'wapPush' && m.url === undefined) return false;
  if (m.validityPeriod !== undefined && m.validityPeriod > MT_LIMITS.validityPeriodMaxSeconds) return false;
  if (m.url !== undefined && !urlParses(m.url)) return false;
  if (v.delivery?.url !== undefined && !urlParses(v.delivery.url)) return false;
  const ton = v.source?.ton;
  if ((ton === 1 || ton === 3) && !isDigits((v.source as MtSource).address)) return false;
  return contentProblem(m.type, m.charset, m.udh === true, m.content) === undefined;
}

const isOneOf = <T>(values: readonly T[], value: unknown): value is T => values.includes(value as T);

/** A string of A-Z, a-z, 0-9 only. @internal */
export function isAlphanumeric(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/**
 * The common shape of an http(s) URL, which parses for certain: a host of letters, digits, `-` and
 * `.` whose last label starts with a letter, an optional port up to 65535 (leading zeros allowed),
 * then nothing or `/`, `?` or `#` followed by printable ASCII only.
 */
const SIMPLE_URL =
  /^https?:\/\/(?:[A-Za-z0-9-]*\.)*[A-Za-z][A-Za-z0-9-]*(?::(?:[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:[/?#][\x21-\x7e]*)?$/;

/**
 * A `message.url` or `delivery.url`: 12 to 2048 characters, starting with `http://` or `https://`
 * (lower case), no space, control character or DEL, and parseable as a URL.
 * @internal
 */
export function isWireUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length < MT_LIMITS.urlMinLength || value.length > MT_LIMITS.urlMaxLength) return false;
  // The common shape holds none of the refused characters and parses.
  if (SIMPLE_URL.test(value)) return true;
  if (!value.startsWith('http://') && !value.startsWith('https://')) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return false;
  }
  return parsesAsUrl(value);
}

/**
 * Whether a URL that starts with `http://` or `https://` parses (WHATWG URL). The common shape
 * (a host of letters, digits, `-` and `.` whose last label starts with a letter, an optional port
 * up to 65535, then only printable ASCII) parses for certain and is accepted without running the
 * URL parser; anything else is handed to the URL parser.
 */
export function urlParses(url: string): boolean {
  return SIMPLE_URL.test(url) || parsesAsUrl(url);
}

/**
 * `new URL(url)` succeeds. (Not `URL.canParse`: on Node 20, once optimised, it answers `false` for
 * valid URLs held in one-byte strings with non-ASCII characters, such as `https://bücher.example/`.)
 */
function parsesAsUrl(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** `true`, `false`, `"true"` or `"false"`. */
const isWireBoolean = (value: unknown): boolean => wireBoolean(value) !== undefined;

/** A ton as the wire writes it: 1, 3, 5 or "1", "3", "5". @internal */
export const isWireTon = (value: unknown): boolean =>
  value === 1 || value === 3 || value === 5 || value === '1' || value === '3' || value === '5';

/**
 * What is wrong with `message.content`, given the (already valid) type, charset and udh. In order:
 * missing or empty; not a string; over 2680 octets (UTF-8 octets of `text` and `wapPush`; for
 * `hexEncodedText` and `binary`, more than 5360 hex digits); not interpretable (a lone surrogate in
 * text, hex that does not decode in its charset, a user data header that does not fit).
 */
export function contentProblem(type: MtMessageType, charset: MtCharset | undefined, udh: boolean, content: unknown): MtInvalidRule | undefined {
  if (content === undefined || content === '') return 'contentEmpty';
  if (typeof content !== 'string') return 'contentInvalid';
  const max = MT_LIMITS.contentMaxBytes;
  if (type === 'text' || type === 'wapPush') {
    if (content.length > max || (content.length * 3 > max && utf8ByteLength(content) > max)) return 'contentTooLong';
    return content.isWellFormed() ? undefined : 'contentInvalid';
  }
  if (content.length > 2 * max) return 'contentTooLong';
  const decoded = decodeHexContent(content, type === 'binary' ? 'binary' : (charset as MtCharset), { udh });
  return decoded.ok ? undefined : 'contentInvalid';
}

/**
 * The first 540 rule a JSON-shaped MT request (the inside of `mobileTerminate`) breaks, or
 * `undefined` when it is valid. Members are checked in the order of the spec's resource table:
 * interaction, promotional, options (programId, note1, note2, flash), destination (address,
 * mobileOperatorId), source (address, ton, address against ton), message (required; type, charset,
 * udh, content, validityPeriod, url, mlc), delivery (receiptRequested, url). Within `message`,
 * the members content is interpreted with (type, charset, udh) come before content.
 */
export function findMtRequestProblem(mt: unknown): MtInvalidRule | undefined {
  if (!isJsonObject(mt)) return 'invalidJson';

  const interaction = own(mt, 'interaction');
  if (interaction !== undefined && !isOneOf(INTERACTIONS, interaction)) return 'interaction';
  const promotional = own(mt, 'promotional');
  if (promotional !== undefined && !isWireBoolean(promotional)) return 'promotional';

  const options = own(mt, 'options');
  if (options !== undefined) {
    if (!isJsonObject(options)) return 'invalidJson';
    const programId = own(options, 'programId');
    if (
      programId !== undefined &&
      (typeof programId !== 'string' || programId.length < MT_LIMITS.programIdMinLength || programId.length > MT_LIMITS.programIdMaxLength)
    ) {
      return 'programId';
    }
    const note1 = own(options, 'note1');
    if (note1 !== undefined && (typeof note1 !== 'string' || note1.length > MT_LIMITS.noteMaxLength)) return 'note1';
    const note2 = own(options, 'note2');
    if (note2 !== undefined && (typeof note2 !== 'string' || note2.length > MT_LIMITS.noteMaxLength)) return 'note2';
    const flash = own(options, 'flash');
    if (flash !== undefined && !isWireBoolean(flash)) return 'flash';
  }

  const destination = own(mt, 'destination');
  const destinationAddress = own(destination, 'address');
  if (!isJsonObject(destination) || destinationAddress === undefined) return 'destinationAddressRequired';
  if (
    typeof destinationAddress !== 'string' ||
    destinationAddress.length < MT_LIMITS.destinationAddressMinDigits ||
    destinationAddress.length > MT_LIMITS.destinationAddressMaxDigits ||
    !isDigits(destinationAddress)
  ) {
    return 'destinationAddress';
  }
  const mobileOperatorId = own(destination, 'mobileOperatorId');
  if (mobileOperatorId !== undefined && wireDigits(mobileOperatorId, MT_LIMITS.maxDigits) === undefined) return 'mobileOperatorId';

  const source = own(mt, 'source');
  if (source !== undefined) {
    if (!isJsonObject(source)) return 'sourceAddress';
    const address = own(source, 'address');
    if (
      typeof address !== 'string' ||
      address.length < MT_LIMITS.sourceAddressMinLength ||
      address.length > MT_LIMITS.sourceAddressMaxLength ||
      !isAlphanumeric(address)
    ) {
      return 'sourceAddress';
    }
    const ton = own(source, 'ton');
    if (ton !== undefined && !isWireTon(ton)) return 'sourceTon';
    if ((ton === 1 || ton === 3 || ton === '1' || ton === '3') && !isDigits(address)) return 'sourceAddress';
  }

  const message = own(mt, 'message');
  if (!isJsonObject(message)) return 'messageRequired';
  const type = own(message, 'type');
  if (!isOneOf(MESSAGE_TYPES, type)) return 'type';
  const charset = own(message, 'charset');
  if (charset === undefined ? type === 'hexEncodedText' : !isOneOf(CHARSETS, charset)) return 'charset';
  const udh = own(message, 'udh');
  if (udh !== undefined && !isWireBoolean(udh)) return 'udh';
  const content = contentProblem(type, charset as MtCharset | undefined, wireBoolean(udh) === true, own(message, 'content'));
  if (content !== undefined) return content;
  const validityPeriod = own(message, 'validityPeriod');
  if (validityPeriod !== undefined) {
    const seconds = wireDigits(validityPeriod, MT_LIMITS.maxDigits);
    if (seconds === undefined || seconds > MT_LIMITS.validityPeriodMaxSeconds) return 'validityPeriod';
  }
  const url = own(message, 'url');
  if (url === undefined ? type === 'wapPush' : !isWireUrl(url)) return 'wapPushUrl';
  const mlc = own(message, 'mlc');
  if (mlc !== undefined && !isOneOf(MLC_VALUES, mlc)) return 'mlc';

  const delivery = own(mt, 'delivery');
  if (delivery !== undefined) {
    const receiptRequested = own(delivery, 'receiptRequested');
    if (!isJsonObject(delivery) || receiptRequested === undefined) return 'receiptRequestedRequired';
    if (!isOneOf(RECEIPT_REQUESTED_VALUES, receiptRequested)) return 'receiptRequested';
    const deliveryUrl = own(delivery, 'url');
    if (deliveryUrl !== undefined && !isWireUrl(deliveryUrl)) return 'deliveryUrl';
  }
  return undefined;
}

/** A JSON object read by fixed member names. */
type Wire = { readonly [member: string]: unknown };

/** `Object.prototype.hasOwnProperty`, which V8 optimises better than `Object.hasOwn` for a known member name. */
const { hasOwnProperty } = Object.prototype;

/** `value` (read as `object.member`) when it is absent or an own member; `undefined` when inherited. */
const pick = (object: Wire, value: unknown, member: string): unknown =>
  value === undefined || hasOwnProperty.call(object, member) ? value : undefined;

/**
 * The normalised request from a wire-form one that has passed validation: Booleans and integers
 * coerced, unknown members dropped, absent members left absent. Members are read by their fixed
 * names, and a value is taken only when it is an own member (as `own` does), so that inherited
 * members are never seen; the own-member test runs only for members that are present. `undefined`
 * when a required member is only inherited (the wire schema, which reads inherited members too,
 * let it through): the caller then takes the ordered walk.
 */
export function normaliseMtRequest(mt: unknown): MtRequest | undefined {
  const w = mt as Wire;
  const out = {} as MtRequest;
  const interaction = pick(w, w.interaction, 'interaction');
  if (interaction !== undefined) out.interaction = interaction as MtInteraction;
  const promotional = pick(w, w.promotional, 'promotional');
  if (promotional !== undefined) out.promotional = wireBoolean(promotional) as boolean;

  const o = pick(w, w.options, 'options') as Wire | undefined;
  if (o !== undefined) {
    const options: MtRequestOptions = {};
    const programId = pick(o, o.programId, 'programId');
    if (programId !== undefined) options.programId = programId as string;
    const note1 = pick(o, o.note1, 'note1');
    if (note1 !== undefined) options.note1 = note1 as string;
    const note2 = pick(o, o.note2, 'note2');
    if (note2 !== undefined) options.note2 = note2 as string;
    const flash = pick(o, o.flash, 'flash');
    if (flash !== undefined) options.flash = wireBoolean(flash) as boolean;
    out.options = options;
  }

  const d = pick(w, w.destination, 'destination') as Wire | undefined;
  const address = d && pick(d, d.address, 'address');
  if (d === undefined || address === undefined) return undefined;
  const destination: MtDestination = { address: address as string };
  const mobileOperatorId = pick(d, d.mobileOperatorId, 'mobileOperatorId');
  if (mobileOperatorId !== undefined) destination.mobileOperatorId = wireDigits(mobileOperatorId, MT_LIMITS.maxDigits) as number;
  out.destination = destination;

  const s = pick(w, w.source, 'source') as Wire | undefined;
  if (s !== undefined) {
    const sourceAddress = pick(s, s.address, 'address');
    if (sourceAddress === undefined) return undefined;
    const source: MtSource = { address: sourceAddress as string };
    const ton = pick(s, s.ton, 'ton');
    if (ton !== undefined) source.ton = Number(ton) as MtSourceTon;
    out.source = source;
  }

  const m = pick(w, w.message, 'message') as Wire | undefined;
  const type = m && pick(m, m.type, 'type');
  const content = m && pick(m, m.content, 'content');
  if (m === undefined || type === undefined || content === undefined) return undefined;
  const message: MtMessage = { type: type as MtMessageType, content: content as string };
  const charset = pick(m, m.charset, 'charset');
  if (charset !== undefined) message.charset = charset as MtCharset;
  const validityPeriod = pick(m, m.validityPeriod, 'validityPeriod');
  if (validityPeriod !== undefined) message.validityPeriod = wireDigits(validityPeriod, MT_LIMITS.maxDigits) as number;
  const url = pick(m, m.url, 'url');
  if (url !== undefined) message.url = url as string;
  const mlc = pick(m, m.mlc, 'mlc');
  if (mlc !== undefined) message.mlc = mlc as MtMlc;
  const udh = pick(m, m.udh, 'udh');
  if (udh !== undefined) message.udh = wireBoolean(udh) as boolean;
  out.message = message;

  const dl = pick(w, w.delivery, 'delivery') as Wire | undefined;
  if (dl !== undefined) {
    const receiptRequested = pick(dl, dl.receiptRequested, 'receiptRequested');
    if (receiptRequested === undefined) return undefined;
    const delivery: MtDelivery = { receiptRequested: receiptRequested as MtReceiptRequested };
    const deliveryUrl = pick(dl, dl.url, 'url');
    if (deliveryUrl !== undefined) delivery.url = deliveryUrl as string;
    out.delivery = delivery;
  }
  return out;
}

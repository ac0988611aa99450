/**
 * Classifies and decodes a callback posted to a receiving URL: a delivery receipt or an inbound
 * message, in XML or JSON, with the key that identifies the event across the service's retries.
 */
import { bodyToText, type BodyInput } from '../body/body-text.js';
import { payloadError, type PayloadError } from '../codec/payload-error.js';
import { DEFAULT_MAX_BODY_BYTES, type DecodeOptions, type WireFormat } from '../codec/wire-format.js';
import { DeliveryReceiptSchema, decodeDeliveryReceipt, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { MobileOriginateSchema, decodeMobileOriginate, type MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bodyProblemError } from '../resource-codec/payload-problems.js';
import { defineResource } from '../resource-codec/resource-codec.js';
import { err, ok, type Result } from '../result.js';
import type { Concatenation, UserDataHeader } from '../text/udh.js';
import { checkWellFormed } from '../xml/well-formed.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';
import { readSimpleXml } from './callback-xml.js';
import { inboundHeader } from './inbound-content.js';

/** The two kinds of callback. */
export type CallbackKind = 'delivery-receipt' | 'inbound-message';

/** A decoded delivery receipt, with its duplicate key. */
export interface ReceiptCallback {
  readonly kind: 'delivery-receipt';
  readonly format: WireFormat;
  readonly receipt: DeliveryReceipt;
  /** `receipt:<ticketId>:<segmentNumber>` (segment 1 for a single-part message). */
  readonly key: string;
}

/** A decoded inbound message (one part of a multipart message, or a whole message), with its duplicate key. */
export interface InboundCallback {
  readonly kind: 'inbound-message';
  readonly format: WireFormat;
  readonly message: MobileOriginate;
  /** `inbound:<ticketId>`, plus `:<8|16>-<reference>:<sequence>` for one part of a multipart message. */
  readonly key: string;
  /** The user data header at the start of the content, when `udh` is `true`. */
  readonly header?: UserDataHeader;
  /** The content's hex after the header (the content itself without one). */
  readonly payload: string;
  /** The concatenation element of one part of a multipart message. */
  readonly concatenation?: Concatenation;
}

/** A decoded callback. */
export type Callback = ReceiptCallback | InboundCallback;

/** The duplicate key of a receipt: its ticket ID and part number. */
export function receiptKey(receipt: DeliveryReceipt): string {
  return `receipt:${receipt.mtStatus.ticketId}:${receipt.mtStatus.segmentNumber ?? 1}`;
}

/** The duplicate key of an inbound message: its ticket ID, plus the UDH reference and part number of one part of a multipart message. */
export function inboundKey(message: MobileOriginate, concatenation?: Concatenation): string {
  const base = `inbound:${message.ticketId}`;
  return concatenation === undefined ? base : `${base}:${concatenation.referenceBits}-${concatenation.reference}:${concatenation.sequence}`;
}

const ROOTS: Readonly<Record<string, CallbackKind>> = { deliveryReceipt: 'delivery-receipt', mobileOriginate: 'inbound-message' };
const XML_ROOT = /<(?![?!])(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/;
const JSON_ROOT = /^\s*\{\s*"([A-Za-z]+)"/;

/** A cheap guess of the callback kind from the first element or member name (the decoder decides). */
function sniff(text: string, format: WireFormat): CallbackKind | undefined {
  const match = (format === 'xml' ? XML_ROOT : JSON_ROOT).exec(text.length > 512 ? text.slice(0, 512) : text);
  const name = match?.[1];
  return name !== undefined && Object.hasOwn(ROOTS, name) ? ROOTS[name] : undefined;
}

function decodeAs(kind: CallbackKind, text: string, format: WireFormat, maxBytes: number): Result<Callback, PayloadError> {
  if (kind === 'delivery-receipt') {
    const receipt = decodeDeliveryReceipt(text, format, { maxBytes });
    if (!receipt.ok) return receipt;
    return ok({ kind, format, receipt: receipt.value, key: receiptKey(receipt.value) });
  }
  const decoded = decodeMobileOriginate(text, format, { maxBytes });
  if (!decoded.ok) return decoded;
  return inboundCallback(decoded.value, format);
}

/** An inbound callback of a decoded message: its user data header (which must parse), concatenation and key. */
function inboundCallback(message: MobileOriginate, format: WireFormat): Result<Callback, PayloadError> {
  const header = inboundHeader(message.message);
  if (!header.ok) {
    return err(
      payloadError(
        'invalid-member',
        `Member mobileOriginate.message.content must start with a valid user data header (udh is true): ${header.error.message}`,
        'mobileOriginate.message.content',
      ),
    );
  }
  if (header.value === undefined) return ok({ kind: 'inbound-message', format, message, key: inboundKey(message), payload: message.message.content });
  const concatenation = header.value.header.concatenation;
  // A "multipart" message of one part is a whole message.
  const part = concatenation !== undefined && concatenation.total > 1 ? concatenation : undefined;
  return ok({
    kind: 'inbound-message',
    format,
    message,
    key: inboundKey(message, part),
    header: header.value.header,
    payload: header.value.payload,
    ...(part === undefined ? {} : { concatenation: part }),
  });
}

/** The two callback resources, compiled once more here so that the fast path can run their XML readers on its own tree. */
const RECEIPT_RESOURCE = /* @__PURE__ */ defineResource('deliveryReceipt', DeliveryReceiptSchema, XML_NAMESPACES.mt);
const INBOUND_RESOURCE = /* @__PURE__ */ defineResource('mobileOriginate', MobileOriginateSchema, XML_NAMESPACES.mo);

/**
 * The XML fast path: a well-formed document of the simple shape is read into the tree
 * fast-xml-parser would build, then by the resource's own XML reader and check. `undefined` (use
 * the full XML decoder) for anything else and for any document the check refuses, so that success
 * values equal the XML decoder's and errors are always its own.
 */
function fastXml(text: string): Result<Callback, PayloadError> | undefined {
  if (checkWellFormed(text) !== undefined) return undefined;
  const doc = readSimpleXml(text);
  if (doc === undefined) return undefined;
  if (doc.rootName === RECEIPT_RESOURCE.root) {
    const receipt = RECEIPT_RESOURCE.readXml(doc.root);
    if (!RECEIPT_RESOURCE.check.Check(receipt)) return undefined;
    return ok({ kind: 'delivery-receipt', format: 'xml', receipt, key: receiptKey(receipt) });
  }
  if (doc.rootName !== INBOUND_RESOURCE.root) return undefined;
  const message = INBOUND_RESOURCE.readXml(doc.root);
  if (!INBOUND_RESOURCE.check.Check(message)) return undefined;
  return inboundCallback(message, 'xml');
}

/**
 * The inbound callback of a message kept by a reassembly store (its decoded value, written as
 * JSON): checked against the resource's schema again, header and concatenation worked out anew.
 * `undefined` when the value is not an inbound message of one part of a multipart message.
 */
export function storedInboundPart(message: unknown, format: unknown): InboundCallback | undefined {
  if ((format !== 'xml' && format !== 'json') || !INBOUND_RESOURCE.check.Check(message)) return undefined;
  const callback = inboundCallback(message, format);
  return callback.ok && callback.value.kind === 'inbound-message' && callback.value.concatenation !== undefined ? callback.value : undefined;
}

/**
 * `true` when a CDATA section or a comment of a document with CDATA has no end. The full XML
 * parser's CDATA step loops on such a document (e.g. `<?<![CDATA[]>...` passes the well-formedness
 * check), so it is refused here, before the parser sees it.
 */
function unterminatedMarkup(text: string): boolean {
  if (!text.includes('<![CDATA[')) return false;
  for (const [open, close] of [
    ['<![CDATA[', ']]>'],
    ['<!--', '-->'],
  ] as const) {
    let at = text.indexOf(open);
    while (at !== -1) {
      const end = text.indexOf(close, at + open.length);
      if (end === -1) return true;
      at = text.indexOf(open, end + close.length);
    }
  }
  return false;
}

/**
 * Decodes the body of a callback: a `deliveryReceipt` or a `mobileOriginate`, in `format`. The
 * size limit is checked first (default 64 KiB), then UTF-8, then the strict parse of the format,
 * then the resource's members. An inbound message with `udh: true` must start with a header that
 * parses; the concatenation element of a part of a multipart message is returned with it. Never
 * throws on any body.
 *
 * @example
 * const callback = decodeCallback(body, 'xml');
 * if (callback.ok && callback.value.kind === 'delivery-receipt') console.log(callback.value.receipt.mtStatus.code);
 */
export function decodeCallback(body: BodyInput, format: WireFormat, { maxBytes = DEFAULT_MAX_BODY_BYTES }: DecodeOptions = {}): Result<Callback, PayloadError> {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  const text = bodyToText(body, maxBytes);
  if (!text.ok) {
    return err(bodyProblemError(text.error === 'too-large' ? 'too-large' : 'invalid-encoding', format, maxBytes));
  }
  if (format === 'xml') {
    const fast = fastXml(text.value);
    if (fast !== undefined) return fast;
    if (unterminatedMarkup(text.value)) return err(bodyProblemError('syntax', format, maxBytes));
  }
  const guess = sniff(text.value, format);
  const first = decodeAs(guess ?? 'delivery-receipt', text.value, format, maxBytes);
  if (first.ok || first.error.code !== 'wrong-resource') return first;
  const second = decodeAs(guess === 'inbound-message' ? 'delivery-receipt' : 'inbound-message', text.value, format, maxBytes);
  if (second.ok || second.error.code !== 'wrong-resource') return second;
  return err(payloadError('wrong-resource', 'Payload root is neither deliveryReceipt nor mobileOriginate'));
}

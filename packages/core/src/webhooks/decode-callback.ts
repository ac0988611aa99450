/**
 * Classifies and decodes a callback posted to a receiving URL: a delivery receipt or an inbound
 * message, in XML or JSON, with the key that identifies the event across the service's retries.
 */
import type { BodyInput } from '../body/body-text.js';
import { payloadError, type PayloadError } from '../codec/payload-error.js';
import { DEFAULT_MAX_BODY_BYTES, readBodyOf, type DecodeOptions, type ReadBody, type WireFormat } from '../codec/wire-format.js';
import { DeliveryReceiptSchema, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { MobileOriginateSchema, type MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bodyProblemError } from '../resource-codec/payload-problems.js';
import { decodeReadBody, defineResource, isResourceValue } from '../resource-codec/resource-codec.js';
import { lazy } from '../lazy.js';
import { err, ok, type Result } from '../result.js';
import type { Concatenation, UserDataHeader } from '../text/udh.js';
import { timestampInstant } from '../time/xs-date-time.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';
import { inboundHeader } from './inbound-content.js';
import { ownJoined } from './own-string.js';

/** The two kinds of callback. */
export type CallbackKind = 'delivery-receipt' | 'inbound-message';

/** A decoded delivery receipt, with its duplicate key. */
export interface ReceiptCallback {
  readonly kind: 'delivery-receipt';
  readonly format: WireFormat;
  readonly receipt: DeliveryReceipt;
  /** `receipt:<ticketId>:<segmentNumber>` (segment 1 for a single-part message). */
  readonly key: string;
  /** The UTC instant of `mtStatus.deliveryDate`, with milliseconds, when the receipt has one (the member keeps the text as received). */
  readonly deliveryInstant?: string;
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
  /** The UTC instant of `submittedDate`, with milliseconds, when the message has one (the member keeps the text as received). */
  readonly submittedInstant?: string;
  /**
   * Set when `udh` is `true` but the content does not start with a user data header that parses:
   * why. The message is taken whole as received (its content kept, no text decoded), never refused:
   * the service would retry it and then drop it.
   */
  readonly headerProblem?: string;
}

/** A decoded callback. */
export type Callback = ReceiptCallback | InboundCallback;

/** The duplicate key of a receipt: its ticket ID and part number (a string of its own: it holds nothing of the body). */
export function receiptKey(receipt: DeliveryReceipt): string {
  return ownJoined(`receipt:${receipt.mtStatus.ticketId}:${receipt.mtStatus.segmentNumber ?? 1}`);
}

/** The duplicate key of an inbound message: its ticket ID, plus the UDH reference and part number of one part of a multipart message (a string of its own). */
export function inboundKey(message: MobileOriginate, concatenation?: Concatenation): string {
  const base = `inbound:${message.ticketId}`;
  return ownJoined(concatenation === undefined ? base : `${base}:${concatenation.referenceBits}-${concatenation.reference}:${concatenation.sequence}`);
}

const ROOTS: Readonly<Record<string, CallbackKind>> = { deliveryReceipt: 'delivery-receipt', mobileOriginate: 'inbound-message' };
/** The kind a read body is: its XML root element, or the first top-level JSON member naming a callback. */
function kindOf(parsed: ReadBody): CallbackKind | undefined {
  if (parsed.format === 'xml') return Object.hasOwn(ROOTS, parsed.xml.rootName) ? ROOTS[parsed.xml.rootName] : undefined;
  for (const name of Object.keys(parsed.json)) if (Object.hasOwn(ROOTS, name)) return ROOTS[name];
  return undefined;
}

/** The receipt callback of a decoded receipt: its key and the instant of its delivery date. */
function receiptCallback(receipt: DeliveryReceipt, format: WireFormat): ReceiptCallback {
  const date = receipt.mtStatus.deliveryDate;
  return { kind: 'delivery-receipt', format, receipt, key: receiptKey(receipt), ...(date === undefined ? {} : { deliveryInstant: timestampInstant(date) }) };
}

/**
 * An inbound callback of a decoded message: its user data header, concatenation and key. A header
 * that does not parse does not refuse the message (what the service sends us is taken, never lost):
 * it is handed over whole, as received, with the reason in `headerProblem`.
 */
function inboundCallback(message: MobileOriginate, format: WireFormat): Result<Callback, PayloadError> {
  const header = inboundHeader(message.message);
  const instant = message.submittedDate === undefined ? {} : { submittedInstant: timestampInstant(message.submittedDate) };
  if (!header.ok) {
    const headerProblem = `mobileOriginate.message.content does not start with a valid user data header (udh is true): ${header.error.message}`;
    return ok({ kind: 'inbound-message', format, message, key: inboundKey(message), payload: message.message.content, headerProblem, ...instant });
  }
  if (header.value === undefined) return ok({ kind: 'inbound-message', format, message, key: inboundKey(message), payload: message.message.content, ...instant });
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
    ...instant,
  });
}

/** The two callback resources, compiled once more here so that a body read once is decoded by the resource its root names. */
const RECEIPT_RESOURCE = /* @__PURE__ */ defineResource('deliveryReceipt', DeliveryReceiptSchema, XML_NAMESPACES.mt);
const INBOUND_RESOURCE = /* @__PURE__ */ defineResource('mobileOriginate', MobileOriginateSchema, XML_NAMESPACES.mo);
/** The XML attribute names of both callback resources, with their keys in the tree (the body is read before its root is known). */
const callbackAttributeKeys = /* @__PURE__ */ lazy(() => new Map([...RECEIPT_RESOURCE.attributeKeys, ...INBOUND_RESOURCE.attributeKeys]));

/**
 * The inbound callback of a message kept by a reassembly store (its decoded value, written as
 * JSON): checked against the resource's schema and the timestamp reader again, as the decoder
 * checks a body, header and concatenation worked out anew. `undefined` when the value is not an
 * inbound message of one part of a multipart message (a `submittedDate` of `2015-02-30T…` too).
 */
export function storedInboundPart(message: unknown, format: unknown): InboundCallback | undefined {
  if ((format !== 'xml' && format !== 'json') || !isResourceValue(INBOUND_RESOURCE, message)) return undefined;
  const callback = inboundCallback(message, format);
  return callback.ok && callback.value.kind === 'inbound-message' && callback.value.concatenation !== undefined ? callback.value : undefined;
}

/**
 * Decodes the body of a callback: a `deliveryReceipt` or a `mobileOriginate`, in `format`. The
 * size limit is checked first (default 64 KiB), then UTF-8, then the strict parse of the format,
 * then the resource's members. The user data header of an inbound message with `udh: true` is
 * parsed, and the concatenation element of a part of a multipart message returned with it; content
 * that does not start with a header that parses (or is not hex at all) is still taken, whole and as
 * received, with the reason in `headerProblem` (a refusal would be retried, then dropped). The
 * timestamps' UTC instants come beside the members (`deliveryInstant`, `submittedInstant`). Never
 * throws on any body.
 *
 * @example
 * const callback = decodeCallback(body, 'xml');
 * if (callback.ok && callback.value.kind === 'delivery-receipt') console.log(callback.value.receipt.mtStatus.code);
 */
export function decodeCallback(body: BodyInput, format: WireFormat, { maxBytes = DEFAULT_MAX_BODY_BYTES }: DecodeOptions = {}): Result<Callback, PayloadError> {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  const read = readBodyOf(body, format, maxBytes, callbackAttributeKeys());
  if (!read.ok) return err(bodyProblemError(read.error, format, maxBytes));
  const kind = kindOf(read.value);
  if (kind === undefined) return err(payloadError('wrong-resource', 'Payload root is neither deliveryReceipt nor mobileOriginate'));
  if (kind === 'delivery-receipt') {
    const receipt = decodeReadBody(RECEIPT_RESOURCE, read.value);
    return receipt.ok ? ok(receiptCallback(receipt.value, format)) : receipt;
  }
  const message = decodeReadBody(INBOUND_RESOURCE, read.value);
  if (!message.ok) return message;
  return inboundCallback(message.value, format);
}

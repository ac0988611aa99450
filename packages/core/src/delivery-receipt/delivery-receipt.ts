import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { STATUS_ATTRIBUTES, StatusDestinationSchema, StatusSourceSchema } from '../mt-status/status-members.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import type { Result } from '../result.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';

/** The `mtStatus` element of a receipt: the state of one part (`segmentNumber` of `totalSegments`). */
export const ReceiptStatusSchema = Type.Object(STATUS_ATTRIBUTES);

/** The state of one message part, as a receipt reports it. */
export type ReceiptStatus = Static<typeof ReceiptStatusSchema>;

/**
 * A delivery receipt (`deliveryReceipt`, `type="final"`), one per message part. `destination` and
 * `source` sit beside `mtStatus` as the spec shows; decoders also take them nested inside `mtStatus`.
 */
export const DeliveryReceiptSchema = Type.Object({
  type: Type.Literal('final'),
  mtStatus: ReceiptStatusSchema,
  destination: Type.Optional(Type.Object(StatusDestinationSchema.properties, { wireNestedIn: 'mtStatus' })),
  source: Type.Optional(Type.Object(StatusSourceSchema.properties, { wireNestedIn: 'mtStatus' })),
});

/** A decoded delivery receipt. */
export type DeliveryReceipt = Static<typeof DeliveryReceiptSchema>;

const DELIVERY_RECEIPT = defineResource('deliveryReceipt', DeliveryReceiptSchema, XML_NAMESPACES.mt);

/**
 * Decodes a delivery receipt posted to a receiving URL. Accepts both layouts (`destination` and
 * `source` beside `mtStatus`, or inside it), both spellings `alpha2Code` / `alpha2code`, the XML
 * root in either namespace URI, prefixed or not, and JSON `{"deliveryReceipt": {...}}`.
 *
 * @example
 * const receipt = decodeDeliveryReceipt(request.body, 'xml');
 * if (!receipt.ok) return { status: 400 };
 * const { ticketId, code, segmentNumber } = receipt.value.mtStatus;
 */
export function decodeDeliveryReceipt(body: BodyInput, format: WireFormat, options?: DecodeOptions): Result<DeliveryReceipt, PayloadError> {
  return decodeResource(DELIVERY_RECEIPT, body, format, options);
}

/**
 * Encodes a delivery receipt in the spec's layout (`destination` and `source` beside `mtStatus`);
 * `TypeError` for a value that breaks {@link DeliveryReceiptSchema}.
 */
export function encodeDeliveryReceipt(value: DeliveryReceipt, format: WireFormat, options?: EncodeOptions): string {
  return encodeResource(DELIVERY_RECEIPT, value, format, options);
}

import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import { WireInteger, WireTicketId, WireTimestamp } from '../resource-codec/wire-types.js';
import type { Result } from '../result.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';

/** `source` of an inbound message: the handset that sent it. */
export const MoSourceSchema = Type.Object({
  ton: Type.Optional(WireInteger),
  address: Type.String({ minLength: 1 }),
  mobileOperatorId: Type.Optional(WireInteger),
});

/** The sender of an inbound message: its number, type of number and mobile operator. */
export type MoSource = Static<typeof MoSourceSchema>;

/** `destination` of an inbound message: the originator it was sent to. */
export const MoDestinationSchema = Type.Object({
  ton: Type.Optional(WireInteger),
  address: Type.String({ minLength: 1 }),
});

/** The originator (short code, long code, ...) an inbound message was sent to. */
export type MoDestination = Static<typeof MoDestinationSchema>;

/**
 * `message` of an inbound message. `type` is `text` (UTF-8), `hexEncodedText` (hex; one part of a
 * multipart message carries its UDH at the start of `content`, and `udh` is `true`) or `binary`.
 */
export const MoMessageSchema = Type.Object({
  type: Type.String({ minLength: 1 }),
  udh: Type.Optional(Type.Boolean()),
  content: Type.String({ xmlElementText: true, wireExpected: 'one string (the content attribute or one <content> element)' }),
});

/** The text of an inbound message, as received. */
export type MoMessage = Static<typeof MoMessageSchema>;

/** An inbound message (`mobileOriginate`). Each part of a multipart message arrives on its own. */
export const MobileOriginateSchema = Type.Object({
  submittedDate: Type.Optional(WireTimestamp),
  ticketId: WireTicketId,
  source: MoSourceSchema,
  destination: MoDestinationSchema,
  message: MoMessageSchema,
});

/** A decoded inbound message. */
export type MobileOriginate = Static<typeof MobileOriginateSchema>;

const MOBILE_ORIGINATE = defineResource('mobileOriginate', MobileOriginateSchema, XML_NAMESPACES.mo);

/**
 * Decodes an inbound message posted to a receiving URL. In XML the text may be the `content`
 * attribute of `<message>` or a `<content>` child element; `udh` may be `true`/`false` or the
 * strings `"true"`/`"false"` in JSON.
 *
 * @example
 * const inbound = decodeMobileOriginate(request.body, 'xml');
 * if (inbound.ok) console.log(inbound.value.source.address, inbound.value.message.content);
 */
export function decodeMobileOriginate(body: BodyInput, format: WireFormat, options?: DecodeOptions): Result<MobileOriginate, PayloadError> {
  return decodeResource(MOBILE_ORIGINATE, body, format, options);
}

/**
 * Encodes an inbound message (XML: the text as the `content` attribute, as the spec shows);
 * `TypeError` for a value that breaks {@link MobileOriginateSchema}.
 */
export function encodeMobileOriginate(value: MobileOriginate, format: WireFormat, options?: EncodeOptions): string {
  return encodeResource(MOBILE_ORIGINATE, value, format, options);
}

import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import { WireInteger, WirePositiveInteger, WireTimestamp } from '../resource-codec/wire-types.js';
import type { Result } from '../result.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';
import { STATUS_ATTRIBUTES, StatusDestinationSchema, StatusSourceSchema } from './status-members.js';

/** One part of a multipart message in a status response. */
export const MtStatusSegmentSchema = Type.Object({
  segmentNumber: WirePositiveInteger,
  deliveryDate: Type.Optional(WireTimestamp),
  code: WireInteger,
  description: Type.Optional(Type.String()),
});

/** One part of a multipart message: its number (from 1), its state, and its delivery date once delivered. */
export type MtStatusSegment = Static<typeof MtStatusSegmentSchema>;

/**
 * A status response (`mtStatus`). For a multipart message `code` and `description` are the summary
 * (see `summarizeMultipart`) and `segments` holds one entry per part. JSON lists the parts as
 * `"segments": [...]`; XML as `<segments><segment .../></segments>`.
 */
export const MtStatusSchema = Type.Object({
  ...STATUS_ATTRIBUTES,
  destination: Type.Optional(StatusDestinationSchema),
  source: Type.Optional(StatusSourceSchema),
  segments: Type.Optional(Type.Array(MtStatusSegmentSchema, { minItems: 1, xmlItem: 'segment' })),
});

/** A decoded status response: numbers are numbers, absent members are absent. */
export type MtStatus = Static<typeof MtStatusSchema>;

const MT_STATUS = defineResource('mtStatus', MtStatusSchema, XML_NAMESPACES.mt);

/**
 * Decodes a status response. Accepts the XML root in the `http:` or `https:` namespace, prefixed,
 * default or none; JSON `{"mtStatus": {...}}` with the parts as `segments: [...]`,
 * `segments: {segment: [...]}` or a single object. Numbers may be JSON numbers or digit strings.
 *
 * @example
 * const status = decodeMtStatus(body, 'xml');
 * if (status.ok && status.value.code === 4) console.log('delivered', status.value.deliveryDate);
 */
export function decodeMtStatus(body: BodyInput, format: WireFormat, options?: DecodeOptions): Result<MtStatus, PayloadError> {
  return decodeResource(MT_STATUS, body, format, options);
}

/** Encodes a status response in JSON or XML (`TypeError` for a value that breaks {@link MtStatusSchema}). */
export function encodeMtStatus(value: MtStatus, format: WireFormat, options?: EncodeOptions): string {
  return encodeResource(MT_STATUS, value, format, options);
}

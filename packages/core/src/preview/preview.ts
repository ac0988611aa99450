import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import { WireInteger } from '../resource-codec/wire-types.js';
import type { Result } from '../result.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';

/** `destination` of a lookup result (decoders also accept the spelling `alpha2code`). */
export const PreviewDestinationSchema = Type.Object({
  countryCode: Type.Optional(WireInteger),
  alpha2Code: Type.Optional(Type.String({ wireAliases: ['alpha2code'] })),
  phoneNumber: Type.String({ minLength: 1 }),
  wireless: Type.Optional(Type.Boolean()),
});

/** The number looked up: its country calling code, country (ISO 3166 alpha-2), and whether it is mobile. */
export type PreviewDestination = Static<typeof PreviewDestinationSchema>;

/** `mobileOperator` of a lookup result (decoders also accept the element name `operator`). */
export const PreviewMobileOperatorSchema = Type.Object(
  {
    mobileOperatorId: WireInteger,
    mobileOperatorName: Type.Optional(Type.String()),
    textLength: Type.Optional(WireInteger),
    binaryLength: Type.Optional(WireInteger),
    unicodeLength: Type.Optional(WireInteger),
    wapPush: Type.Optional(Type.Boolean()),
  },
  { wireAliases: ['operator'] },
);

/**
 * The operator serving the number and its single-message limits: characters of GSM text, octets of
 * binary, UTF-16 code units; and whether it takes WAP Push.
 */
export type PreviewMobileOperator = Static<typeof PreviewMobileOperatorSchema>;

/** An operator lookup result (`preview`). */
export const PreviewSchema = Type.Object({
  destination: PreviewDestinationSchema,
  mobileOperator: PreviewMobileOperatorSchema,
});

/** A decoded operator lookup result. */
export type Preview = Static<typeof PreviewSchema>;

const PREVIEW = defineResource('preview', PreviewSchema, XML_NAMESPACES.preview);

/**
 * Decodes an operator lookup result. Accepts `alpha2Code` or `alpha2code`, and `mobileOperator`
 * or `operator`, in both formats; Booleans as `true`/`false` or `"true"`/`"false"`.
 *
 * @example
 * const preview = decodePreview(response.body, 'xml');
 * if (preview.ok && preview.value.destination.wireless) console.log(preview.value.mobileOperator.textLength);
 */
export function decodePreview(body: BodyInput, format: WireFormat, options?: DecodeOptions): Result<Preview, PayloadError> {
  return decodeResource(PREVIEW, body, format, options);
}

/** Encodes an operator lookup result (`TypeError` for a value that breaks {@link PreviewSchema}). */
export function encodePreview(value: Preview, format: WireFormat, options?: EncodeOptions): string {
  return encodeResource(PREVIEW, value, format, options);
}

import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import type { Result } from '../result.js';
import { XML_NAMESPACES } from '../xml/xml-document.js';

/**
 * An SMS API error record: JSON `{"error": {"code": "540", "description": "..."}}`, XML
 * `<error code="540" description="..."/>`. The code is a string of digits, as the spec writes it in
 * JSON; decoders also accept a JSON number and read it as its digits.
 */
export const ErrorRecordSchema = Type.Object({
  code: Type.String({ pattern: '^[0-9]{1,15}$', wireNumber: true, wireExpected: 'a numeric code (digits)' }),
  description: Type.String(),
});

/** A decoded SMS API error record (see `SMS_ERRORS` and `MT_INVALID` for the codes and descriptions). */
export type ErrorRecord = Static<typeof ErrorRecordSchema>;

const ERROR_RECORD = defineResource('error', ErrorRecordSchema, XML_NAMESPACES.mt);

/**
 * Decodes the error record of a rejected SMS API request.
 *
 * @example
 * const record = decodeErrorRecord(response.body, 'json');
 * if (record.ok && record.value.code === '711') console.log('unknown ticket');
 */
export function decodeErrorRecord(body: BodyInput, format: WireFormat, options?: DecodeOptions): Result<ErrorRecord, PayloadError> {
  return decodeResource(ERROR_RECORD, body, format, options);
}

/**
 * Encodes an SMS API error record (JSON code as a string; XML in the MT namespace by default);
 * `TypeError` for a value that breaks {@link ErrorRecordSchema}.
 */
export function encodeErrorRecord(value: ErrorRecord, format: WireFormat, options?: EncodeOptions): string {
  return encodeResource(ERROR_RECORD, value, format, options);
}

import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import type { BodyInput } from '../body/body-text.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions } from '../codec/wire-format.js';
import { decodeResource, defineResource, encodeResource } from '../resource-codec/resource-codec.js';
import { WireInteger } from '../resource-codec/wire-types.js';
import type { Result } from '../result.js';

/**
 * The error body of a rejected Invoke Service request (JSON only):
 * `{"error": {"code": 12002, "description": "..."}}`, the code an integer.
 */
export const InvokeErrorBodySchema = Type.Object({
  code: WireInteger,
  description: Type.String(),
});

/** A decoded Invoke Service error body (see `INVOKE_ERRORS` for the codes). */
export type InvokeErrorBody = Static<typeof InvokeErrorBodySchema>;

// The Invoke Service has no XML form; the namespace is never written.
const INVOKE_ERROR_BODY = defineResource('error', InvokeErrorBodySchema, '');

/**
 * Decodes the error body of a rejected Invoke Service request (JSON; a code written as a digit
 * string is read as its number).
 *
 * @example
 * const body = decodeInvokeErrorBody(response.body);
 * if (body.ok && body.value.code === 1010) scheduleRetry();
 */
export function decodeInvokeErrorBody(body: BodyInput, options?: DecodeOptions): Result<InvokeErrorBody, PayloadError> {
  return decodeResource(INVOKE_ERROR_BODY, body, 'json', options);
}

/** Encodes an Invoke Service error body (`TypeError` for a value that breaks {@link InvokeErrorBodySchema}). */
export function encodeInvokeErrorBody(value: InvokeErrorBody): string {
  return encodeResource(INVOKE_ERROR_BODY, value, 'json');
}

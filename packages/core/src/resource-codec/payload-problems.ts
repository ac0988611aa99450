import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { payloadError, type PayloadError } from '../codec/payload-error.js';
import type { BodyProblem, WireFormat } from '../codec/wire-format.js';
import { isDigits } from '../codec/wire-values.js';
import { PAYLOAD_INVALID } from '../errors/catalogue.js';
import { parseTimestamp } from '../time/xs-date-time.js';
import type { TimestampFault } from './timestamp-members.js';

/** Fills the `{name}` placeholders of a catalogue description. */
export function fillDescription(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] as string) : whole));
}

/** The payload error for a body that could not be read in its format. */
export function bodyProblemError(problem: BodyProblem, format: WireFormat, maxBytes: number): PayloadError {
  switch (problem) {
    case 'too-large':
      return payloadError('too-large', fillDescription(PAYLOAD_INVALID.tooLarge, { maxBytes: String(maxBytes) }));
    case 'invalid-encoding':
      return payloadError('invalid-encoding', PAYLOAD_INVALID.encoding);
    case 'duplicate-member':
      return payloadError('invalid-json', PAYLOAD_INVALID.jsonRepeatedMember);
    case 'not-an-object':
      return payloadError('invalid-json', PAYLOAD_INVALID.jsonNotAnObject);
    case 'too-deep':
      return format === 'json'
        ? payloadError('invalid-json', PAYLOAD_INVALID.jsonTooDeep)
        : payloadError('invalid-xml', PAYLOAD_INVALID.xmlTooDeep);
    default:
      return format === 'json' ? payloadError('invalid-json', PAYLOAD_INVALID.jsonSyntax) : payloadError('invalid-xml', PAYLOAD_INVALID.xmlSyntax);
  }
}

const PRINTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** The payload error for a body whose root is not the resource's (`found` is named when it is a plain name). */
export function wrongResourceError(expected: string, found: string | undefined): PayloadError {
  return found !== undefined && PRINTABLE_NAME.test(found)
    ? payloadError('wrong-resource', fillDescription(PAYLOAD_INVALID.wrongRoot, { expected, found }))
    : payloadError('wrong-resource', fillDescription(PAYLOAD_INVALID.wrongResource, { expected }));
}

/** `mtStatus` + `/segments/1/code` → `mtStatus.segments[1].code`. */
export function memberPath(root: string, pointer: string): string {
  let path = root;
  for (const part of pointer.split('/')) {
    if (part === '') continue;
    path += isDigits(part) ? `[${part}]` : `.${part}`;
  }
  return path;
}

/** How a decoder words what a member must be, from its schema. */
export function expectedOf(schema: TSchema, xml: boolean): string {
  if (typeof schema.wireExpected === 'string') return schema.wireExpected;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  switch (schema.type) {
    case 'integer':
      return typeof schema.minimum === 'number' && schema.minimum >= 1 ? 'a positive integer' : 'a non-negative integer';
    case 'boolean':
      return 'true or false';
    case 'string':
      return typeof schema.minLength === 'number' && schema.minLength >= 1 ? 'a non-empty string' : 'a string';
    case 'object':
      return xml ? 'a single element' : 'an object';
    case 'array':
      return xml ? `an element holding one or more ${String(schema.xmlItem)} elements` : `a list of one or more ${String(schema.xmlItem)} objects`;
    default:
      return 'a valid value';
  }
}

/** The payload error for the first schema violation of a decoded candidate. */
export function schemaViolationError(root: string, error: ValueError | undefined, xml: boolean): PayloadError {
  if (error === undefined) return payloadError('invalid-member', fillDescription(PAYLOAD_INVALID.invalidMember, { path: root, expected: 'valid' }), root);
  const path = memberPath(root, error.path);
  if (error.type === ValueErrorType.ObjectRequiredProperty) return payloadError('missing-member', fillDescription(PAYLOAD_INVALID.missingMember, { path }), path);
  if (error.schema.wireTimestamp === true && typeof error.value === 'string') {
    const read = parseTimestamp(error.value);
    if (!read.ok) return timestampFaultError(root, { pointer: error.path, error: read.error });
  }
  return payloadError('invalid-member', fillDescription(PAYLOAD_INVALID.invalidMember, { path, expected: expectedOf(error.schema, xml) }), path);
}

/** The payload error for a timestamp member the timestamp reader refused: the member and the reason. */
export function timestampFaultError(root: string, fault: TimestampFault): PayloadError {
  const path = memberPath(root, fault.pointer);
  return payloadError('invalid-member', fillDescription(PAYLOAD_INVALID.invalidTimestamp, { path, reason: fault.error.message }), path);
}

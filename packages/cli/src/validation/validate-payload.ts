/**
 * One payload's verdict, as the service would give it: the MT request through `decodeMtRequest`
 * (540 and the spec's description), the Invoke Service request through `decodeInvokeServiceRequest`
 * (12002 / 12007), every other resource through its core decoder (a payload error). The CLI adds
 * only what a file can have and a request cannot: an unknown resource, a format the resource does
 * not have, a file that cannot be read.
 */
import {
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeInvokeErrorBody,
  decodeInvokeServiceRequest,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  type InvokeValidationOptions,
  type WireFormat,
} from '@smsv4/core';
import { resourceByName, type ResourceName } from '../resources.js';
import { detectFormat, detectResource, KNOWN_ROOTS } from './detect-resource.js';
import { jsonSyntaxError } from './json-location.js';

/** Problems of the CLI's own (the others are the service's codes and core's payload error codes). */
export type ValidationProblemCode = 'unknown-resource' | 'unsupported-format' | 'unreadable';

/** Why a payload is invalid. */
export interface ValidationError {
  /**
   * The service's code (`'540'`, `12002`, `12007`), core's payload error code (`'invalid-member'`,
   * `'missing-member'`, `'invalid-json'`, ...) or a {@link ValidationProblemCode}.
   */
  readonly code: string | number;
  /** The service's description (exactly), or core's. */
  readonly description: string;
  /** Dotted path of the member at fault, when known (`mtStatus.segments[0].code`). */
  readonly path?: string;
  /** The rule of the 540 table broken (a key of core's `MT_INVALID`). */
  readonly rule?: string;
  /** For a JSON payload that is not JSON: the 1-based line of its first syntax error. */
  readonly line?: number;
  /** For a JSON payload that is not JSON: the 1-based column of its first syntax error. */
  readonly column?: number;
  /** For a JSON payload that is not JSON: what is wrong at `line` and `column`. */
  readonly syntax?: string;
}

/** The verdict on one payload. */
export interface ValidationResult {
  /** The file path as given, or `-` for standard input. */
  readonly source: string;
  /** The resource it was validated as (absent when none could be told). */
  readonly resource?: ResourceName;
  /** The format it was read in (absent when the file could not be read). */
  readonly format?: WireFormat;
  readonly valid: boolean;
  /** Why it is invalid. */
  readonly error?: ValidationError;
}

/** Options of {@link validatePayload}. */
export interface ValidatePayloadOptions {
  /** Validate as this resource instead of detecting it. */
  readonly resource?: ResourceName;
  /** Read in this format instead of detecting it. */
  readonly format?: WireFormat;
  /** Reserved words and built-in variables of the account, for the Invoke Service request. */
  readonly invokeValidation?: InvokeValidationOptions;
}

const invalid = (source: string, resource: ResourceName | undefined, format: WireFormat | undefined, error: ValidationError): ValidationResult => ({
  source,
  ...(resource === undefined ? {} : { resource }),
  ...(format === undefined ? {} : { format }),
  valid: false,
  error,
});

const sniffDecoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Validates one payload (raw bytes, so that invalid UTF-8 gets the service's answer) and never
 * throws on its content.
 *
 * @example
 * const result = validatePayload(readFileSync('mt.json'), 'mt.json');
 * if (!result.valid) console.log(result.error?.code, result.error?.description); // 540 Invalid request - ...
 */
export function validatePayload(body: Uint8Array | string, source: string, { resource, format, invokeValidation = {} }: ValidatePayloadOptions = {}): ValidationResult {
  const text = typeof body === 'string' ? body : sniffDecoder.decode(body);
  const wire = format ?? detectFormat(source, text);
  const name = resource ?? detectResource(text, wire);
  if (name === undefined) {
    const syntax = wire === 'json' ? jsonSyntaxError(text) : undefined;
    return invalid(source, undefined, wire, {
      code: 'unknown-resource',
      description: `cannot tell which resource this is: its root is none of ${KNOWN_ROOTS.join(', ')} (name one with --resource)`,
      ...(syntax === undefined ? {} : { line: syntax.line, column: syntax.column, syntax: syntax.problem }),
    });
  }
  const descriptor = resourceByName(name);
  if (!descriptor.formats.includes(wire)) {
    return invalid(source, name, wire, {
      code: 'unsupported-format',
      description: `the ${descriptor.title} has no ${wire.toUpperCase()} form (${descriptor.formats.map((f) => f.toUpperCase()).join(' only, ')} only)`,
    });
  }
  const outcome = decode(name, body, wire, invokeValidation);
  if (outcome.ok) return { source, resource: name, format: wire, valid: true };
  const syntax = wire === 'json' ? jsonSyntaxError(text) : undefined;
  return invalid(source, name, wire, syntax === undefined ? outcome.error : { ...outcome.error, line: syntax.line, column: syntax.column, syntax: syntax.problem });
}

type Outcome = { ok: true } | { ok: false; error: ValidationError };

function decode(name: ResourceName, body: Uint8Array | string, format: WireFormat, invokeValidation: InvokeValidationOptions): Outcome {
  switch (name) {
    case 'mt-request': {
      const result = decodeMtRequest(body, format);
      return result.ok ? { ok: true } : { ok: false, error: { code: result.error.code, description: result.error.description, rule: result.error.rule } };
    }
    case 'invoke-service-request': {
      const result = decodeInvokeServiceRequest(body, invokeValidation);
      return result.ok ? { ok: true } : { ok: false, error: { code: result.error.code, description: result.error.description } };
    }
    case 'mt-status':
      return payload(decodeMtStatus(body, format));
    case 'delivery-receipt':
      return payload(decodeDeliveryReceipt(body, format));
    case 'mobile-originate':
      return payload(decodeMobileOriginate(body, format));
    case 'preview':
      return payload(decodePreview(body, format));
    case 'error-record':
      return payload(decodeErrorRecord(body, format));
    case 'invoke-error':
      return payload(decodeInvokeErrorBody(body));
  }
}

function payload(result: { ok: true } | { ok: false; error: { code: string; description: string; path?: string } }): Outcome {
  if (result.ok) return { ok: true };
  const { code, description, path } = result.error;
  return { ok: false, error: path === undefined ? { code, description } : { code, description, path } };
}

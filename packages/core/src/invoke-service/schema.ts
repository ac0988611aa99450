/**
 * Schemas of the Invoke Service request, in two shapes:
 * - {@link InvokeServiceRequestSchema}: the decoded value ({@link InvokeServiceRequest}), where the
 *   phone number is a string of digits (16 digits do not fit a JavaScript number) and scope names are
 *   canonical. The encoder checks its input against it.
 * - {@link InvokeServiceRequestWireSchema}: the JSON body as `JSON.parse` returns it, usable as a
 *   JSON Schema (OpenAPI).
 * The decoder applies the same rules, plus those a JSON Schema cannot state (scopes and keys unique
 * regardless of case, reserved words, built-in variables, the exact digits of the phone number, one
 * description per rule), in a single walk of the parsed body: a second, schema-driven walk would
 * cost more than the decoder's whole budget. Tests hold the schema and the decoder in agreement.
 */
import * as Type from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { compileSchema } from '../codec/compile-schema.js';
import { INVOKE_LIMITS, INVOKE_SCOPES, KEY_PATTERN, VALUE_PATTERN } from './members.js';

/** Pattern of the decoded phone number: 6 to 16 ASCII digits, the first not 0 (a JSON integer has no leading zero). */
const PHONE_PATTERN = `^[1-9][0-9]{${INVOKE_LIMITS.phoneNumberMinDigits - 1},${INVOKE_LIMITS.phoneNumberMaxDigits - 1}}$`;
/** Pattern of a scope name on the wire, in any case. */
const SCOPE_PATTERN = `^(?:${INVOKE_SCOPES.map((scope) => [...scope].map((c) => `[${c.toUpperCase()}${c}]`).join('')).join('|')})$`;

const VariableValue = Type.String({ maxLength: INVOKE_LIMITS.valueMaxLength, pattern: VALUE_PATTERN });

/** One variable scope: at least one key, each mapped to its string value. */
export const InvokeVariableScopeSchema = Type.Record(Type.String({ pattern: KEY_PATTERN }), VariableValue, {
  minProperties: 1,
  additionalProperties: false,
  description: 'Variable keys (1 to 255 of A-Z, a-z, _, -, .; not case-sensitive, unique within the scope) and their values (at most 4096 characters of the Basic Multilingual Plane).',
});

/** A variable scope: keys as written, each mapped to its value. */
export type InvokeVariableScope = Static<typeof InvokeVariableScopeSchema>;

const scopeMembers = {
  request: Type.Optional(InvokeVariableScopeSchema),
  session: Type.Optional(InvokeVariableScopeSchema),
  user: Type.Optional(InvokeVariableScopeSchema),
  userservice: Type.Optional(InvokeVariableScopeSchema),
  userservicecoll: Type.Optional(InvokeVariableScopeSchema),
} satisfies Record<(typeof INVOKE_SCOPES)[number], unknown>;

/** The decoded `variables` member: at least one scope, under its canonical name. */
export const InvokeVariablesSchema = Type.Object(scopeMembers, {
  minProperties: 1,
  additionalProperties: false,
  description: 'Variables to set, by scope: request and session (session scopes), user, userservice and userservicecoll (user scopes).',
});

/** The decoded `variables` member. */
export type InvokeVariables = Static<typeof InvokeVariablesSchema>;

/** The decoded `endUser` member. */
export const InvokeEndUserSchema = Type.Object({
  phoneNumber: Type.String({
    pattern: PHONE_PATTERN,
    description: 'International format without a leading +: 6 to 16 digits, the first not 0, kept as a string (a JSON integer on the wire).',
  }),
  mobileOperatorId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Operator ID; when omitted the service treats it as UNKNOWN.' }),
  ),
});

/** The decoded `endUser` member. */
export type InvokeEndUser = Static<typeof InvokeEndUserSchema>;

/** The decoded Invoke Service request. */
export const InvokeServiceRequestSchema = Type.Object({
  endUser: InvokeEndUserSchema,
  variables: Type.Optional(InvokeVariablesSchema),
});

/**
 * A decoded Invoke Service request: `endUser.phoneNumber` holds the exact digits as a string,
 * scopes are under their canonical lower-case names, keys are as written.
 */
export type InvokeServiceRequest = Static<typeof InvokeServiceRequestSchema>;

/**
 * The Invoke Service request body as JSON, as a JSON Schema: `phoneNumber` is an integer
 * (`exclusiveMaximum` 10^16: at most 16 digits), scope names match in any case. Unknown members of
 * the body and of `endUser` are allowed and ignored.
 */
export const InvokeServiceRequestWireSchema = Type.Object({
  endUser: Type.Object({
    phoneNumber: Type.Integer({ minimum: 10 ** (INVOKE_LIMITS.phoneNumberMinDigits - 1), exclusiveMaximum: 10 ** INVOKE_LIMITS.phoneNumberMaxDigits }),
    mobileOperatorId: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
  variables: Type.Optional(
    Type.Record(Type.String({ pattern: SCOPE_PATTERN }), InvokeVariableScopeSchema, { minProperties: 1, additionalProperties: false }),
  ),
});

/** The Invoke Service request body as `JSON.parse` returns it. */
export type InvokeServiceRequestWire = Static<typeof InvokeServiceRequestWireSchema>;

/** Compiled check of the decoded value (used by the encoder). */
export const checkInvokeServiceRequestValue = compileSchema(InvokeServiceRequestSchema);

/**
 * The one error catalogue of the toolkit. Every code the spec names (SMS send, status, lookup,
 * delivery states and Invoke Service) is written here once, with its description, the HTTP status
 * the toolkit uses for it and whether a client may retry it. Validators, the sandbox, the clients,
 * the CLI and the generated documents all read from these tables.
 */

/** Guidance on retrying a rejected request. */
export type RetryGuidance =
  | { readonly retryable: false }
  | { readonly retryable: true; readonly minIntervalMs: number; readonly maxWindowMs?: number };

/** One entry of an error table. */
export interface ErrorEntry<C> {
  readonly code: C;
  readonly description: string;
  /** HTTP status used when the error is returned synchronously. */
  readonly httpStatus: number;
  readonly retry: RetryGuidance;
  /** Why the code occurs, from the spec (for documentation). */
  readonly condition: string;
}

const NO_RETRY = { retryable: false } as const;

/** Descriptions of the 540 (format or syntax) rejections of an MT request, keyed by rule. */
export const MT_INVALID = {
  mobileOperatorId: 'Invalid request - mobileOperatorId value is invalid',
  destinationAddress: 'Invalid request - destination address value is invalid',
  destinationAddressRequired: 'Invalid request - destination address is required',
  contentEmpty: 'Invalid request - message content must have a value',
  contentTooLong: 'Invalid request - message content exceeds 2680 bytes',
  contentInvalid: 'Invalid request - message content value is invalid',
  mlc: 'Invalid request - mlc value is invalid',
  promotional: 'Invalid request - promotional value is invalid',
  sourceTon: 'Invalid request - source ton value is invalid',
  sourceAddress: 'Invalid request - source address value is invalid',
  type: 'Invalid request - type value is invalid',
  charset: 'Invalid request - charset value is invalid',
  wapPushUrl: 'Invalid request - wapPush url value is invalid',
  validityPeriod: 'Invalid request - validityPeriod value is invalid',
  invalidXml: 'Invalid request - invalid XML in the payload',
  invalidJson: 'Invalid request - invalid JSON in the payload',
  messageRequired: 'Invalid request - message is required',
  note1: 'Invalid request - note1 value is invalid',
  note2: 'Invalid request - note2 value is invalid',
  programId: 'Invalid request - programId value is invalid',
  flash: 'Invalid request - flash value is invalid',
  udh: 'Invalid request - udh value is invalid',
  receiptRequestedRequired: 'Invalid request - receiptRequested is required as the request includes delivery',
  receiptRequested: 'Invalid request - receiptRequested value is invalid',
  deliveryUrl: 'Invalid request - delivery url value is invalid',
  interaction: 'Invalid request - interaction value is invalid',
} as const;

/** A rule of the 540 table. */
export type MtInvalidRule = keyof typeof MT_INVALID;

/** Codes of the SMS API's synchronous rejections (send, status, lookup). Strings, as on the wire. */
export type SmsErrorCode =
  | '345' | '420' | '431' | '432' | '540' | '577' | '578' | '579' | '580' | '591' | '592' | '711' | '1000' | '1010';

const sms = /* @__NO_SIDE_EFFECTS__ */ <C extends SmsErrorCode>(
  code: C,
  description: string,
  httpStatus: number,
  condition: string,
  retry: RetryGuidance = NO_RETRY,
): ErrorEntry<C> => ({ code, description, httpStatus, retry, condition });

/**
 * SMS API rejections. The spec publishes no HTTP status beyond the 400 of its 540 example and the
 * 400-499 / 500-599 ranges; this table is the toolkit's decision and is used everywhere.
 * 540 has many descriptions: see {@link MT_INVALID}; the one here is the generic form.
 */
export const SMS_ERRORS: { readonly [C in SmsErrorCode]: ErrorEntry<C> } = {
  '345': sms('345', 'Mobile operator not found for the destination', 404, 'Lookup of a number outside the supported countries.'),
  '420': sms('420', 'Invalid account ID or account password', 401, 'Credentials do not match or do not exist.'),
  '431': sms('431', 'Account not provisioned for SMS', 403, 'Account recognised but not provisioned.'),
  '432': sms('432', 'Account blocked for SMS', 403, 'Account blocked.'),
  '540': sms('540', 'Invalid request', 400, 'A format or syntax problem in the request; the description gives the reason.'),
  '577': sms('577', 'Account not provisioned to use SMS demo short code', 403, 'US only; demo short code used.'),
  '578': sms('578', 'Exceeded the time limit for using SMS demo', 403, 'Demo account past its time limit.'),
  '579': sms('579', 'Destination address not in whitelist for SMS demo', 403, 'Demo account sending outside its whitelist.'),
  '580': sms('580', 'Exceeded the max number of demo requests', 403, 'Demo account past its request cap.'),
  '591': sms('591', 'Exceeded the monthly limit on global MT messaging', 403, 'Monthly global MT cap reached.'),
  '592': sms('592', 'Account not provisioned for global one- or two-way SMS', 403, 'Destination country code is in a region the account cannot reach.'),
  '711': sms('711', 'Ticket ID not found', 404, 'Status of an unknown ticket, or one older than five days.'),
  '1000': sms('1000', 'Temporary error processing request', 500, 'The message may already have gone to the operator; do not retry repeatedly.'),
  '1010': sms('1010', 'Temporary system error', 503, 'Temporary; retry at intervals of 10 seconds or more.', { retryable: true, minIntervalMs: 10_000 }),
};

/** The lookup operation spells its credential error differently from send (as the spec prints it). */
export const LOOKUP_CREDENTIALS_DESCRIPTION = 'Invalid Account ID or account password';

/** Codes of Invoke Service rejections (integers on the wire). */
export type InvokeErrorCode =
  | 1000 | 1010 | 12001 | 12002 | 12003 | 12004 | 12005 | 12006 | 12007 | 12008 | 12009 | 12010;

const inv = /* @__NO_SIDE_EFFECTS__ */ <C extends InvokeErrorCode>(
  code: C,
  description: string,
  httpStatus: number,
  condition: string,
  retry: RetryGuidance = NO_RETRY,
): ErrorEntry<C> => ({ code, description, httpStatus, retry, condition });

/** Invoke Service rejections; 1000, 1010, 12001, 12002 and 12003 statuses are the real service's. */
export const INVOKE_ERRORS: { readonly [C in InvokeErrorCode]: ErrorEntry<C> } = {
  1000: inv(1000, 'Error processing the request; contact support', 500, 'Permanent; do not retry.'),
  1010: inv(1010, 'Error processing the request; retry', 500, 'Temporary; retry every 15 minutes for up to 24 hours.', { retryable: true, minIntervalMs: 15 * 60_000, maxWindowMs: 24 * 3_600_000 }),
  12001: inv(12001, 'Account is not authorized to use this API', 403, 'Account lacks the Invoke Service role.'),
  12002: inv(12002, 'Invalid JSON in the payload', 400, 'The body breaks a rule of the request; the description names it.'),
  12003: inv(12003, 'Invalid HTTP method', 405, 'A method other than POST.'),
  12004: inv(12004, 'Invalid API version', 404, 'A version other than v1 in the path.'),
  12005: inv(12005, 'Invalid query parameter', 400, 'Any query parameter.'),
  12006: inv(12006, 'Invalid request URL', 404, 'A wrong operation name or a non-hexadecimal service ID.'),
  12007: inv(12007, 'Request body exceeds the maximum allowable limit', 413, 'Body over 8000 bytes.'),
  12008: inv(12008, 'Request was blocked', 403, 'Contact support.'),
  12009: inv(12009, 'Username and/or password is invalid', 401, 'Credentials do not match or do not exist.'),
  12010: inv(12010, 'Unable to authenticate request', 401, 'Mutual-authentication certificate issue or name not approved.'),
};

/** The largest Invoke Service body the service takes, in bytes (larger: 12007). */
export const INVOKE_MAX_BODY_BYTES = 8000;

/**
 * Descriptions of the 12002 rejections of an Invoke Service request, keyed by rule: the spec's
 * "Invalid JSON in the payload" followed by " - " and the condition (a plain syntax error has no
 * condition). `{scope}` and `{key}` stand for the scope and key at fault, written as JSON strings
 * (names over 64 characters cut to 64 and followed by `...`).
 */
export const INVOKE_INVALID = {
  syntax: 'Invalid JSON in the payload',
  encoding: 'Invalid JSON in the payload - body is not valid UTF-8',
  notAnObject: 'Invalid JSON in the payload - body is not a JSON object',
  repeatedMember: 'Invalid JSON in the payload - a member is repeated',
  tooDeep: 'Invalid JSON in the payload - body is nested too deeply',
  endUserMissing: 'Invalid JSON in the payload - endUser is missing',
  endUserMalformed: 'Invalid JSON in the payload - endUser is not an object',
  phoneNumberMissing: 'Invalid JSON in the payload - endUser.phoneNumber is missing',
  phoneNumberMalformed: 'Invalid JSON in the payload - endUser.phoneNumber is not an integer of 6 to 16 digits',
  mobileOperatorIdMalformed: 'Invalid JSON in the payload - endUser.mobileOperatorId is not a non-negative integer',
  variablesMalformed: 'Invalid JSON in the payload - variables is not an object',
  variablesEmpty: 'Invalid JSON in the payload - variables holds no scope',
  scopeUnknown: 'Invalid JSON in the payload - scope {scope} is not a valid scope',
  scopeRepeated: 'Invalid JSON in the payload - scope {scope} is repeated',
  scopeMalformed: 'Invalid JSON in the payload - scope {scope} is not an object',
  scopeEmpty: 'Invalid JSON in the payload - scope {scope} holds no key',
  keyLength: 'Invalid JSON in the payload - key {key} in scope {scope} is not 1 to 255 characters long',
  keyCharacter: 'Invalid JSON in the payload - key {key} in scope {scope} has a disallowed character',
  keyRepeated: 'Invalid JSON in the payload - key {key} in scope {scope} is repeated',
  keyReserved: 'Invalid JSON in the payload - key {key} in scope {scope} is a reserved word',
  keyBuiltIn: 'Invalid JSON in the payload - key {key} in scope {scope} names a built-in variable',
  valueMalformed: 'Invalid JSON in the payload - value of key {key} in scope {scope} is not a string',
  valueTooLong: 'Invalid JSON in the payload - value of key {key} in scope {scope} exceeds 4096 characters',
  valueOutsideBmp: 'Invalid JSON in the payload - value of key {key} in scope {scope} has a character outside the Basic Multilingual Plane',
  valueCharacter: 'Invalid JSON in the payload - value of key {key} in scope {scope} has a disallowed character',
} as const;

/** A rule of the Invoke Service 12002 table. */
export type InvokeInvalidRule = keyof typeof INVOKE_INVALID;

/** A delivery state reported in status responses and receipts. */
export interface DeliveryStateEntry {
  readonly code: number;
  readonly description: string;
  /** `true` once the state can no longer change. */
  readonly final: boolean;
  /** `delivered`, `failed`, or `pending` (no final answer yet). */
  readonly outcome: 'delivered' | 'failed' | 'pending';
  readonly retryable: boolean;
}

const state = /* @__NO_SIDE_EFFECTS__ */ (
  code: number,
  description: string,
  final: boolean,
  outcome: DeliveryStateEntry['outcome'],
  retryable = false,
): DeliveryStateEntry => ({ code, description, final, outcome, retryable });

/** Delivery states of the spec and of the real service (wire-facts "Codes"). */
export const DELIVERY_STATES: { readonly [code: number]: DeliveryStateEntry | undefined } = {
  0: state(0, 'Message sent', true, 'delivered'),
  2: state(2, 'Message accepted', false, 'pending'),
  3: state(3, 'Message accepted by the mobile operator, awaiting receipt', false, 'pending'),
  4: state(4, 'Message delivered', true, 'delivered'),
  341: state(341, 'Mobile operator ID does not exist', true, 'failed'),
  345: state(345, 'Mobile operator not found for the destination', true, 'failed'),
  351: state(351, 'Invalid destination address', true, 'failed'),
  607: state(607, 'Message rejected by a spam filter', true, 'failed'),
  711: state(711, 'Ticket ID not found', true, 'failed'),
  811: state(811, 'Message expired before it reached handset', true, 'failed'),
  830: state(830, 'Partial message delivery failure', true, 'failed'),
  831: state(831, 'Awaiting complete message delivery status', false, 'pending'),
};

/** The delivery state entry for a code, or `undefined` for a code the catalogue does not know. */
export function deliveryState(code: number): DeliveryStateEntry | undefined {
  return Object.hasOwn(DELIVERY_STATES, code) ? DELIVERY_STATES[code] : undefined;
}

/**
 * Descriptions of the payload errors of the resources for which the spec names no code (status,
 * receipts, inbound messages, lookup results, error records), keyed by rule. `{maxBytes}` stands
 * for the size limit, `{expected}` for the expected root name or for what the member must be,
 * `{found}` for the root found instead and `{path}` for the dotted path of the member
 * (`mtStatus.segments[1].code`).
 */
export const PAYLOAD_INVALID = {
  tooLarge: 'Payload exceeds {maxBytes} bytes',
  encoding: 'Payload is not valid UTF-8 text',
  jsonSyntax: 'Invalid JSON in the payload',
  jsonRepeatedMember: 'Invalid JSON in the payload - a member is repeated',
  jsonTooDeep: 'Invalid JSON in the payload - nested too deeply',
  jsonNotAnObject: 'Invalid JSON in the payload - body is not a JSON object',
  xmlSyntax: 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration',
  xmlTooDeep: 'Invalid XML in the payload - nested too deeply',
  wrongResource: 'Payload root is not {expected}',
  wrongRoot: 'Payload root is {found}, not {expected}',
  missingMember: 'Required member {path} is missing',
  invalidMember: 'Member {path} must be {expected}',
  invalidTimestamp: 'Member {path} must be an xs:dateTime with a time zone: {reason}',
} as const;

/** A rule of the payload error table. */
export type PayloadInvalidRule = keyof typeof PAYLOAD_INVALID;

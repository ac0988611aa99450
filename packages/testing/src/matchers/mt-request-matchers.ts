/** `toBeValidMtRequest()` and `toFailWith540(description)`: core's 540 validation as matchers. */
import { decodeMtRequest, MT_INVALID, parseSendResponse, validateMtRequest, type MtInvalidRule, type MtRequestError } from '@smsv4/core';
import { hint, show, type SmsMatcherContext, type SmsMatcherResult } from './matcher-context.js';
import { isObject, receivedBody } from './received.js';

/** The member each 540 rule is about (for messages). */
const RULE_MEMBERS: Readonly<Record<MtInvalidRule, string>> = {
  mobileOperatorId: 'destination.mobileOperatorId',
  destinationAddress: 'destination.address',
  destinationAddressRequired: 'destination.address',
  contentEmpty: 'message.content',
  contentTooLong: 'message.content',
  contentInvalid: 'message.content',
  mlc: 'message.mlc',
  promotional: 'promotional',
  sourceTon: 'source.ton',
  sourceAddress: 'source.address',
  type: 'message.type',
  charset: 'message.charset',
  wapPushUrl: 'message.url',
  validityPeriod: 'message.validityPeriod',
  invalidXml: '(the body)',
  invalidJson: '(the body)',
  messageRequired: 'message',
  note1: 'options.note1',
  note2: 'options.note2',
  programId: 'options.programId',
  flash: 'options.flash',
  udh: 'message.udh',
  receiptRequestedRequired: 'delivery.receiptRequested',
  receiptRequested: 'delivery.receiptRequested',
  deliveryUrl: 'delivery.url',
  interaction: 'interaction',
};

/** What validating a received MT request gave. */
type Checked =
  | { readonly readable: true; readonly error?: MtRequestError; readonly members?: Record<string, unknown> }
  | { readonly readable: false; readonly reason: string };

/** The JSON-shaped members of a request, for showing the value at fault (JSON and objects only). */
function membersOf(received: unknown, text: string | undefined): Record<string, unknown> | undefined {
  if (text !== undefined) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return isObject(parsed) && isObject(parsed.mobileTerminate) ? parsed.mobileTerminate : undefined;
    } catch {
      return undefined;
    }
  }
  if (!isObject(received)) return undefined;
  return isObject(received.mobileTerminate) ? received.mobileTerminate : received;
}

/**
 * Validates what a matcher received as an MT request: a JSON or XML body (text, octets, a built
 * payload, a request `{ body, headers }` such as core's `buildSendRequest` gives), the JSON form
 * `{ mobileTerminate: {...} }`, or a request object.
 */
function checkMtRequest(received: unknown): Checked {
  const body = receivedBody(received);
  if (body !== undefined) {
    const result = decodeMtRequest(body.text, body.format);
    return { readable: true, ...(result.ok ? {} : { error: result.error }), ...(body.format === 'json' ? { members: membersOf(received, body.text) } : {}) };
  }
  if (isObject(received)) {
    const result = isObject(received.mobileTerminate) && Object.keys(received).length === 1 ? decodeMtRequest(JSON.stringify(received), 'json') : validateMtRequest(received);
    return { readable: true, ...(result.ok ? {} : { error: result.error }), members: membersOf(received, undefined) };
  }
  return { readable: false, reason: `${show(received)} is not an MT request (a JSON or XML body, a built payload, a request with a body, or a request object)` };
}

/** The value at a dotted path. */
function at(members: Record<string, unknown> | undefined, path: string): { found: boolean; value?: unknown } {
  let node: unknown = members;
  for (const key of path.split('.')) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return { found: false };
    node = node[key];
  }
  return { found: true, value: node };
}

/** The lines naming a broken rule: its description, its key and the member with its value. */
function ruleLines(error: MtRequestError, members: Record<string, unknown> | undefined): string[] {
  const member = RULE_MEMBERS[error.rule] ?? '(unknown)';
  const value = member.startsWith('(') ? { found: false } : at(members, member);
  return [
    `  ${error.code} ${error.description}`,
    `  rule:   ${error.rule} (MT_INVALID.${error.rule})`,
    `  member: ${member}${value.found ? ` = ${show(value.value)}` : ''}`,
  ];
}

/** `expect(request).toBeValidMtRequest()`: the service would accept the request (no 540 rule broken). */
export function toBeValidMtRequest(this: SmsMatcherContext, received: unknown): SmsMatcherResult {
  const checked = checkMtRequest(received);
  const head = hint(this, 'toBeValidMtRequest');
  if (!checked.readable) return { pass: false, message: () => `${head}\n\n${checked.reason}` };
  if (checked.error === undefined) return { pass: true, message: () => `${head}\n\nExpected an MT request the service rejects, but it is valid: the service would accept it.` };
  const error = checked.error;
  return { pass: false, message: () => [head, '', 'Expected a valid MT request, but the service would answer 540:', ...ruleLines(error, checked.members)].join('\n') };
}

/** The short form of a 540 description (without `Invalid request - `). */
const short = (description: string): string => description.replace(/^Invalid request - /, '');

/** Whether a description is the one expected: full or short text, a rule key, or a pattern. */
function describes(expected: string | RegExp, description: string): boolean {
  if (expected instanceof RegExp) return expected.test(description);
  if (Object.hasOwn(MT_INVALID, expected)) return MT_INVALID[expected as MtInvalidRule] === description;
  return description === expected || short(description) === expected;
}

/** The 540 of a received answer or error value, when it is one. */
function rejectionOf(received: unknown): { readable: true; code?: string; description?: string; from: string } | undefined {
  if (!isObject(received)) return undefined;
  if (typeof received.status === 'number' && received.body !== undefined && received.headers !== undefined) {
    const parsed = parseSendResponse({ status: received.status, headers: received.headers as Headers, body: received.body as string });
    if (parsed.ok) return { readable: true, from: `an accepted send (HTTP ${received.status})` };
    const failure = parsed.error;
    return { readable: true, code: failure.kind === 'api-error' ? String(failure.code) : undefined, description: failure.description, from: `an answer of HTTP ${received.status}` } as const;
  }
  if ((typeof received.code === 'string' || typeof received.code === 'number') && typeof received.description === 'string' && !isObject(received.message)) {
    return { readable: true, code: String(received.code), description: received.description, from: 'an error' };
  }
  return undefined;
}

/**
 * `expect(request).toFailWith540('destination address value is invalid')`: the service would
 * reject the request with 540 and this description. The description may be given in full
 * (`Invalid request - …`), without its `Invalid request - ` start, as a rule key of `MT_INVALID`
 * (`'destinationAddress'`) or as a pattern. Also takes the service's answer (`{ status, headers,
 * body }`, e.g. from the sandbox) or an error value with `code` and `description`.
 */
export function toFailWith540(this: SmsMatcherContext, received: unknown, description: string | RegExp): SmsMatcherResult {
  if (typeof description !== 'string' && !(description instanceof RegExp)) throw new TypeError('toFailWith540 takes the expected description (text, a rule key of MT_INVALID, or a pattern)');
  const head = hint(this, 'toFailWith540', show(description));
  const wanted = description instanceof RegExp ? String(description) : Object.hasOwn(MT_INVALID, description) ? MT_INVALID[description as MtInvalidRule] : description;
  const rejection = rejectionOf(received);
  if (rejection !== undefined) {
    const pass = rejection.code === '540' && rejection.description !== undefined && describes(description, rejection.description);
    const got = rejection.code === undefined ? `${rejection.from}: ${rejection.description ?? 'no error'}` : `${rejection.from}: ${rejection.code} ${rejection.description ?? ''}`;
    return {
      pass,
      message: () => (pass ? `${head}\n\nExpected anything but 540 ${show(wanted)}, but got it from ${got}` : `${head}\n\nExpected 540 ${show(wanted)}\nReceived ${got}`),
    };
  }
  const checked = checkMtRequest(received);
  if (!checked.readable) return { pass: false, message: () => `${head}\n\n${checked.reason}` };
  const error = checked.error;
  if (error === undefined) return { pass: false, message: () => `${head}\n\nExpected 540 ${show(wanted)}, but the request is valid: the service would accept it.` };
  const pass = describes(description, error.description);
  return {
    pass,
    message: () =>
      [head, '', pass ? `Expected the request not to fail with 540 ${show(wanted)}, but it does:` : `Expected 540 ${show(wanted)}, but the service would answer:`, ...ruleLines(error, checked.members)].join('\n'),
  };
}

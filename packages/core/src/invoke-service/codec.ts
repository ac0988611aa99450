import { bodyToText, type BodyInput } from '../body/body-text.js';
import { INVOKE_MAX_BODY_BYTES } from '../errors/catalogue.js';
import { isJsonObject, parseStrictJson } from '../json/strict-json.js';
import { err, type Result } from '../result.js';
import { endUserNumberLiterals } from './end-user-literals.js';
import { INVOKE_TOO_LARGE_ERROR, invokeInvalidError, type InvokeRequestError } from './errors.js';
import { MAX_DEPTH, countColons, hasRepeatedMember, newTally, tallyValue, type MemberTally } from '../json/member-tally.js';
import { INVOKE_SCOPES } from './members.js';
import { checkInvokeServiceRequestValue, type InvokeServiceRequest } from './schema.js';
import { forbiddenKeys, walkInvokeRequest, type ForbiddenKeys, type InvokeValidationOptions } from './validate.js';

/**
 * Decodes and validates an Invoke Service request body (JSON). In order: a body over
 * `INVOKE_MAX_BODY_BYTES` (8000) UTF-8 bytes is 12007, checked before anything else; then 12002 for
 * bytes that are not UTF-8, a JSON syntax error, nesting deeper than 64, a repeated member anywhere,
 * a root that is not an object, then the first broken rule of the request, each with its own
 * description from `INVOKE_INVALID`. The phone number keeps its exact digits (also beyond
 * `Number.MAX_SAFE_INTEGER`), read from the source text. Never throws on any body; a body that is
 * neither a string nor a `Uint8Array`, or a list option that is not an array of strings, is a
 * `TypeError`.
 */
export function decodeInvokeServiceRequest(
  body: BodyInput,
  options: InvokeValidationOptions = {},
): Result<InvokeServiceRequest, InvokeRequestError> {
  const forbidden = forbiddenKeys(options);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('body must be a string or a Uint8Array');
  const text = bodyToText(body, INVOKE_MAX_BODY_BYTES);
  if (!text.ok) return err(text.error === 'too-large' ? INVOKE_TOO_LARGE_ERROR : invokeInvalidError('encoding'));
  const source = text.value;
  return source.indexOf('\\') === -1 ? decodeUnescaped(source, forbidden) : decodeEscaped(source, forbidden);
}

/** A text with escapes: the strict parser finds repeated members, a scan finds the phone digits. */
function decodeEscaped(source: string, forbidden: ForbiddenKeys): Result<InvokeServiceRequest, InvokeRequestError> {
  const parsed = parseStrictJson(source, { maxDepth: MAX_DEPTH });
  if (!parsed.ok) {
    return err(invokeInvalidError(parsed.error === 'syntax' ? 'syntax' : parsed.error === 'duplicate-member' ? 'repeatedMember' : 'tooDeep'));
  }
  const root = parsed.value;
  if (!isJsonObject(root)) return err(invokeInvalidError('notAnObject'));
  return walkInvokeRequest(root, (phone, operator) => endUserNumberLiterals(source, phone, operator, true), forbidden);
}

/**
 * Any surrogate code unit. A well-formed text without a backslash that `JSON.parse` accepted has no
 * control character inside a string (JSON forbids them unescaped) and no lone surrogate, so when it
 * has no surrogate at all, no value can hold a disallowed character or one outside the BMP.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The body-level problem a complete tally shows, if any. */
function bodyProblem(tally: MemberTally, source: string): InvokeRequestError | undefined {
  if (tally.deepest > MAX_DEPTH) return invokeInvalidError('tooDeep');
  if (hasRepeatedMember(tally, countColons(source))) return invokeInvalidError('repeatedMember');
  return undefined;
}

/**
 * A text without a backslash (nearly every real body): one `JSON.parse`, then one walk that both
 * validates and tallies members, which detects repeated members without scanning the text in
 * JavaScript (see `member-tally.ts`). Body-level problems take precedence over rule violations, so
 * after a failed walk the whole value is tallied again.
 */
function decodeUnescaped(source: string, forbidden: ForbiddenKeys): Result<InvokeServiceRequest, InvokeRequestError> {
  let root: unknown;
  try {
    root = JSON.parse(source);
  } catch {
    return err(invokeInvalidError('syntax'));
  }
  if (!isJsonObject(root)) {
    const tally = newTally();
    tallyValue(root, 1, tally);
    return err(bodyProblem(tally, source) ?? invokeInvalidError('notAnObject'));
  }
  const tally = newTally();
  const result = walkInvokeRequest(root, (phone, operator) => endUserNumberLiterals(source, phone, operator, false), forbidden, tally, !SURROGATE.test(source));
  if (result.ok) {
    const problem = bodyProblem(tally, source);
    return problem === undefined ? result : err(problem);
  }
  const full = newTally();
  tallyValue(root, 1, full);
  const problem = bodyProblem(full, source);
  return problem === undefined ? result : err(problem);
}

/**
 * Encodes an Invoke Service request as JSON: the phone number as a bare JSON integer (exact, all
 * 16 digits), scopes under their canonical names in the spec's order, keys as written. A value that
 * does not match `InvokeServiceRequestSchema` is a `TypeError`. The account's rules (reserved words,
 * built-in variables, keys unique regardless of case) and the 8000-byte limit are the decoder's to
 * check: `decodeInvokeServiceRequest(encodeInvokeServiceRequest(value), options)` applies them all.
 */
export function encodeInvokeServiceRequest(value: InvokeServiceRequest): string {
  if (!checkInvokeServiceRequestValue.Check(value)) {
    const first = checkInvokeServiceRequestValue.Errors(value).First();
    throw new TypeError(`not an InvokeServiceRequest: ${first === undefined ? 'invalid value' : `${first.path || '/'} ${first.message}`}`);
  }
  const { phoneNumber, mobileOperatorId } = value.endUser;
  let json = `{"endUser":{"phoneNumber":${phoneNumber}`;
  if (mobileOperatorId !== undefined) json += `,"mobileOperatorId":${mobileOperatorId}`;
  json += '}';
  const variables = value.variables;
  if (variables !== undefined) {
    let scopes = '';
    for (const scope of INVOKE_SCOPES) {
      const members = variables[scope];
      if (members !== undefined) scopes += `${scopes === '' ? '' : ','}"${scope}":${JSON.stringify(members)}`;
    }
    if (scopes === '') throw new TypeError('not an InvokeServiceRequest: /variables holds no scope');
    json += `,"variables":{${scopes}}`;
  }
  return `${json}}`;
}

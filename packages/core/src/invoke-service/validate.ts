import { isDigits } from '../codec/wire-values.js';
import { isJsonObject } from '../json/strict-json.js';
import { err, ok, type Result } from '../result.js';
import { DEFAULT_BUILT_IN_VARIABLES, DEFAULT_RESERVED_WORDS } from './defaults.js';
import type { EndUserLiterals } from './end-user-literals.js';
import { invokeInvalidError, type InvokeRequestError } from './errors.js';
import { countColons, tallyValue, type MemberTally } from '../json/member-tally.js';
import { INVOKE_LIMITS, VALUE_PATTERN, isKeyCharacter, scopeIndex, valueCharacterProblem } from './members.js';
import type { InvokeServiceRequest, InvokeVariableScope, InvokeVariables } from './schema.js';

/** Account-specific lists the Invoke Service request is validated against. */
export interface InvokeValidationOptions {
  /**
   * Words a variable key must not be, compared case-insensitively. Replaces
   * {@link DEFAULT_RESERVED_WORDS} (a placeholder: the spec does not publish the list).
   */
  readonly reservedWords?: readonly string[];
  /**
   * Built-in variables a request must not set, compared case-insensitively. Replaces
   * {@link DEFAULT_BUILT_IN_VARIABLES} (a placeholder: the spec does not publish the list).
   */
  readonly builtInVariables?: readonly string[];
}

/** Forbidden key names, upper-cased, each with the rule it breaks (a reserved word wins). */
export type ForbiddenKeys = ReadonlyMap<string, 'keyReserved' | 'keyBuiltIn'>;

function forbiddenMap(reservedWords: readonly string[], builtInVariables: readonly string[]): ForbiddenKeys {
  const map = new Map<string, 'keyReserved' | 'keyBuiltIn'>();
  for (const [words, option, rule] of [
    [builtInVariables, 'builtInVariables', 'keyBuiltIn'],
    [reservedWords, 'reservedWords', 'keyReserved'],
  ] as const) {
    if (!Array.isArray(words)) throw new TypeError(`${option} must be an array of strings`);
    for (const word of words) {
      if (typeof word !== 'string') throw new TypeError(`${option} must be an array of strings`);
      map.set(word.toUpperCase(), rule);
    }
  }
  return map;
}

const DEFAULT_FORBIDDEN = forbiddenMap(DEFAULT_RESERVED_WORDS, DEFAULT_BUILT_IN_VARIABLES);

/** Resolves the options of a validation; a list that is not an array of strings is a `TypeError`. */
export function forbiddenKeys({ reservedWords = DEFAULT_RESERVED_WORDS, builtInVariables = DEFAULT_BUILT_IN_VARIABLES }: InvokeValidationOptions = {}): ForbiddenKeys {
  return reservedWords === DEFAULT_RESERVED_WORDS && builtInVariables === DEFAULT_BUILT_IN_VARIABLES
    ? DEFAULT_FORBIDDEN
    : forbiddenMap(reservedWords, builtInVariables);
}

const VALUE_CHARACTERS = new RegExp(VALUE_PATTERN);
/** Up to this many keys, a scope's folded keys are compared in a list rather than a set. */
const SMALL_SCOPE = 16;

/**
 * The digits of `endUser.phoneNumber`, or `undefined` when it is not an integer of 6 to 16 digits.
 * With the source text of the number, the digits are read from it (exact beyond 2^53, and a sign,
 * fraction or exponent is refused); without it, only a safe integer or a bigint has known digits.
 */
function phoneDigits(value: unknown, literal: string | undefined): string | undefined {
  let digits: string;
  if (typeof value === 'number') {
    if (literal !== undefined) digits = literal;
    else if (Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0)) digits = String(value);
    else return undefined;
  } else if (typeof value === 'bigint') {
    if (value < 0n) return undefined;
    digits = String(value);
  } else return undefined;
  return digits.length >= INVOKE_LIMITS.phoneNumberMinDigits && digits.length <= INVOKE_LIMITS.phoneNumberMaxDigits && isDigits(digits)
    ? digits
    : undefined;
}

/** `endUser.mobileOperatorId` as a number, or `undefined` when it is not a non-negative safe integer. */
function operatorId(value: unknown, literal: string | undefined): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0 || Object.is(value, -0)) return undefined;
    return literal === undefined || isDigits(literal) ? value : undefined;
  }
  if (typeof value === 'bigint') return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
  return undefined;
}

/** Marks a key with a disallowed character, or of a wrong length (see {@link foldKey}). */
const BAD_KEY_LENGTH = 0;
const BAD_KEY_CHARACTER = 1;

/**
 * A key folded to upper case, or the rule it breaks on its own: {@link BAD_KEY_LENGTH} or
 * {@link BAD_KEY_CHARACTER}. One pass checks the characters and finds whether there is anything to fold.
 */
function foldKey(key: string): string | typeof BAD_KEY_LENGTH | typeof BAD_KEY_CHARACTER {
  const length = key.length;
  if (length < INVOKE_LIMITS.keyMinLength || length > INVOKE_LIMITS.keyMaxLength) return BAD_KEY_LENGTH;
  let lowerCase = false;
  for (let i = 0; i < length; i++) {
    const c = key.charCodeAt(i);
    if (!isKeyCharacter(c)) return BAD_KEY_CHARACTER;
    if (c >= 0x61) lowerCase = true; // a-z: the only allowed characters above `_`
  }
  return lowerCase ? key.toUpperCase() : key;
}

/** Values up to this length are checked with a loop, longer ones with the compiled pattern. */
const SHORT_VALUE = 64;
/** Marks a value with a disallowed character (see {@link valueColons}). */
const BAD_VALUE_CHARACTER = -1;

/**
 * The number of colons in a value whose characters are all allowed, or {@link BAD_VALUE_CHARACTER}.
 * Short values are checked with a loop, long ones with the compiled pattern (faster there).
 */
function valueColons(value: string): number {
  const allowed = value.length > SHORT_VALUE ? VALUE_CHARACTERS.test(value) : valueCharacterProblem(value) === undefined;
  if (!allowed) return BAD_VALUE_CHARACTER;
  return value.indexOf(':') === -1 ? 0 : countColons(value);
}

/** Adds a member the request does not know (its name and whatever its value holds) to a tally. */
function tallyMember(key: string, value: unknown, depth: number, tally: MemberTally): void {
  if (key.indexOf(':') !== -1) tally.colons += countColons(key);
  tallyValue(value, depth, tally);
}

/**
 * Validates a parsed body (a JSON object) and builds the decoded value, in one walk. Rules are
 * applied top-down in one fixed order and the first broken one is reported: endUser,
 * phoneNumber, mobileOperatorId, variables, then scope by scope and, within a scope, key by key in
 * member order (each key: length, characters, repeated, reserved, built-in, then its value: type,
 * length, characters). `literals` gives the source text of the `endUser` numbers when the body's
 * text is known. With a `tally`, a successful walk also adds every member and every colon inside a
 * string of the body to it (see `member-tally.ts`); after a failure the tally is incomplete.
 * `valueCharactersChecked` tells that no string of the body can hold a disallowed character (the
 * caller has checked the whole text), so values are not checked one by one.
 */
export function walkInvokeRequest(
  root: Record<string, unknown>,
  literals: ((phone: unknown, operator: unknown) => EndUserLiterals) | undefined,
  forbidden: ForbiddenKeys,
  tally?: MemberTally,
  valueCharactersChecked = false,
): Result<InvokeServiceRequest, InvokeRequestError> {
  // One pass over the members of the root and of endUser reads the known ones and tallies the others.
  let endUser: unknown;
  let variables: unknown;
  const rootKeys = Object.keys(root);
  for (const key of rootKeys) {
    if (key === 'endUser') endUser = root[key];
    else if (key === 'variables') variables = root[key];
    else if (tally !== undefined) tallyMember(key, root[key], 2, tally);
  }
  if (endUser === undefined) return err(invokeInvalidError('endUserMissing'));
  if (!isJsonObject(endUser)) return err(invokeInvalidError('endUserMalformed'));
  let phone: unknown;
  let operator: unknown;
  const endUserKeys = Object.keys(endUser);
  for (const key of endUserKeys) {
    if (key === 'phoneNumber') phone = endUser[key];
    else if (key === 'mobileOperatorId') operator = endUser[key];
    else if (tally !== undefined) tallyMember(key, endUser[key], 3, tally);
  }
  if (phone === undefined) return err(invokeInvalidError('phoneNumberMissing'));
  const source = literals !== undefined && (typeof phone === 'number' || typeof operator === 'number') ? literals(phone, operator) : undefined;
  const phoneNumber = phoneDigits(phone, source?.phoneNumber);
  if (phoneNumber === undefined) return err(invokeInvalidError('phoneNumberMalformed'));
  let mobileOperatorId: number | undefined;
  if (operator !== undefined) {
    mobileOperatorId = operatorId(operator, source?.mobileOperatorId);
    if (mobileOperatorId === undefined) return err(invokeInvalidError('mobileOperatorIdMalformed'));
  }
  const decodedEndUser = mobileOperatorId === undefined ? { phoneNumber } : { phoneNumber, mobileOperatorId };
  if (tally !== undefined) {
    tally.members += rootKeys.length + endUserKeys.length;
    if (tally.deepest < 2) tally.deepest = 2;
  }

  if (variables === undefined) return ok({ endUser: decodedEndUser });
  if (!isJsonObject(variables)) return err(invokeInvalidError('variablesMalformed'));
  const scopeNames = Object.keys(variables);
  if (scopeNames.length === 0) return err(invokeInvalidError('variablesEmpty'));

  // The scopes found, by position in INVOKE_SCOPES.
  const found: (InvokeVariableScope | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
  for (const name of scopeNames) {
    const index = scopeIndex(name);
    if (index === -1) return err(invokeInvalidError('scopeUnknown', { scope: name }));
    if (found[index] !== undefined) return err(invokeInvalidError('scopeRepeated', { scope: name }));
    const members = variables[name];
    if (!isJsonObject(members)) return err(invokeInvalidError('scopeMalformed', { scope: name }));
    const keys = Object.keys(members);
    const count = keys.length;
    if (count === 0) return err(invokeInvalidError('scopeEmpty', { scope: name }));
    // Keys seen so far in this scope, folded to upper case (a list while the scope is small).
    const seenList: string[] | undefined = count > 1 && count <= SMALL_SCOPE ? [] : undefined;
    const seenSet: Set<string> | undefined = count > SMALL_SCOPE ? new Set() : undefined;
    for (const key of keys) {
      const folded = foldKey(key);
      if (folded === BAD_KEY_LENGTH) return err(invokeInvalidError('keyLength', { scope: name, key }));
      if (folded === BAD_KEY_CHARACTER) return err(invokeInvalidError('keyCharacter', { scope: name, key }));
      if (seenList !== undefined) {
        if (seenList.includes(folded)) return err(invokeInvalidError('keyRepeated', { scope: name, key }));
        seenList.push(folded);
      } else if (seenSet !== undefined) {
        if (seenSet.has(folded)) return err(invokeInvalidError('keyRepeated', { scope: name, key }));
        seenSet.add(folded);
      }
      const word = forbidden.get(folded);
      if (word !== undefined) return err(invokeInvalidError(word, { scope: name, key }));
      const value = members[key];
      if (typeof value !== 'string') return err(invokeInvalidError('valueMalformed', { scope: name, key }));
      if (value.length > INVOKE_LIMITS.valueMaxLength) return err(invokeInvalidError('valueTooLong', { scope: name, key }));
      const colons = valueCharactersChecked ? (value.indexOf(':') === -1 ? 0 : countColons(value)) : valueColons(value);
      if (colons === BAD_VALUE_CHARACTER) {
        const rule = valueCharacterProblem(value) === 'outside-bmp' ? 'valueOutsideBmp' : 'valueCharacter';
        return err(invokeInvalidError(rule, { scope: name, key }));
      }
      if (tally !== undefined) tally.colons += colons;
    }
    if (tally !== undefined) tally.members += count;
    // The parsed scope object is the decoded one: keys as written, values strings (no copy).
    found[index] = members as InvokeVariableScope;
  }
  if (tally !== undefined) {
    tally.members += scopeNames.length;
    if (tally.deepest < 3) tally.deepest = 3;
  }
  // Named stores, in the order of INVOKE_SCOPES (request, session, user, userservice, userservicecoll).
  const decoded: InvokeVariables = {};
  if (found[0] !== undefined) decoded.request = found[0];
  if (found[1] !== undefined) decoded.session = found[1];
  if (found[2] !== undefined) decoded.user = found[2];
  if (found[3] !== undefined) decoded.userservice = found[3];
  if (found[4] !== undefined) decoded.userservicecoll = found[4];
  return ok({ endUser: decodedEndUser, variables: decoded });
}

/**
 * Validates an Invoke Service request body already parsed as JSON (for example by a framework's
 * body parser) against every 12002 rule, and returns the decoded value. The input is read as the
 * wire shape: `endUser.phoneNumber` must be a number (or a bigint, from parsers that keep large
 * integers); a number beyond `Number.MAX_SAFE_INTEGER` has lost its digits and is refused, so
 * prefer `decodeInvokeServiceRequest` on the raw body. Repeated members cannot be seen in a parsed
 * value. Scope objects of the input are reused in the result, not copied. A `reservedWords` or
 * `builtInVariables` option that is not an array of strings is a `TypeError`.
 */
export function validateInvokeServiceRequest(
  value: unknown,
  options: InvokeValidationOptions = {},
): Result<InvokeServiceRequest, InvokeRequestError> {
  const forbidden = forbiddenKeys(options);
  if (!isJsonObject(value)) return err(invokeInvalidError('notAnObject'));
  return walkInvokeRequest(value, undefined, forbidden);
}

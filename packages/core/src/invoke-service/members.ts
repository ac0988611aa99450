/**
 * The one table of the Invoke Service request's members: its variable scopes and its limits, from
 * the spec's resource table and its Limits section. The schemas, the validator, the encoder and
 * the docs read every scope name and bound from here.
 */

/**
 * Variable scopes, in their canonical (lower-case) spelling: `request` and `session` are session
 * scopes; `user`, `userservice` and `userservicecoll` are user scopes. On the wire scope names are
 * not case-sensitive.
 */
export const INVOKE_SCOPES = ['request', 'session', 'user', 'userservice', 'userservicecoll'] as const;

/** A variable scope, in its canonical spelling. */
export type InvokeScope = (typeof INVOKE_SCOPES)[number];

/**
 * Bounds of the Invoke Service request. Lengths of keys and values are counted in UTF-16 code
 * units, which equal characters for every accepted key and value (both are limited to the Basic
 * Multilingual Plane).
 */
export const INVOKE_LIMITS = {
  /** `endUser.phoneNumber`: an integer of 6 to 16 digits. */
  phoneNumberMinDigits: 6,
  /** `endUser.phoneNumber`: an integer of 6 to 16 digits. */
  phoneNumberMaxDigits: 16,
  /** Variable key: 1 to 255 characters. */
  keyMinLength: 1,
  /** Variable key: 1 to 255 characters. */
  keyMaxLength: 255,
  /** Variable value: at most 4096 characters. */
  valueMaxLength: 4096,
} as const;

/** Pattern of a variable key: 1 to 255 of A-Z, a-z, `_`, `-`, `.` (see {@link isKeyCharacter}). */
export const KEY_PATTERN = `^[A-Za-z_.\\-]{${INVOKE_LIMITS.keyMinLength},${INVOKE_LIMITS.keyMaxLength}}$`;

/**
 * Pattern of the characters of a variable value: no surrogate code unit (so nothing outside the
 * Basic Multilingual Plane and no lone surrogate) and no C0 control other than tab, line feed and
 * carriage return (see {@link valueCharacterProblem}). Written with `\u` escapes, read per UTF-16
 * code unit (no `u` flag).
 */
export const VALUE_PATTERN = '^[\\t\\n\\r\\u0020-\\uD7FF\\uE000-\\uFFFF]*$';

const SCOPE_INDEX: ReadonlyMap<string, number> = new Map(INVOKE_SCOPES.map((scope, index) => [scope, index]));

/**
 * The position in {@link INVOKE_SCOPES} of a scope name written in any case, or `-1` for a name that
 * is no scope (see {@link canonicalScope}).
 */
export function scopeIndex(name: string): number {
  const exact = SCOPE_INDEX.get(name);
  if (exact !== undefined) return exact;
  const scope = canonicalScope(name);
  return scope === undefined ? -1 : INVOKE_SCOPES.indexOf(scope);
}

const SCOPE_MIN_LENGTH = Math.min(...INVOKE_SCOPES.map((scope) => scope.length));
const SCOPE_MAX_LENGTH = Math.max(...INVOKE_SCOPES.map((scope) => scope.length));

/**
 * The canonical spelling of a scope name written in any case (`"Session"` → `"session"`), or
 * `undefined` for a name that is no scope. Only ASCII letters fold: a name with U+017F (long s) or
 * U+0130 (dotted capital I), which some case mappings turn into ASCII letters, never matches.
 */
export function canonicalScope(name: string): InvokeScope | undefined {
  if (name.length < SCOPE_MIN_LENGTH || name.length > SCOPE_MAX_LENGTH) return undefined;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0x7f) return undefined;
  const lower = name.toLowerCase();
  for (const scope of INVOKE_SCOPES) if (scope === lower) return scope;
  return undefined;
}

/**
 * `true` for a character a variable key may hold: `A`-`Z`, `a`-`z` (keys are not case-sensitive, so
 * lower-case letters are the same letters), `_`, `-` and `.`. Digits are not in the spec's list.
 */
export function isKeyCharacter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e;
}

/** Why a variable value is refused, or `undefined` when every character is allowed. */
export type ValueCharacterProblem = 'outside-bmp' | 'disallowed';

/**
 * Checks the characters of a variable value, reporting the first offending one: a surrogate pair
 * (a character outside the Basic Multilingual Plane) is `outside-bmp`; a lone surrogate, or a C0
 * control other than tab, line feed and carriage return, is `disallowed`.
 */
export function valueCharacterProblem(value: string): ValueCharacterProblem | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) return 'disallowed';
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < value.length) {
        const d = value.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) return 'outside-bmp';
      }
      return 'disallowed';
    }
  }
  return undefined;
}

/**
 * Finds the source text of the numbers of the root `endUser` object in a JSON text, so the exact
 * digits of a phone number beyond `Number.MAX_SAFE_INTEGER` survive and a number written with a sign,
 * a fraction or an exponent is told apart from an integer (`JSON.parse` reads `1e6`, `1000000.0`
 * and `1000000` alike).
 */

/** Source text of the number members of the root `endUser` object (absent when not a number). */
export interface EndUserLiterals {
  phoneNumber?: string;
  mobileOperatorId?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Index of the quote closing the string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let close = open + 1;
  for (;;) {
    close = text.indexOf('"', close);
    if (close === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if ((backslashes & 1) === 0) return close;
    close++;
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** `true` for the characters of a JSON number: digits, `-`, `+`, `.`, `e`, `E`. */
function isNumberCharacter(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/** The member name of the string between `open` and `close` (escapes decoded when there are any). */
function memberName(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
}

/** The number after the member name token at `at` (`undefined` when the value is no number). */
function numberAfter(text: string, at: number): string | undefined {
  const valueAt = skipWhitespace(text, skipWhitespace(text, at) + 1);
  const end = numberEnd(text, valueAt);
  return end > valueAt ? text.slice(valueAt, end) : undefined;
}

/** Marks a member name token found more than once. */
const AMBIGUOUS = 1;

/** The number of the only occurrence of a member name token, `undefined`, or {@link AMBIGUOUS}. */
function soleMemberNumber(text: string, token: string): string | undefined | typeof AMBIGUOUS {
  const first = text.indexOf(token);
  if (first === -1) return undefined;
  if (text.indexOf(token, first + 1) !== -1) return AMBIGUOUS;
  return numberAfter(text, first + token.length);
}

/**
 * Source text of `endUser.phoneNumber` and `endUser.mobileOperatorId` when they are numbers. `text`
 * must be a JSON text `JSON.parse` accepted whose root is an object with no repeated member, and
 * the result is only meaningful for a member the parsed `endUser` holds. `phone` and `operator` are
 * the parsed values of those members (the common compact form is then confirmed with one comparison);
 * `hasBackslash` may be passed when the caller already knows it.
 *
 * In order: the compact form at the start of the text, confirmed against the parsed values; then,
 * in a text without a backslash (where no string holds a quote, so every occurrence of
 * `"phoneNumber"` is a whole string token), the only occurrence of each member name, which is then
 * the `endUser` member; otherwise one scan of the structure, which stops where the root `endUser`
 * object ends.
 */
export function endUserNumberLiterals(
  text: string,
  phone: unknown,
  operator: unknown,
  hasBackslash = text.indexOf('\\') !== -1,
): EndUserLiterals {
  const leading = canonicalLeadingLiterals(text, phone, operator);
  if (leading !== undefined) return leading;
  if (!hasBackslash) {
    const phoneNumber = soleMemberNumber(text, '"phoneNumber"');
    const mobileOperatorId = phoneNumber === AMBIGUOUS ? AMBIGUOUS : soleMemberNumber(text, '"mobileOperatorId"');
    if (phoneNumber !== AMBIGUOUS && mobileOperatorId !== AMBIGUOUS) {
      const found: EndUserLiterals = {};
      if (phoneNumber !== undefined) found.phoneNumber = phoneNumber;
      if (mobileOperatorId !== undefined) found.mobileOperatorId = mobileOperatorId;
      return found;
    }
  }
  return scanEndUser(text);
}

const LEADING_PHONE = '{"endUser":{"phoneNumber":';
const FOLLOWING_OPERATOR = ',"mobileOperatorId":';

/**
 * `text.startsWith(part, at)`. The native search answers at once when `part` is there (the common
 * case) and is cheaper than `startsWith`, whose argument checks cost more than the comparison here;
 * when `part` is not there it searches on, so it serves only a bounded number of times per body.
 */
function isAt(text: string, part: string, at: number): boolean {
  return text.indexOf(part, at) === at;
}

/** The end of the number starting at `start` (`start` itself when there is none). */
function numberEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
  return end;
}

/** Tokens before the phone number when the body starts with it, and before the operator after it. */
const PHONE_TOKENS = ['{', '"endUser"', ':', '{', '"phoneNumber"', ':'] as const;
const OPERATOR_TOKENS = [',', '"mobileOperatorId"', ':'] as const;

/** The position after `tokens` found in order from `from`, whitespace allowed around each; -1 if they are not there. */
function afterTokens(text: string, from: number, tokens: readonly string[]): number {
  let at = from;
  for (const token of tokens) {
    at = skipWhitespace(text, at);
    if (token.length === 1 ? text.charCodeAt(at) !== token.charCodeAt(0) : !isAt(text, token, at)) return -1;
    at += token.length;
  }
  return skipWhitespace(text, at);
}

/**
 * The literals of the form nearly every client writes, with `endUser` first and `phoneNumber` first
 * in it, then `mobileOperatorId` or nothing else of interest: `{"endUser":{"phoneNumber":N` then `}`,
 * `,` or `,"mobileOperatorId":M` (whitespace allowed between tokens), when the text shows there
 * exactly the numbers `JSON.parse` returned, written the way JavaScript writes them; `undefined` for
 * any other text. The tokens matched are the first member of the root and of its `endUser`, so they
 * are those members (were `endUser` repeated, the body is refused as such anyway).
 */
function canonicalLeadingLiterals(text: string, phone: unknown, operator: unknown): EndUserLiterals | undefined {
  if (typeof phone !== 'number') return undefined;
  let at = isAt(text, LEADING_PHONE, 0) ? LEADING_PHONE.length : afterTokens(text, 0, PHONE_TOKENS);
  const phoneNumber = String(phone);
  if (at === -1 || !isAt(text, phoneNumber, at)) return undefined;
  at += phoneNumber.length;
  if (isNumberCharacter(text.charCodeAt(at))) return undefined;
  if (operator === undefined) return { phoneNumber };
  if (typeof operator !== 'number') return undefined;
  at = isAt(text, FOLLOWING_OPERATOR, at) ? at + FOLLOWING_OPERATOR.length : afterTokens(text, at, OPERATOR_TOKENS);
  const mobileOperatorId = String(operator);
  if (at === -1 || !isAt(text, mobileOperatorId, at)) return undefined;
  return isNumberCharacter(text.charCodeAt(at + mobileOperatorId.length)) ? undefined : { phoneNumber, mobileOperatorId };
}

/** Returns `true` when the string token between `open` and `close` is the member name `name`. */
function isName(text: string, open: number, close: number, name: string): boolean {
  const length = close - open - 1;
  if (length === name.length) return text.startsWith(name, open + 1);
  // An escape is longer than the character it stands for: only a longer token may decode to `name`.
  return length > name.length && memberName(text, open, close) === name;
}

/** The general scan of {@link endUserNumberLiterals}. */
function scanEndUser(text: string): EndUserLiterals {
  const found: EndUserLiterals = {};
  const n = text.length;
  let depth = 0;
  let inEndUser = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i);
      const after = skipWhitespace(text, close + 1);
      if (text.charCodeAt(after) !== COLON) {
        i = close + 1;
        continue;
      }
      const valueAt = skipWhitespace(text, after + 1);
      if (depth === 1 && !inEndUser) {
        if (isName(text, i, close, 'endUser')) {
          if (text.charCodeAt(valueAt) !== OPEN_BRACE) return found;
          inEndUser = true;
          depth = 2;
          i = valueAt + 1;
          continue;
        }
      } else if (depth === 2 && inEndUser) {
        const name = isName(text, i, close, 'phoneNumber') ? 'phoneNumber' : isName(text, i, close, 'mobileOperatorId') ? 'mobileOperatorId' : undefined;
        if (name !== undefined) {
          const literal = numberAfter(text, close + 1);
          if (literal !== undefined) found[name] = literal;
        }
      }
      i = valueAt;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (inEndUser && depth < 2) return found;
    }
    i++;
  }
  return found;
}

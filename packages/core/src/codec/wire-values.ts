/**
 * Coercions of scalar wire values. XML carries every scalar as an attribute string and the public
 * docs show Booleans both as JSON Booleans and as the strings "true"/"false", so decoders accept both
 * forms and normalise; anything else is invalid (`undefined`).
 */

/** `true`/`false` or `"true"`/`"false"` → a Boolean; anything else → `undefined`. */
export function wireBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/**
 * A non-negative integer written as a JSON number or as a string of ASCII digits → the number;
 * anything else (signs, decimals, exponents, spaces, empty) → `undefined`.
 */
export function wireDigits(value: unknown, maxDigits = 15): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > maxDigits) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(value);
}

/** A string of ASCII digits only (`true` for `"0123"`, `false` for `""`, `"+1"`, `"1 2"`). */
export function isDigits(value: string): boolean {
  if (value.length === 0) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

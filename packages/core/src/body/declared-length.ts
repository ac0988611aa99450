/** A `Content-Length` value as headers hand it over: text, a number, or nothing. */
export type ContentLength = string | number | null | undefined;

const DIGITS = /^\s*\d+\s*$/;

/** The length a `Content-Length` declares, or `undefined` when there is none or it is not a length. */
export function declaredLength(value: ContentLength): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !DIGITS.test(value)) return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : undefined;
}

/** Checks a byte limit given by a programmer: a non-negative integer. */
export function checkMaxBytes(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new TypeError(`maxBytes must be a non-negative integer, got ${String(maxBytes)}`);
}

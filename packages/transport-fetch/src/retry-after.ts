/** The longest `Retry-After` taken at its word: one day (a larger value is read as one day). */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delta-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`, relative to `now`). `undefined` when absent or unreadable; a date
 * in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^[0-9]+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

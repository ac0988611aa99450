/**
 * `xs:dateTime` text of an instant, in the forms the service writes: UTC (`Z`) or with an offset
 * (`2015-08-29T15:10:03.029-05:00`, as a published inbound message carries), with 0 to 9 fraction
 * digits.
 */

/** How the timestamps of a built payload are written. */
export interface TimestampForm {
  /**
   * The time zone offset: `'Z'` (default), `'+hh:mm'` / `'-hh:mm'` (at most 14:00 either way), or
   * minutes east of UTC (`-300` is `-05:00`).
   */
  readonly offset?: string | number;
  /** Digits of the fraction of a second, 0 to 9 (default 3, as the service writes). */
  readonly fractionDigits?: number;
}

/** Anything that names an instant: a `Date`, epoch milliseconds, or text `Date` can parse. */
export type InstantInput = Date | number | string;

const MAX_OFFSET_MINUTES = 14 * 60;

/** Epoch milliseconds of an instant; `TypeError` for a value that names none. */
export function instantOf(value: InstantInput, name = 'instant'): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError(`${name} must be a Date, epoch milliseconds or a date-time text, got ${String(value)}`);
  return ms;
}

/** Minutes east of UTC of an offset option; `TypeError` for an offset `xs:dateTime` cannot write. */
export function offsetMinutes(offset: string | number = 'Z'): number {
  if (typeof offset === 'number') {
    if (!Number.isInteger(offset) || Math.abs(offset) > MAX_OFFSET_MINUTES) throw new TypeError(`offset must be whole minutes within ±${MAX_OFFSET_MINUTES}, got ${offset}`);
    return offset;
  }
  if (offset === 'Z') return 0;
  const match = typeof offset === 'string' ? /^([+-])([01][0-9]):([0-5][0-9])$/.exec(offset) : null;
  if (match === null) throw new TypeError(`offset must be 'Z', '+hh:mm' or '-hh:mm', got ${JSON.stringify(offset)}`);
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  if (minutes > MAX_OFFSET_MINUTES) throw new TypeError(`offset must be within ±14:00, got ${offset}`);
  return match[1] === '-' ? -minutes : minutes;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The `xs:dateTime` text of an instant in a form: `formatDateTime(0, { offset: '-05:00' })` is
 * `1969-12-31T19:00:00.000-05:00`. Offset 0 is written `Z`. Digits beyond milliseconds are zeros.
 */
export function formatDateTime(instant: InstantInput, { offset = 'Z', fractionDigits = 3 }: TimestampForm = {}): string {
  const ms = instantOf(instant);
  const minutes = offsetMinutes(offset);
  if (!Number.isInteger(fractionDigits) || fractionDigits < 0 || fractionDigits > 9) throw new TypeError(`fractionDigits must be 0 to 9, got ${fractionDigits}`);
  const local = new Date(ms + minutes * 60_000);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) throw new TypeError(`the instant ${ms} is outside the years 0000 to 9999`);
  const millis = pad(local.getUTCMilliseconds(), 3);
  const fraction = fractionDigits === 0 ? '' : `.${(millis + '000000').slice(0, fractionDigits)}`;
  const zone = minutes === 0 ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
  return `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${zone}`;
}

/** UTC with milliseconds, as core's encoders take timestamps. */
export const utcText = (instant: InstantInput, name?: string): string => new Date(instantOf(instant, name)).toISOString();

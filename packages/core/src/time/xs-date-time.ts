/**
 * The one reader (and writer) of the timestamps the service sends: `deliveryDate` and
 * `submittedDate`, typed `xs:dateTime` in its schemas. The spec's prose says "UTC with
 * milliseconds", but the service also writes offsets (`2015-08-29T15:10:03.029-05:00`), so every
 * decoder of what the service sends reads them with {@link parseTimestamp}: any `xs:dateTime`
 * with a time zone, kept as received, with its instant in UTC.
 *
 * The grammar is XML Schema's, which differs from the ISO 8601 / RFC 3339 parsers of date
 * libraries (no lower-case `t`/`z`, no space separator, no basic format, no hour-only offsets, but
 * `24:00:00` for the end of a day, and white space around the value collapsed), so the lexical
 * form is checked here and the calendar arithmetic left to `Date`.
 */
import { err, ok, type Result } from '../result.js';

/**
 * The lexical shape of a timestamp the decoders take, as a regular expression (for JSON Schema and
 * TypeBox): an `xs:dateTime` with a time zone and a four-digit year, white space around it
 * allowed. The reader checks what a pattern cannot: the day against its month and year, year
 * `0000`, and an instant in UTC outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.
 */
export const XS_DATE_TIME_PATTERN =
  '^[\\t\\n\\r ]*[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T' +
  '(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?|24:00:00(?:\\.0+)?)' +
  '(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))[\\t\\n\\r ]*$';

/** Why a text is not a timestamp the decoders take. */
export type TimestampErrorKind = 'syntax' | 'time-zone' | 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'offset' | 'instant';

/** A text refused by {@link parseTimestamp}, with the reason in words. */
export interface TimestampError {
  readonly kind: TimestampErrorKind;
  /** What is wrong, e.g. `day 30 does not exist in February 2015`. */
  readonly message: string;
}

/** A timestamp as the service sent it, and the instant it denotes. */
export interface Timestamp {
  /** The text exactly as received. */
  readonly text: string;
  /** The instant in UTC with milliseconds (`2015-08-29T20:10:03.029Z`); further fraction digits are cut. */
  readonly instant: string;
  /** The instant in milliseconds since 1970-01-01T00:00:00Z. */
  readonly epochMs: number;
  /** The offset the text was written in, in minutes east of UTC (`-300` for `-05:00`; `0` for `Z`). */
  readonly offsetMinutes: number;
}

const LEXICAL =
  /^[\t\n\r ]*(-?[0-9]{4,})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})?[\t\n\r ]*$/;
const OFFSET = /^(?:Z|([+-])([0-9]{2}):([0-9]{2}))$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const MAX_OFFSET_MINUTES = 14 * 60;
/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants a timestamp may denote. */
const FIRST_INSTANT_MS = -62_135_596_800_000;
const LAST_INSTANT_MS = 253_402_300_799_999;
const INSTANT_RANGE = 'the instant in UTC falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z';

const fail = (kind: TimestampErrorKind, message: string): Result<never, TimestampError> => err({ kind, message });

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month (1 to 12) of a year. */
function daysIn(month: number, year: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `+hh:mm` / `-hh:mm` / `Z` → minutes east of UTC, or the reason it is refused. */
function offsetOf(zone: string): Result<number, TimestampError> {
  const match = OFFSET.exec(zone);
  if (match === null) return fail('syntax', 'expected a time zone Z or ±hh:mm');
  if (match[1] === undefined) return ok(0);
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (minutes > 59) return fail('offset', `offset ${zone} has more than 59 minutes`);
  const total = hours * 60 + minutes;
  if (total > MAX_OFFSET_MINUTES) return fail('offset', `offset ${zone} is beyond ±14:00`);
  return ok(match[1] === '-' && total !== 0 ? -total : total);
}

/** The fields of a timestamp the reader took (not yet an instant). */
interface Fields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly ms: number;
  readonly offsetMinutes: number;
}

/** The value of the ASCII digits of `text` from `start` to `end`; -1 when one is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

/**
 * The fields of the forms the service writes (`YYYY-MM-DDThh:mm:ss[.s…](Z|±hh:mm)`, no white
 * space), read without a regular expression and checked; `undefined` for anything else, also
 * anything out of range, which {@link readFields} then reads and words. It takes a subset of what
 * `readFields` takes, with the same fields.
 */
function readCommonFields(text: string): Fields | undefined {
  const n = text.length;
  if (n < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i === start) return undefined;
    const end = Math.min(i, start + 3);
    ms = digitsAt(text, start, end) * (end - start === 1 ? 100 : end - start === 2 ? 10 : 1);
  }
  if (i === n - 1 && text.charCodeAt(i) === 90) return { year, month, day, hour, minute, second, ms, offsetMinutes: 0 };
  const sign = text.charCodeAt(i);
  if (n - i !== 6 || (sign !== 43 && sign !== 45) || text.charCodeAt(i + 3) !== 58) return undefined;
  const oh = digitsAt(text, i + 1, i + 3);
  const om = digitsAt(text, i + 4, i + 6);
  if (oh < 0 || om < 0 || om > 59 || oh * 60 + om > MAX_OFFSET_MINUTES) return undefined;
  const offset = oh * 60 + om;
  return { year, month, day, hour, minute, second, ms, offsetMinutes: sign === 45 && offset !== 0 ? -offset : offset };
}

/** The text read last and what it gave: a decoder checks a timestamp, then its caller asks for the instant of the same text. */
let lastText: string | undefined;
let lastFields: Result<Fields, TimestampError> | undefined;

function readFields(text: string): Result<Fields, TimestampError> {
  if (text === lastText && lastFields !== undefined) return lastFields;
  const fields = readFieldsOnce(text);
  if (typeof text === 'string') {
    lastText = text;
    lastFields = fields;
  }
  return fields;
}

/**
 * `true` when the fields denote an instant in UTC within years 0001 to 9999. Only a local time in
 * the first or last day of that range can be outside it (an offset or `24:00:00` moves it over).
 */
function inRange(f: Fields): boolean {
  if (f.year !== 1 && f.year !== 9999) return true;
  const epochMs = epochOf(f);
  return epochMs >= FIRST_INSTANT_MS && epochMs <= LAST_INSTANT_MS;
}

/** Reads and checks the lexical form, the calendar and the range of the instant. */
function readFieldsOnce(text: string): Result<Fields, TimestampError> {
  if (typeof text !== 'string') return fail('syntax', 'expected a string');
  const common = readCommonFields(text);
  if (common !== undefined) return inRange(common) ? ok(common) : fail('instant', INSTANT_RANGE);
  const match = LEXICAL.exec(text);
  if (match === null) return fail('syntax', 'expected YYYY-MM-DDThh:mm:ss, an optional fraction of a second and a time zone (Z or ±hh:mm)');
  const [, y = '', mo = '', d = '', h = '', mi = '', s = '', fraction = '', zone] = match;
  if (zone === undefined) return fail('time-zone', 'no time zone (Z or ±hh:mm)');
  const year = Number(y);
  if (y.length !== 4 || year === 0) return fail('year', `year ${y} is outside 0001 to 9999`);
  const month = Number(mo);
  if (month < 1 || month > 12) return fail('month', `month ${mo} does not exist`);
  const day = Number(d);
  if (day < 1 || day > daysIn(month, year)) return fail('day', `day ${d} does not exist in ${MONTHS[month - 1] as string} ${y}`);
  const hour = Number(h);
  if (hour > 24) return fail('hour', `hour ${h} does not exist`);
  const minute = Number(mi);
  if (minute > 59) return fail('minute', `minute ${mi} does not exist`);
  const second = Number(s);
  if (second > 59) return fail('second', `second ${s} does not exist`);
  if (hour === 24 && (minute !== 0 || second !== 0 || /[1-9]/.test(fraction))) return fail('hour', 'hour 24 is allowed only as 24:00:00');
  const offset = offsetOf(zone);
  if (!offset.ok) return offset;
  const ms = fraction === '' ? 0 : Number(fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0'));
  const fields: Fields = { year, month, day, hour, minute, second, ms, offsetMinutes: offset.value };
  return inRange(fields) ? ok(fields) : fail('instant', INSTANT_RANGE);
}

/** The instant of checked fields, in milliseconds since the epoch. */
function epochOf(f: Fields): number {
  // Date.UTC reads years 0 to 99 as 1900 to 1999: those few go through setUTCFullYear.
  let local: number;
  if (f.year >= 100) local = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms);
  else {
    const date = new Date(0);
    date.setUTCFullYear(f.year, f.month - 1, f.day);
    date.setUTCHours(f.hour, f.minute, f.second, f.ms);
    local = date.getTime();
  }
  return local - f.offsetMinutes * 60_000;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `Date.prototype.toISOString` of an instant, written from the day count (civil-from-days, as in
 * H. Hinnant's date algorithms): several times faster than making a `Date`, on the hot path of
 * every receiver. Years outside 0000 to 9999 (which the reader refuses) are left to `toISOString`.
 */
function isoOf(epochMs: number): string {
  const days = Math.floor(epochMs / 86_400_000);
  const inDay = epochMs - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(epochMs).toISOString();
  const ms = inDay % 1000;
  const seconds = (inDay - ms) / 1000;
  return (
    `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}` +
    `.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}Z`
  );
}

/**
 * Reads an `xs:dateTime` with a time zone (`Z` or `±hh:mm`, up to ±14:00), any number of fraction
 * digits, `24:00:00` as the first instant of the next day, white space around it allowed. Years
 * are 0001 to 9999 (the schema type also allows negative and longer years, which no message
 * carries), and so is the instant in UTC (`9999-12-31T23:00:00-01:00` is refused: it is in year
 * 10000 in UTC). Never throws; a refused text gets the reason in words.
 *
 * @example
 * parseTimestamp('2015-08-29T15:10:03.029-05:00');
 * // { ok: true, value: { text: '2015-08-29T15:10:03.029-05:00', instant: '2015-08-29T20:10:03.029Z', epochMs: 1440879003029, offsetMinutes: -300 } }
 * parseTimestamp('2015-02-30T10:00:00Z');
 * // { ok: false, error: { kind: 'day', message: 'day 30 does not exist in February 2015' } }
 */
export function parseTimestamp(text: string): Result<Timestamp, TimestampError> {
  const fields = readFields(text);
  if (!fields.ok) return fields;
  const epochMs = epochOf(fields.value);
  // The spec's own form is its instant already.
  const instant = text.length === 24 && text.charCodeAt(23) === 90 && text.charCodeAt(19) === 46 && fields.value.hour !== 24 ? text : isoOf(epochMs);
  return ok({ text, instant, epochMs, offsetMinutes: fields.value.offsetMinutes });
}

/** Why {@link parseTimestamp} would refuse a text, or `undefined` when it takes it (no instant is computed). */
export function timestampProblem(text: string): TimestampError | undefined {
  const fields = readFields(text);
  return fields.ok ? undefined : fields.error;
}

/** `true` when {@link parseTimestamp} takes the text. */
export function isTimestamp(text: string): boolean {
  return readFields(text).ok;
}

function parsed(text: string, caller: string): Timestamp {
  const result = parseTimestamp(text);
  if (!result.ok) throw new TypeError(`${caller}: ${JSON.stringify(String(text).slice(0, 64))} is not an xs:dateTime with a time zone (${result.error.message})`);
  return result.value;
}

/**
 * The UTC instant, with milliseconds, of a timestamp as received (a decoded `deliveryDate` or
 * `submittedDate`): what to store, compare and show. Throws `TypeError` for a text
 * {@link parseTimestamp} refuses (decoded values never hold one).
 *
 * @example
 * timestampInstant('2015-08-29T15:10:03.029-05:00'); // '2015-08-29T20:10:03.029Z'
 * timestampInstant('2024-03-14T09:26:53Z');          // '2024-03-14T09:26:53.000Z'
 */
export function timestampInstant(text: string): string {
  return parsed(text, 'timestampInstant').instant;
}

/**
 * Orders two timestamps by the instants they denote (negative when `a` is earlier, 0 for the same
 * instant however written, positive when later), to the last fraction digit. Throws `TypeError`
 * for a text {@link parseTimestamp} refuses.
 *
 * @example
 * ['2024-03-14T10:00:00+02:00', '2024-03-14T09:00:00Z'].sort(compareTimestamps);
 * // ['2024-03-14T10:00:00+02:00', '2024-03-14T09:00:00Z'] (08:00 UTC before 09:00 UTC)
 */
export function compareTimestamps(a: string, b: string): number {
  const x = parsed(a, 'compareTimestamps');
  const y = parsed(b, 'compareTimestamps');
  if (x.epochMs !== y.epochMs) return x.epochMs < y.epochMs ? -1 : 1;
  // Offsets are whole minutes, so the digits after the milliseconds are the same in UTC.
  const rest = (t: Timestamp): string => (LEXICAL.exec(t.text)?.[7] ?? '').slice(3).replace(/0+$/, '');
  const rx = rest(x);
  const ry = rest(y);
  return rx === ry ? 0 : rx.padEnd(ry.length, '0') < ry.padEnd(rx.length, '0') ? -1 : 1;
}

/**
 * Reads a UTC offset as a user writes it for a writer: `Z` or `±hh:mm`, up to ±14:00 → minutes
 * east of UTC (`'-05:00'` → `-300`).
 *
 * @example
 * parseUtcOffset('+05:30'); // { ok: true, value: 330 }
 * parseUtcOffset('+15:00'); // { ok: false, error: { kind: 'offset', message: 'offset +15:00 is beyond ±14:00' } }
 */
export function parseUtcOffset(text: string): Result<number, TimestampError> {
  if (typeof text !== 'string') return fail('syntax', 'expected a time zone Z or ±hh:mm');
  return offsetOf(text);
}

/**
 * Writes an instant as an `xs:dateTime` with milliseconds: in UTC (`…Z`) by default, or in the
 * local time of an offset (`'-05:00'`, or minutes east of UTC; `0` writes `Z`, a string is written
 * as given, so `'+00:00'` stays `+00:00`). Throws `TypeError` for an instant that is not a finite
 * number, an offset {@link parseUtcOffset} refuses, a local year outside 0001 to 9999, or an instant
 * outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (what it writes, the reader takes).
 *
 * @example
 * formatTimestamp(1440879003029);            // '2015-08-29T20:10:03.029Z'
 * formatTimestamp(1440879003029, '-05:00');  // '2015-08-29T15:10:03.029-05:00'
 * formatTimestamp(1440879003029, 330);       // '2015-08-30T01:40:03.029+05:30'
 */
export function formatTimestamp(epochMs: number, offset: string | number = 0): string {
  if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) throw new TypeError(`formatTimestamp: epochMs must be a finite number, got ${String(epochMs)}`);
  let minutes: number;
  let zone: string;
  if (typeof offset === 'number') {
    if (!Number.isInteger(offset) || Math.abs(offset) > MAX_OFFSET_MINUTES) {
      throw new TypeError(`formatTimestamp: offset must be a whole number of minutes from -840 to 840, got ${String(offset)}`);
    }
    minutes = offset;
    const abs = Math.abs(offset);
    zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  } else {
    const read = parseUtcOffset(offset);
    if (!read.ok) throw new TypeError(`formatTimestamp: ${read.error.message}`);
    minutes = read.value;
    zone = offset;
  }
  const local = new Date(Math.floor(epochMs) + minutes * 60_000);
  const year = local.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) throw new TypeError(`formatTimestamp: the local year of ${String(epochMs)} is outside 0001 to 9999`);
  if (epochMs < FIRST_INSTANT_MS || Math.floor(epochMs) > LAST_INSTANT_MS) throw new TypeError(`formatTimestamp: ${INSTANT_RANGE}`);
  return `${local.toISOString().slice(0, -1)}${zone}`;
}

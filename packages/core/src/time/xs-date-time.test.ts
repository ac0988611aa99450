import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_INSTANT_MS, LAST_INSTANT_MS, instantAtOffsetArb, timestampFormArb } from '../../test/timestamp-forms.js';
import {
  XS_DATE_TIME_PATTERN,
  compareTimestamps,
  formatTimestamp,
  isTimestamp,
  parseTimestamp,
  parseUtcOffset,
  timestampInstant,
  type TimestampErrorKind,
} from './xs-date-time.js';
import { runs } from '../../test/property-runs.js';

const SYNTAX = 'expected YYYY-MM-DDThh:mm:ss, an optional fraction of a second and a time zone (Z or ±hh:mm)';
const INSTANT_RANGE = 'the instant in UTC falls outside 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z';
const pattern = new RegExp(XS_DATE_TIME_PATTERN);

describe('parseTimestamp accepts every xs:dateTime with a time zone', () => {
  it.each([
    ['2015-08-29T15:10:03.029-05:00', '2015-08-29T20:10:03.029Z', -300],
    ['2024-03-14T09:26:53.000Z', '2024-03-14T09:26:53.000Z', 0],
    ['2024-03-14T09:26:53Z', '2024-03-14T09:26:53.000Z', 0],
    ['2024-03-14T09:26:53.1Z', '2024-03-14T09:26:53.100Z', 0],
    ['2024-03-14T09:26:53.12Z', '2024-03-14T09:26:53.120Z', 0],
    ['2024-03-14T09:26:53.123456789Z', '2024-03-14T09:26:53.123Z', 0],
    ['2024-03-14T09:26:53.9999999999999Z', '2024-03-14T09:26:53.999Z', 0],
    ['2024-03-14T09:26:53+00:00', '2024-03-14T09:26:53.000Z', 0],
    ['2024-03-14T09:26:53-00:00', '2024-03-14T09:26:53.000Z', 0],
    ['2024-03-14T01:00:00+05:30', '2024-03-13T19:30:00.000Z', 330],
    ['2024-03-14T10:00:00+14:00', '2024-03-13T20:00:00.000Z', 840],
    ['2024-03-14T10:00:00-14:00', '2024-03-15T00:00:00.000Z', -840],
    ['2024-12-31T24:00:00Z', '2025-01-01T00:00:00.000Z', 0],
    ['2024-12-31T24:00:00.000Z', '2025-01-01T00:00:00.000Z', 0],
    ['2024-12-31T24:00:00.000000+00:00', '2025-01-01T00:00:00.000Z', 0],
    ['2024-02-28T24:00:00.000-01:00', '2024-02-29T01:00:00.000Z', -60],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z', 0],
    ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z', 0],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', 0],
    ['0001-01-01T01:00:00+01:00', '0001-01-01T00:00:00.000Z', 60],
    ['0001-01-01T14:00:00+14:00', '0001-01-01T00:00:00.000Z', 840],
    ['0001-01-01T00:00:00-14:00', '0001-01-01T14:00:00.000Z', -840],
    ['9999-12-31T09:59:59.999-14:00', '9999-12-31T23:59:59.999Z', -840],
    ['9999-12-31T23:59:59.999+14:00', '9999-12-31T09:59:59.999Z', 840],
    ['9999-12-31T23:59:59.9999999Z', '9999-12-31T23:59:59.999Z', 0],
    ['0099-06-15T00:00:00Z', '0099-06-15T00:00:00.000Z', 0],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z', 0],
    ['  2024-03-14T09:26:53Z\n', '2024-03-14T09:26:53.000Z', 0],
  ])('%s is %s', (text, instant, offsetMinutes) => {
    const read = parseTimestamp(text);
    expect(read).toStrictEqual({ ok: true, value: { text, instant, epochMs: Date.parse(instant), offsetMinutes } });
    expect(pattern.test(text)).toBe(true);
    expect(timestampInstant(text)).toBe(instant);
    expect(isTimestamp(text)).toBe(true);
  });
});

describe('parseTimestamp refuses, with the reason', () => {
  // What a regular expression cannot tell: days a month lacks, and year 0000.
  // What a regular expression cannot tell: days a month lacks, year 0000, and instants in UTC
  // outside 0001 to 9999.
  const PATTERN_LETS_THROUGH = new Set([
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:30:00+01:00',
    '0001-01-01T00:00:00+14:00',
    '0001-01-01T13:59:59.999+14:00',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-14:00',
    '9999-12-31T10:00:00-14:00',
    '9999-12-31T23:59:59.999-00:01',
    '9999-12-31T24:00:00Z',
    '9999-12-31T23:59:59-05:00',
    '2015-02-29T09:26:53Z',
    '1900-02-29T09:26:53Z',
    '2015-02-30T15:10:03.029-05:00',
    '2024-02-30T09:26:53Z',
    '2024-04-31T09:26:53Z',
    '2024-11-31T09:26:53Z',
  ]);

  it.each<[string, TimestampErrorKind, string]>([
    ['', 'syntax', SYNTAX],
    ['yesterday', 'syntax', SYNTAX],
    ['2024-03-14', 'syntax', SYNTAX],
    ['2024-03-14 09:26:53Z', 'syntax', SYNTAX],
    ['2024-03-14t09:26:53Z', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53z', 'syntax', SYNTAX],
    ['2024-03-14T09:26Z', 'syntax', SYNTAX],
    ['2024-03-14T9:26:53Z', 'syntax', SYNTAX],
    ['2024-3-14T09:26:53Z', 'syntax', SYNTAX],
    ['20240314T092653Z', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53.Z', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53,5Z', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53+05', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53+0500', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53+05:00:00', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53Z[Europe/Paris]', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53\u00a0Z', 'syntax', SYNTAX],
    ['２０２４-03-14T09:26:53Z', 'syntax', SYNTAX],
    ['2024-03-14T09:26:53', 'time-zone', 'no time zone (Z or ±hh:mm)'],
    ['2024-03-14T09:26:53.000', 'time-zone', 'no time zone (Z or ±hh:mm)'],
    ['0000-01-01T00:00:00Z', 'year', 'year 0000 is outside 0001 to 9999'],
    ['-0001-01-01T00:00:00Z', 'year', 'year -0001 is outside 0001 to 9999'],
    ['10000-01-01T00:00:00Z', 'year', 'year 10000 is outside 0001 to 9999'],
    ['02024-01-01T00:00:00Z', 'year', 'year 02024 is outside 0001 to 9999'],
    ['2024-00-14T09:26:53Z', 'month', 'month 00 does not exist'],
    ['2024-13-14T09:26:53Z', 'month', 'month 13 does not exist'],
    ['2024-03-00T09:26:53Z', 'day', 'day 00 does not exist in March 2024'],
    ['2024-03-32T09:26:53Z', 'day', 'day 32 does not exist in March 2024'],
    ['2015-02-29T09:26:53Z', 'day', 'day 29 does not exist in February 2015'],
    ['1900-02-29T09:26:53Z', 'day', 'day 29 does not exist in February 1900'],
    ['2015-02-30T15:10:03.029-05:00', 'day', 'day 30 does not exist in February 2015'],
    ['2024-02-30T09:26:53Z', 'day', 'day 30 does not exist in February 2024'],
    ['2024-04-31T09:26:53Z', 'day', 'day 31 does not exist in April 2024'],
    ['2024-11-31T09:26:53Z', 'day', 'day 31 does not exist in November 2024'],
    ['2024-03-14T25:00:00Z', 'hour', 'hour 25 does not exist'],
    ['2024-03-14T24:01:00Z', 'hour', 'hour 24 is allowed only as 24:00:00'],
    ['2024-03-14T24:00:01Z', 'hour', 'hour 24 is allowed only as 24:00:00'],
    ['2024-03-14T24:00:00.001Z', 'hour', 'hour 24 is allowed only as 24:00:00'],
    ['2024-03-14T09:60:00Z', 'minute', 'minute 60 does not exist'],
    ['2024-03-14T24:60:00Z', 'minute', 'minute 60 does not exist'],
    ['2024-03-14T09:26:60Z', 'second', 'second 60 does not exist'],
    ['2016-12-31T23:59:60Z', 'second', 'second 60 does not exist'],
    ['2024-03-14T09:26:53+14:30', 'offset', 'offset +14:30 is beyond ±14:00'],
    ['2024-03-14T09:26:53-15:00', 'offset', 'offset -15:00 is beyond ±14:00'],
    ['2024-03-14T09:26:53+14:01', 'offset', 'offset +14:01 is beyond ±14:00'],
    ['2024-03-14T09:26:53+05:60', 'offset', 'offset +05:60 has more than 59 minutes'],
    ['0001-01-01T00:30:00+01:00', 'instant', INSTANT_RANGE],
    ['0001-01-01T00:00:00+14:00', 'instant', INSTANT_RANGE],
    ['0001-01-01T13:59:59.999+14:00', 'instant', INSTANT_RANGE],
    ['0001-01-01T00:00:00+00:01', 'instant', INSTANT_RANGE],
    ['9999-12-31T23:59:59-14:00', 'instant', INSTANT_RANGE],
    ['9999-12-31T10:00:00-14:00', 'instant', INSTANT_RANGE],
    ['9999-12-31T23:59:59.999-00:01', 'instant', INSTANT_RANGE],
    ['9999-12-31T24:00:00Z', 'instant', INSTANT_RANGE],
    ['9999-12-31T23:59:59-05:00', 'instant', INSTANT_RANGE],
  ])('%j: %s', (text, kind, message) => {
    expect(parseTimestamp(text)).toStrictEqual({ ok: false, error: { kind, message } });
    expect(isTimestamp(text)).toBe(false);
    expect(pattern.test(text)).toBe(PATTERN_LETS_THROUGH.has(text));
  });

  it('refuses a value that is not a string', () => {
    for (const value of [undefined, null, 1440879003029, new Date(0), ['2024-03-14T09:26:53Z']]) {
      expect(parseTimestamp(value as unknown as string)).toStrictEqual({ ok: false, error: { kind: 'syntax', message: 'expected a string' } });
    }
  });
});

describe('parseTimestamp properties', () => {
  it('reads any lexical form of any instant as that instant, in UTC with milliseconds', () => {
    fc.assert(
      fc.property(timestampFormArb, (form) => {
        const read = parseTimestamp(form.text);
        expect(read).toStrictEqual({ ok: true, value: { text: form.text, instant: form.expected, epochMs: form.epochMs, offsetMinutes: form.offsetMinutes } });
        expect(pattern.test(form.text)).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('answers for the text it is given, whatever was read before (each reading of a list of texts, repeats and refusals among them)', () => {
    const textArb = fc.oneof(timestampFormArb.map((form) => form.text), fc.string({ maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(textArb, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { minLength: 1, maxLength: 24 }), (texts, picks) => {
        const first = texts.map((text) => JSON.stringify(parseTimestamp(text)));
        for (const pick of picks) {
          const k = pick % texts.length;
          const text = texts[k] as string;
          expect(JSON.stringify(parseTimestamp(text))).toBe(first[k]);
          expect(isTimestamp(text)).toBe(parseTimestamp(text).ok);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('agrees with the Date calendar on which days exist', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (year, month, day) => {
        const probe = new Date(0);
        probe.setUTCFullYear(year, month - 1, day);
        const exists = probe.getUTCDate() === day;
        const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00Z`;
        expect(parseTimestamp(text).ok).toBe(exists);
      }),
      { numRuns: runs(2000) },
    );
  });

  // Strings built from the grammar's pieces, some of them out of range or malformed.
  const nearForm = fc
    .tuple(
      fc.constantFrom('', ' ', 'x'),
      fc.stringMatching(/^-?[0-9]{3,5}$/),
      fc.stringMatching(/^[0-9]{1,3}$/),
      fc.stringMatching(/^[0-9]{1,3}$/),
      fc.constantFrom('T', 't', ' '),
      fc.stringMatching(/^[0-9]{2}$/),
      fc.stringMatching(/^[0-9]{2}$/),
      fc.stringMatching(/^[0-9]{2}$/),
      fc.constantFrom('', '.', '.0', '.000', '.5', '.123456789', '.0000000000001'),
      fc.oneof(fc.constantFrom('', 'Z', 'z', '+05', '-0500'), fc.stringMatching(/^[+-][0-9]{2}:[0-9]{2}$/)),
      fc.constantFrom('', '\n', 'x'),
    )
    .map(([before, y, m, d, t, h, mi, s, f, z, after]) => `${before}${y}-${m}-${d}${t}${h}:${mi}:${s}${f}${z}${after}`);

  it('agrees with XS_DATE_TIME_PATTERN: what the reader takes matches, what does not match is refused', () => {
    fc.assert(
      fc.property(nearForm, (text) => {
        const read = parseTimestamp(text);
        if (read.ok) expect(pattern.test(text)).toBe(true);
        if (!pattern.test(text)) expect(read.ok).toBe(false);
        // The pattern lets through only days a month lacks, year 0000 and instants outside the range.
        if (pattern.test(text) && !read.ok) expect(['day', 'year', 'instant']).toContain(read.error.kind);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const read = parseTimestamp(text);
        if (read.ok) expect(read.value.instant).toMatch(/Z$/);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('writes what it reads: formatTimestamp at any offset gives back the instant and the offset', () => {
    fc.assert(
      fc.property(instantAtOffsetArb, ({ instant: { epochMs }, offsetMinutes: offset }) => {
        const text = formatTimestamp(epochMs, offset);
        expect(text).toMatch(pattern);
        expect(text).toMatch(/\.[0-9]{3}(?:Z|[+-][0-9]{2}:[0-9]{2})$/);
        expect(parseTimestamp(text)).toStrictEqual({ ok: true, value: { text, instant: new Date(epochMs).toISOString(), epochMs, offsetMinutes: offset } });
      }),
      { numRuns: runs(1000) },
    );
  });

  it('compareTimestamps orders by instant, whatever the offsets, to the last fraction digit', () => {
    fc.assert(
      fc.property(timestampFormArb, timestampFormArb, (a, b) => {
        const order = compareTimestamps(a.text, b.text);
        expect(Math.sign(order) + Math.sign(compareTimestamps(b.text, a.text))).toBe(0);
        if (a.epochMs !== b.epochMs) expect(Math.sign(order)).toBe(Math.sign(a.epochMs - b.epochMs));
        expect(compareTimestamps(a.text, a.text)).toBe(0);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('compareTimestamps', () => {
  it('orders the same wall-clock text by its offset', () => {
    expect(compareTimestamps('2024-03-14T10:00:00+02:00', '2024-03-14T09:00:00Z')).toBe(-1);
    expect(['2024-03-14T09:00:00Z', '2024-03-14T10:00:00+02:00'].sort(compareTimestamps)).toStrictEqual(['2024-03-14T10:00:00+02:00', '2024-03-14T09:00:00Z']);
    expect(compareTimestamps('2024-03-14T09:00:00.000Z', '2024-03-14T04:00:00-05:00')).toBe(0);
    expect(compareTimestamps('2024-03-14T23:59:59.999Z', '2024-03-14T24:00:00Z')).toBe(-1);
  });

  it('compares the digits after the milliseconds', () => {
    expect(compareTimestamps('2024-03-14T09:00:00.0001Z', '2024-03-14T09:00:00.00009Z')).toBe(1);
    expect(compareTimestamps('2024-03-14T09:00:00.00010Z', '2024-03-14T09:00:00.0001Z')).toBe(0);
    expect(compareTimestamps('2024-03-14T09:00:00.123Z', '2024-03-14T09:00:00.1230001Z')).toBe(-1);
  });

  it('throws TypeError for a text the reader refuses, with the reason', () => {
    expect(() => compareTimestamps('2024-03-14T09:00:00Z', '2015-02-30T00:00:00Z')).toThrow(
      new TypeError('compareTimestamps: "2015-02-30T00:00:00Z" is not an xs:dateTime with a time zone (day 30 does not exist in February 2015)'),
    );
  });
});

describe('the range of instants', () => {
  it('takes the first and last instants at every offset, and refuses one millisecond beyond, at every offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: -840, max: 840 }), (offset) => {
        for (const [epochMs, taken] of [[FIRST_INSTANT_MS, true], [LAST_INSTANT_MS, true], [FIRST_INSTANT_MS - 1, false], [LAST_INSTANT_MS + 1, false]] as const) {
          const local = new Date(epochMs + offset * 60_000);
          if (local.getUTCFullYear() < 1 || local.getUTCFullYear() > 9999) continue;
          const abs = Math.abs(offset);
          const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          const text = `${local.toISOString().slice(0, -1)}${zone}`;
          const read = parseTimestamp(text);
          if (taken) {
            expect(read).toStrictEqual({ ok: true, value: { text, instant: new Date(epochMs).toISOString(), epochMs, offsetMinutes: offset } });
            expect(read.ok && read.value.instant).toHaveLength(24);
          } else {
            expect(read).toStrictEqual({ ok: false, error: { kind: 'instant', message: INSTANT_RANGE } });
          }
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('timestampInstant never gives an instant it would refuse', () => {
    fc.assert(
      fc.property(timestampFormArb, (form) => {
        const instant = timestampInstant(form.text);
        expect(instant).toHaveLength(24);
        expect(timestampInstant(instant)).toBe(instant);
      }),
      { numRuns: runs(1000) },
    );
  });
});

describe('timestampInstant', () => {
  it('throws TypeError for a text the reader refuses, with the reason', () => {
    expect(() => timestampInstant('2024-03-14T09:26:53')).toThrow(
      new TypeError('timestampInstant: "2024-03-14T09:26:53" is not an xs:dateTime with a time zone (no time zone (Z or ±hh:mm))'),
    );
    expect(() => timestampInstant(5 as unknown as string)).toThrow(new TypeError('timestampInstant: "5" is not an xs:dateTime with a time zone (expected a string)'));
  });
});

describe('parseUtcOffset', () => {
  it.each([
    ['Z', 0],
    ['+00:00', 0],
    ['-00:00', 0],
    ['-05:00', -300],
    ['+05:30', 330],
    ['+14:00', 840],
    ['-14:00', -840],
  ])('%s is %i minutes', (text, minutes) => {
    expect(parseUtcOffset(text)).toStrictEqual({ ok: true, value: minutes });
  });

  it.each([
    ['', 'syntax', 'expected a time zone Z or ±hh:mm'],
    ['z', 'syntax', 'expected a time zone Z or ±hh:mm'],
    ['UTC', 'syntax', 'expected a time zone Z or ±hh:mm'],
    ['+5:00', 'syntax', 'expected a time zone Z or ±hh:mm'],
    ['0500', 'syntax', 'expected a time zone Z or ±hh:mm'],
    ['+15:00', 'offset', 'offset +15:00 is beyond ±14:00'],
    ['-14:30', 'offset', 'offset -14:30 is beyond ±14:00'],
    ['+01:60', 'offset', 'offset +01:60 has more than 59 minutes'],
  ])('refuses %j', (text, kind, message) => {
    expect(parseUtcOffset(text)).toStrictEqual({ ok: false, error: { kind, message } });
  });

  it('refuses a value that is not a string', () => {
    expect(parseUtcOffset(-300 as unknown as string)).toStrictEqual({ ok: false, error: { kind: 'syntax', message: 'expected a time zone Z or ±hh:mm' } });
  });
});

describe('formatTimestamp', () => {
  const at = Date.parse('2015-08-29T20:10:03.029Z');

  it('writes UTC with milliseconds by default, or the local time of an offset', () => {
    expect(formatTimestamp(at)).toBe('2015-08-29T20:10:03.029Z');
    expect(formatTimestamp(at, 0)).toBe('2015-08-29T20:10:03.029Z');
    expect(formatTimestamp(at, 'Z')).toBe('2015-08-29T20:10:03.029Z');
    expect(formatTimestamp(at, '-05:00')).toBe('2015-08-29T15:10:03.029-05:00');
    expect(formatTimestamp(at, -300)).toBe('2015-08-29T15:10:03.029-05:00');
    expect(formatTimestamp(at, 330)).toBe('2015-08-30T01:40:03.029+05:30');
    expect(formatTimestamp(at, '+00:00')).toBe('2015-08-29T20:10:03.029+00:00');
    expect(formatTimestamp(at + 0.9)).toBe('2015-08-29T20:10:03.029Z');
  });

  it('throws TypeError for an instant, an offset or a local year it cannot write', () => {
    expect(() => formatTimestamp(Number.NaN)).toThrow(new TypeError('formatTimestamp: epochMs must be a finite number, got NaN'));
    expect(() => formatTimestamp('1' as unknown as number)).toThrow(new TypeError('formatTimestamp: epochMs must be a finite number, got 1'));
    expect(() => formatTimestamp(at, 841)).toThrow(new TypeError('formatTimestamp: offset must be a whole number of minutes from -840 to 840, got 841'));
    expect(() => formatTimestamp(at, 1.5)).toThrow(new TypeError('formatTimestamp: offset must be a whole number of minutes from -840 to 840, got 1.5'));
    expect(() => formatTimestamp(at, '+15:00')).toThrow(new TypeError('formatTimestamp: offset +15:00 is beyond ±14:00'));
    expect(() => formatTimestamp(at, 'EST')).toThrow(new TypeError('formatTimestamp: expected a time zone Z or ±hh:mm'));
    expect(() => formatTimestamp(Date.UTC(10000, 0, 1))).toThrow(new TypeError(`formatTimestamp: the local year of ${Date.UTC(10000, 0, 1)} is outside 0001 to 9999`));
    expect(() => formatTimestamp(Date.UTC(9999, 11, 31, 23), 120)).toThrow(TypeError);
    expect(() => formatTimestamp(8.64e15 + 1)).toThrow(new TypeError(`formatTimestamp: the local year of ${8.64e15 + 1} is outside 0001 to 9999`));
    // A local year within range, an instant in UTC outside it: the reader would refuse the text.
    expect(() => formatTimestamp(FIRST_INSTANT_MS - 1, 840)).toThrow(new TypeError(`formatTimestamp: ${INSTANT_RANGE}`));
    expect(() => formatTimestamp(LAST_INSTANT_MS + 1, -840)).toThrow(new TypeError(`formatTimestamp: ${INSTANT_RANGE}`));
    expect(formatTimestamp(FIRST_INSTANT_MS, 840)).toBe('0001-01-01T14:00:00.000+14:00');
    expect(formatTimestamp(LAST_INSTANT_MS, -840)).toBe('9999-12-31T09:59:59.999-14:00');
  });
});

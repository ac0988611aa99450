/**
 * Generators of `xs:dateTime` lexical forms for the property tests: an instant, and any of the
 * ways the service could write it (any offset from -14:00 to +14:00, `Z`, `+00:00` or `-00:00`,
 * 0 to 9 fraction digits, `24:00:00` for a midnight, white space around it). The forms are built
 * from the instant with `Date`'s UTC getters, independently of the reader under test.
 *
 * Instants cover the whole range the reader takes, 0001-01-01T00:00:00.000Z to
 * 9999-12-31T23:59:59.999Z, with the first and last instants and the first and last local times
 * of that range at each offset drawn often, so both boundaries are exercised at every offset.
 */
import fc from 'fast-check';

/** An instant: milliseconds since the epoch and further fraction digits (sub-millisecond). */
export interface GeneratedInstant {
  readonly epochMs: number;
  /** Digits after the milliseconds, without trailing zeros (`''` for none). */
  readonly subMs: string;
}

/** A lexical form and the instant it denotes (`expected`: UTC with milliseconds). */
export interface GeneratedForm {
  readonly text: string;
  readonly expected: string;
  readonly epochMs: number;
  readonly offsetMinutes: number;
}

/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, worked out with `Date`'s setters. */
export const FIRST_INSTANT_MS = (() => {
  const d = new Date(0);
  d.setUTCFullYear(1, 0, 1);
  return d.getTime();
})();
export const LAST_INSTANT_MS = (() => {
  const d = new Date(0);
  d.setUTCFullYear(9999, 11, 31);
  d.setUTCHours(23, 59, 59, 999);
  return d.getTime();
})();
// The inner years, where any offset keeps the local year within 0001 to 9999.
const FIRST = FIRST_INSTANT_MS + 86_400_000;
const LAST = LAST_INSTANT_MS - 86_400_000;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Instants: mostly around now, some anywhere in years 0001 to 9999, some on a midnight. */
export const instantArb: fc.Arbitrary<GeneratedInstant> = fc.record({
  epochMs: fc.oneof(
    fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
    fc.integer({ min: FIRST, max: LAST }),
    fc.integer({ min: Math.ceil(FIRST / 60_000), max: Math.floor(LAST / 60_000) }).map((minutes) => minutes * 60_000),
    fc.constantFrom(Date.UTC(2016, 1, 29, 12), Date.UTC(2000, 1, 29), Date.UTC(2024, 11, 31, 23, 59, 59, 999), 0),
  ),
  subMs: fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{0,5}[1-9]$/)),
});

/** An offset in minutes east of UTC (whole minutes from -14:00 to +14:00), often a whole hour. */
export const offsetArb: fc.Arbitrary<number> = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -14, max: 14 }).map((h) => h * 60),
  fc.integer({ min: -840, max: 840 }),
  fc.constantFrom(-300, 330, 345, 840, -840),
);

const space = fc.constantFrom('', '', '', ' ', '\n  ', '\t');

/**
 * An instant and an offset at which it can be written: both the instant in UTC and its local time
 * at the offset are within 0001-01-01T00:00:00.000 to 9999-12-31T23:59:59.999. Often on or next to
 * the boundaries of that range.
 */
export const instantAtOffsetArb: fc.Arbitrary<{ instant: GeneratedInstant; offsetMinutes: number }> = offsetArb.chain((offsetMinutes) => {
  // local = instant + offset, so the instant lies within [FIRST - offset, LAST - offset] too.
  const low = Math.max(FIRST_INSTANT_MS, FIRST_INSTANT_MS - offsetMinutes * 60_000);
  const high = Math.min(LAST_INSTANT_MS, LAST_INSTANT_MS - offsetMinutes * 60_000);
  return fc.record({
    instant: fc.oneof(
      { weight: 3, arbitrary: instantArb },
      {
        weight: 1,
        arbitrary: fc.record({
          epochMs: fc.oneof(fc.constantFrom(low, high), fc.integer({ min: low, max: low + 2 * 86_400_000 }), fc.integer({ min: high - 2 * 86_400_000, max: high })),
          // Further digits would take the last instant past .999 (the reader cuts them, but the form would denote a later instant).
          subMs: fc.constant(''),
        }),
      },
    ),
    offsetMinutes: fc.constant(offsetMinutes),
  });
});

/** A lexical form of an instant at an offset. */
export function formArb(instant: GeneratedInstant, offsetMinutes: number): fc.Arbitrary<GeneratedForm> {
  const local = new Date(instant.epochMs + offsetMinutes * 60_000);
  const ms = local.getUTCMilliseconds();
  const significant = `${pad(ms, 3)}${instant.subMs}`.replace(/0+$/, '');
  const zones =
    offsetMinutes === 0
      ? ['Z', '+00:00', '-00:00']
      : [`${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}:${pad(Math.abs(offsetMinutes) % 60, 2)}`];
  // 24:00:00 of the day before: not for 0001-01-01, whose day before is in year 0000.
  const midnight = local.getUTCHours() === 0 && local.getUTCMinutes() === 0 && local.getUTCSeconds() === 0 && significant === '' && local.getTime() - 86_400_000 >= FIRST_INSTANT_MS;
  return fc
    .record({
      digits: fc.integer({ min: significant.length, max: Math.max(9, significant.length) }),
      zone: fc.constantFrom(...zones),
      endOfDay: midnight ? fc.boolean() : fc.constant(false),
      before: space,
      after: space,
    })
    .map(({ digits, zone, endOfDay, before, after }) => {
      const day = endOfDay ? new Date(local.getTime() - 86_400_000) : local;
      const date = `${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1, 2)}-${pad(day.getUTCDate(), 2)}`;
      const time = endOfDay ? '24:00:00' : `${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}`;
      const fraction = digits === 0 ? '' : `.${significant.padEnd(digits, '0')}`;
      return {
        text: `${before}${date}T${time}${fraction}${zone}${after}`,
        expected: new Date(instant.epochMs).toISOString(),
        epochMs: instant.epochMs,
        offsetMinutes,
      };
    });
}

/** Any lexical form of any instant. */
export const timestampFormArb: fc.Arbitrary<GeneratedForm> = instantAtOffsetArb.chain(({ instant, offsetMinutes }) => formArb(instant, offsetMinutes));

/** The text of any lexical form of any instant (for values of the resource schemas). */
export const timestampTextArb: fc.Arbitrary<string> = timestampFormArb.map((form) => form.text);

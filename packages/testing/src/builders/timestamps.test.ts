import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateTime, offsetMinutes } from './timestamps.js';

// The lexical form of xs:dateTime with a required time zone.
const XS_DATE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?(?:Z|[+-](?:0[0-9]|1[0-4]):[0-5][0-9])$/;

describe('formatDateTime', () => {
  it('writes the offset of the published inbound message', () => {
    expect(formatDateTime('2015-08-29T20:10:03.029Z', { offset: '-05:00' })).toBe('2015-08-29T15:10:03.029-05:00');
    expect(formatDateTime(0, { offset: 330 })).toBe('1970-01-01T05:30:00.000+05:30');
    expect(formatDateTime(0, { offset: '+00:00' })).toBe('1970-01-01T00:00:00.000Z');
  });

  it('writes 0 to 9 fraction digits', () => {
    expect(formatDateTime(1_234, { fractionDigits: 0 })).toBe('1970-01-01T00:00:01Z');
    expect(formatDateTime(1_234, { fractionDigits: 9 })).toBe('1970-01-01T00:00:01.234000000Z');
  });

  it('refuses offsets and digits xs:dateTime cannot write', () => {
    expect(() => formatDateTime(0, { offset: '+14:01' })).toThrow('offset must be within ±14:00, got +14:01');
    expect(() => formatDateTime(0, { offset: '0500' })).toThrow(`offset must be 'Z', '+hh:mm' or '-hh:mm', got "0500"`);
    expect(() => formatDateTime(0, { offset: 841 })).toThrow('offset must be whole minutes within ±840, got 841');
    expect(() => formatDateTime(0, { fractionDigits: 10 })).toThrow('fractionDigits must be 0 to 9, got 10');
    expect(() => formatDateTime('yesterday')).toThrow('instant must be a Date, epoch milliseconds or a date-time text, got yesterday');
  });

  it('writes valid xs:dateTime text denoting the same instant, for any instant and offset', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 - 15 * 3_600_000 }), fc.integer({ min: -840, max: 840 }), (ms, minutes) => {
        const text = formatDateTime(ms, { offset: minutes });
        expect(text).toMatch(XS_DATE_TIME);
        expect(Date.parse(text)).toBe(ms);
        expect(offsetMinutes(text.endsWith('Z') ? 'Z' : text.slice(-6))).toBe(minutes);
      }),
    );
  });
});

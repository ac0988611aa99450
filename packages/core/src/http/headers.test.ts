import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerValue, headerValues } from './headers.js';

const NAMES = ['authorization', 'x-api-version', 'content-type', 'content-encoding', 'content-length'];
type Raw = string | string[] | number | undefined;

/** The rule, written plainly: the first member whose name matches in any case; undefined as absent; arrays joined. */
function reference(record: Record<string, Raw>, name: string): string | undefined {
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
}

/** A header name: one of those read, in any case, or another. */
const name = fc.oneof(
  fc.constantFrom(...NAMES, 'Content-Type', 'CONTENT-LENGTH', 'X-Api-Version', 'Authorization', 'content-Encoding', 'host', 'x-api-versions', 'content-typ'),
  fc.string({ maxLength: 20 }),
);
const value = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), fc.integer(), fc.constant(undefined));

describe('headerValues and headerValue', () => {
  it('read each header as the rule says, in one pass, for any record (names in any case, repeated, arrays, numbers, undefined)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 12 }), (entries) => {
        const record: Record<string, Raw> = {};
        for (const [key, v] of entries) record[key] = v;
        const expected = NAMES.map((n) => reference(record, n));
        expect(headerValues(record, NAMES)).toEqual(expected);
        expect(NAMES.map((n) => headerValue(record, n.toUpperCase()))).toEqual(expected);
      }),
    );
  });

  it('take the first member whose name matches in any case, and a member present as undefined as absent', () => {
    expect(headerValues({ 'Content-Type': 'application/xml', 'content-type': 'application/json', 'content-length': undefined, 'content-encoding': ['a', 'b'] }, NAMES)).toEqual([
      undefined,
      undefined,
      'application/xml',
      'a, b',
      undefined,
    ]);
  });

  it('read a Web Headers through get', () => {
    const headers = new Headers({ authorization: 'Basic dTpw', 'x-api-version': '4', 'content-type': 'application/json', 'content-length': '12' });
    expect(headerValues(headers, NAMES)).toEqual(['Basic dTpw', '4', 'application/json', undefined, '12']);
    expect(headerValue(headers, 'Content-Type')).toBe('application/json');
    expect(headerValues(undefined, NAMES)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

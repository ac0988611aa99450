import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerValue, type HeadersLike } from '../http/headers.js';
import { callbackHeaders } from './callback-headers.js';

const NAMES = { authorization: 'authorization', apiVersion: 'x-api-version', contentType: 'content-type', contentEncoding: 'content-encoding', contentLength: 'content-length' } as const;

/** What headerValue gives for each header the receiver reads. */
const oneByOne = (headers: HeadersLike | undefined) =>
  Object.fromEntries(Object.entries(NAMES).map(([member, name]) => [member, headerValue(headers, name)]));

/** A header name: one of those read, in any case, or another. */
const name = fc.oneof(
  fc.constantFrom(...Object.values(NAMES), 'Content-Type', 'CONTENT-LENGTH', 'X-Api-Version', 'Authorization', 'content-Encoding', 'host', 'x-api-versions', 'content-typ'),
  fc.string({ maxLength: 20 }),
);
const value = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), fc.integer(), fc.constant(undefined));

describe('callbackHeaders', () => {
  it('gives for every header what headerValue gives, for any record (names in any case, repeated, arrays, numbers, undefined)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 12 }), (entries) => {
        const record: Record<string, string | string[] | number | undefined> = {};
        for (const [key, v] of entries) record[key] = v;
        expect(callbackHeaders(record, true)).toEqual(oneByOne(record));
      }),
    );
  });

  it('takes the first member whose name matches in any case, and a member present as undefined as absent', () => {
    expect(callbackHeaders({ 'Content-Type': 'application/xml', 'content-type': 'application/json', 'content-length': undefined, 'content-encoding': ['a', 'b'] }, true)).toEqual({
      authorization: undefined,
      apiVersion: undefined,
      contentType: 'application/xml',
      contentEncoding: 'a, b',
      contentLength: undefined,
    });
  });

  it('reads a Web Headers through get, and the credentials only when asked', () => {
    const headers = new Headers({ authorization: 'Basic dTpw', 'x-api-version': '4', 'content-type': 'application/json', 'content-length': '12' });
    expect(callbackHeaders(headers, true)).toEqual({ ...oneByOne(headers), authorization: 'Basic dTpw' });
    expect(callbackHeaders(headers, false).authorization).toBeUndefined();
    expect(callbackHeaders({ authorization: 'Basic dTpw' }, false).authorization).toBeUndefined();
    expect(callbackHeaders(undefined, true)).toEqual(oneByOne(undefined));
  });
});

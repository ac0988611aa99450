import { TypeCompiler } from '@sinclair/typebox/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../body/body-text.js';
import { decodeInvokeServiceRequest, encodeInvokeServiceRequest } from './codec.js';
import { DEFAULT_BUILT_IN_VARIABLES, DEFAULT_RESERVED_WORDS } from './defaults.js';
import { INVOKE_SCOPES } from './members.js';
import { checkInvokeServiceRequestLine } from './request-line.js';
import { InvokeServiceRequestSchema, InvokeServiceRequestWireSchema, type InvokeServiceRequest } from './schema.js';
import { validateInvokeServiceRequest } from './validate.js';
import { runs } from '../../test/property-runs.js';

const forbidden = new Set([...DEFAULT_RESERVED_WORDS, ...DEFAULT_BUILT_IN_VARIABLES].map((word) => word.toUpperCase()));
const keyCharacter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-.');
const key = fc.oneof(
  fc.string({ unit: keyCharacter, minLength: 1, maxLength: 30 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
).filter((k) => !forbidden.has(k.toUpperCase()));
const bmpCharacter = fc.oneof(
  fc.constantFrom('\t', '\n', '\r'),
  fc.integer({ min: 0x20, max: 0xffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCharCode(c)),
);
const value = fc.string({ unit: bmpCharacter, maxLength: 60 });
const scope = fc
  .uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: 6, selector: ([k]) => k.toUpperCase() })
  .map((entries) => Object.fromEntries(entries) as Record<string, string>);
const variables = fc
  .record(Object.fromEntries(INVOKE_SCOPES.map((name) => [name, scope])) as Record<(typeof INVOKE_SCOPES)[number], typeof scope>, { requiredKeys: [] })
  .filter((v) => Object.keys(v).length > 0);
const phoneNumber = fc
  .tuple(fc.constantFrom(...'123456789'), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 5, maxLength: 15 }))
  .map(([first, rest]) => first + rest);
const request: fc.Arbitrary<InvokeServiceRequest> = fc.record(
  {
    endUser: fc.record({ phoneNumber, mobileOperatorId: fc.maxSafeNat() }, { requiredKeys: ['phoneNumber'] }),
    variables,
  },
  { requiredKeys: ['endUser'] },
);
/** A valid request that fits the 8000-byte limit. */
const fittingRequest = request.filter((r) => utf8ByteLength(encodeInvokeServiceRequest(r)) <= 8000);

/** Spellings of a scope name in mixed case. */
const caseVariant = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

const isInvokeError = (error: { code: number; description: string }) =>
  (error.code === 12002 && error.description.startsWith('Invalid JSON in the payload')) ||
  (error.code === 12007 && error.description === 'Request body exceeds the maximum allowable limit');

describe('Invoke Service request properties', () => {
  it('decode(encode(x)) deep-equals x for every valid request', () => {
    fc.assert(
      fc.property(fittingRequest, (value) => {
        expect(decodeInvokeServiceRequest(encodeInvokeServiceRequest(value))).toEqual({ ok: true, value });
      }),
      { numRuns: runs(500) },
    );
  });

  it('validate(JSON.parse(encode(x))) agrees with decode when the phone number is a safe integer', () => {
    fc.assert(
      fc.property(fittingRequest, (value) => {
        const text = encodeInvokeServiceRequest(value);
        const parsed: unknown = JSON.parse(text);
        const expected = Number.isSafeInteger(Number(value.endUser.phoneNumber)) ? decodeInvokeServiceRequest(text) : expect.objectContaining({ ok: false });
        expect(validateInvokeServiceRequest(parsed)).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('scope names decode to the canonical name whatever their case', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INVOKE_SCOPES).chain((name) => fc.tuple(fc.constant(name), caseVariant(name))), ([name, written]) => {
        const result = decodeInvokeServiceRequest(`{"endUser":{"phoneNumber":14155550100},"variables":{"${written}":{"A":"b"}}}`);
        expect(result).toEqual({ ok: true, value: { endUser: { phoneNumber: '14155550100' }, variables: { [name]: { A: 'b' } } } });
      }),
    );
  });

  it('arbitrary text never throws and yields a 12002 or 12007', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.json()), (text) => {
        const result = decodeInvokeServiceRequest(text);
        if (!result.ok) expect(isInvokeError(result.error)).toBe(true);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('arbitrary bytes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 9000 }), (bytes) => {
        const result = decodeInvokeServiceRequest(bytes);
        if (!result.ok) expect(isInvokeError(result.error)).toBe(true);
      }),
      { numRuns: runs(500) },
    );
  });

  it('arbitrary JSON values, near-valid shapes included, never throw in decode or validate', () => {
    const anyValue = fc.jsonValue({ maxDepth: 3 });
    const nearValid = fc.record(
      {
        endUser: fc.oneof(anyValue, fc.record({ phoneNumber: fc.oneof(anyValue, fc.integer(), fc.double()), mobileOperatorId: anyValue }, { requiredKeys: [] })),
        variables: fc.oneof(anyValue, fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...INVOKE_SCOPES, '__proto__')), fc.oneof(anyValue, fc.dictionary(fc.string(), anyValue)))),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(anyValue, nearValid), (value) => {
        const validated = validateInvokeServiceRequest(value);
        if (!validated.ok) expect(isInvokeError(validated.error)).toBe(true);
        const text = JSON.stringify(value);
        if (text !== undefined) {
          const decoded = decodeInvokeServiceRequest(text);
          if (!decoded.ok) expect(isInvokeError(decoded.error)).toBe(true);
        }
      }),
      { numRuns: runs(1000) },
    );
    expect(({} as Record<string, unknown>)['A']).toBeUndefined();
  });

  it('the wire schema and the validator agree, apart from the rules a schema cannot state', () => {
    const wire = TypeCompiler.Compile(InvokeServiceRequestWireSchema);
    const typed = TypeCompiler.Compile(InvokeServiceRequestSchema);
    const noLists = { reservedWords: [], builtInVariables: [] };
    const almostKey = fc.oneof(key, fc.constantFrom('', 'A1', 'a b', 'x'.repeat(256), 'é', '$'));
    const almostValue = fc.oneof(value, fc.constantFrom('😀', '\ud800', '\u0000', 'x'.repeat(4097)), fc.integer(), fc.constant(null));
    const almostScope = fc.oneof(
      fc.uniqueArray(fc.tuple(almostKey, almostValue), { maxLength: 4, selector: ([k]) => k.toUpperCase() }).map((entries) => Object.fromEntries(entries)),
      fc.constantFrom('x', null, [], 1),
    );
    const scopeName = fc.oneof(fc.constantFrom(...INVOKE_SCOPES).chain(caseVariant), fc.constantFrom('global', '', '__proto__'));
    const almostVariables = fc.oneof(
      fc.uniqueArray(fc.tuple(scopeName, almostScope), { maxLength: 3, selector: ([name]) => name.toLowerCase() }).map((entries) => Object.fromEntries(entries)),
      fc.constantFrom(null, [], 'x'),
    );
    const almostNumber = fc.oneof(fc.integer({ min: -10, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(1.5, -1, 99_999, 100_000, '14155550100', null));
    const almost = fc.record(
      { endUser: fc.oneof(fc.record({ phoneNumber: almostNumber, mobileOperatorId: almostNumber }, { requiredKeys: [] }), fc.constant(null)), variables: almostVariables },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(almost, (candidate) => {
        const result = validateInvokeServiceRequest(candidate, noLists);
        expect(result.ok).toBe(wire.Check(candidate));
        if (result.ok) expect(typed.Check(result.value)).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('arbitrary request lines never throw', () => {
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true }), fc.webPath()), (method, url) => {
        const result = checkInvokeServiceRequestLine({ method, url });
        if (!result.ok) expect([12003, 12004, 12005, 12006]).toContain(result.error.code);
      }),
      { numRuns: runs(1000) },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVOKE_INVALID } from '../errors/catalogue.js';
import { parseStrictJson } from '../json/strict-json.js';
import { decodeInvokeServiceRequest } from './codec.js';
import { runs } from '../../test/property-runs.js';

const phone = '"endUser":{"phoneNumber":14155550100}';
const repeated = { ok: false, error: { code: 12002, description: INVOKE_INVALID.repeatedMember } };

describe('repeated members, with and without escapes in the body', () => {
  it.each([
    ['in a valid request, a value with a colon dropped', `{${phone},"variables":{"user":{"A":"x:y","A":"z"}}}`],
    ['a repeated member whose name has a colon', `{${phone},"a:b":1,"a:b":2}`],
    ['inside an unknown member', `{${phone},"extra":[{"k":1},{"k":1,"k":2}]}`],
    ['inside endUser', '{"endUser":{"phoneNumber":14155550100,"x":{"y":":","y":":"}}}'],
    ['a repeated endUser', '{"endUser":{"phoneNumber":14155550100},"endUser":{"phoneNumber":14155550101}}'],
    ['before another rule is broken', `{"variables":{},"endUser":{"phoneNumber":1},"x":1,"x":1}`],
    ['with a rule broken inside the dropped member', `{${phone},"variables":{"nope":{}},"variables":{"user":{"A":"b"}}}`],
    ['in a root that is not an object', '[{"a":1,"a":1}]'],
  ])('%s', (_, body) => {
    expect(decodeInvokeServiceRequest(body)).toEqual(repeated);
    // the same body with an escape somewhere takes the strict parser's path, and agrees
    const escaped = body.startsWith('{') ? `{"\\u007a":0,${body.slice(1)}` : body.replace('"a"', '"\\u0061"');
    expect(decodeInvokeServiceRequest(escaped)).toEqual(repeated);
  });

  it('colons inside strings are not separators', () => {
    expect(decodeInvokeServiceRequest(`{${phone},"variables":{"user":{"A":"a:b::c","B":":"}},"x:y":{"::":":"}}`)).toMatchObject({ ok: true });
  });
});

/** JSON texts built from few names, so that repeated members are frequent; some with escapes. */
const jsonText = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1', '-0', '2.5e3', 'true', 'null', '""', '"s"', '"x:y"', '":"', '"\\n"', '"\\u003a"', '"é:😀"'),
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom('a', 'b', 'a:b', ':', 'endUser', 'variables', 'user', '__proto__', '\\u0061', 'phoneNumber'), tie('value')), { maxLength: 4 })
    .map((members) => `{${members.map(([name, value]) => `"${name}":${value}`).join(',')}}`),
  array: fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
}));

describe('agreement with the strict parser on body-level problems', () => {
  it('repeated members, nesting and non-object roots are found exactly as parseStrictJson finds them', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText.object, jsonText.value), fc.constantFrom('', ' ', '\n  '), (text, space) => {
        const body = text.replaceAll(',', `,${space}`);
        const strict = parseStrictJson(body);
        const result = decodeInvokeServiceRequest(body);
        const description = result.ok ? undefined : result.error.description;
        if (!strict.ok) {
          const expected = { syntax: INVOKE_INVALID.syntax, 'duplicate-member': INVOKE_INVALID.repeatedMember, 'too-deep': INVOKE_INVALID.tooDeep }[strict.error];
          expect(description).toBe(expected);
        } else if (typeof strict.value !== 'object' || strict.value === null || Array.isArray(strict.value)) {
          expect(description).toBe(INVOKE_INVALID.notAnObject);
        } else {
          expect([INVOKE_INVALID.syntax, INVOKE_INVALID.repeatedMember, INVOKE_INVALID.tooDeep, INVOKE_INVALID.notAnObject]).not.toContain(description);
        }
      }),
      { numRuns: runs(2000) },
    );
  });

  it('nesting deeper than 64 is found on both paths', () => {
    const deep = (n: number) => `{${phone},"x":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(decodeInvokeServiceRequest(deep(63))).toMatchObject({ ok: true });
    expect(decodeInvokeServiceRequest(deep(64))).toEqual({ ok: false, error: { code: 12002, description: INVOKE_INVALID.tooDeep } });
    expect(decodeInvokeServiceRequest(deep(64).replace('"x"', '"\\u0078"'))).toEqual({ ok: false, error: { code: 12002, description: INVOKE_INVALID.tooDeep } });
  });
});

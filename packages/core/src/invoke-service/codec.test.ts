import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture, loadFixtureBytes } from '../../test/fixtures.js';
import { decodeInvokeServiceRequest, encodeInvokeServiceRequest } from './codec.js';
import type { InvokeServiceRequest } from './schema.js';

const TOO_LARGE = { ok: false, error: { code: 12007, description: 'Request body exceeds the maximum allowable limit' } };
const P = 'Invalid JSON in the payload';

function decoded(path: string): InvokeServiceRequest {
  const result = decodeInvokeServiceRequest(loadFixture(path));
  if (!result.ok) throw new Error(`${path}: ${result.error.description}`);
  return result.value;
}

describe('decodeInvokeServiceRequest on valid requests', () => {
  it('without variables', () => {
    expect(decoded('invoke-service/valid/no-variables.json')).toEqual({ endUser: { phoneNumber: '14155550100' } });
    expect(decoded('invoke-service/valid/with-operator.json')).toEqual({ endUser: { phoneNumber: '447700900123', mobileOperatorId: 383 } });
    expect(decoded('invoke-service/valid/six-digit-phone.json')).toEqual({ endUser: { phoneNumber: '100000' } });
  });

  it('with every scope, endUser last', () => {
    expect(decoded('invoke-service/valid/every-scope.json')).toEqual({
      endUser: { phoneNumber: '61412345678', mobileOperatorId: 0 },
      variables: {
        request: { ORDER_REF: 'A-1001', channel: 'web' },
        session: { step: 'confirm', 'Cart.Total': '42.50' },
        user: { FIRST_NAME: 'Ana', 'last-name': 'Pérez' },
        userservice: { opt_in: 'true' },
        userservicecoll: { TIER: 'gold', since: '2024-01-31' },
      },
    });
  });

  it('scope names in any case become canonical, keys stay as written', () => {
    expect(decoded('invoke-service/valid/mixed-case-scopes.json')).toEqual({
      endUser: { phoneNumber: '33612345678' },
      variables: { request: { a: '1' }, session: { b: '2' }, user: { c: '3' }, userservice: { d: '4' }, userservicecoll: { e: '5' } },
    });
  });

  it('keeps the exact digits of a 16-digit phone number beyond 2^53', () => {
    const value = decoded('invoke-service/valid/sixteen-digit-phone.json');
    expect(value.endUser).toEqual({ phoneNumber: '9123456789012345', mobileOperatorId: Number.MAX_SAFE_INTEGER });
  });

  it('reads member names written with escapes, and ignores look-alike members elsewhere', () => {
    expect(decoded('invoke-service/valid/escaped-names.json')).toEqual({
      endUser: { phoneNumber: '9999999999999999' },
      variables: { user: { phoneNumber: '1', endUser: '2' } },
    });
  });

  it('values of 4096 characters of the BMP', () => {
    const value = decoded('invoke-service/valid/long-values.json');
    const greeting = value.variables?.session?.['GREETING'];
    expect(greeting).toHaveLength(4096);
    expect(greeting?.endsWith('\ud7ff\ue000\ufffd')).toBe(true);
    expect(value.variables?.session?.['CJK']).toBe('日本語のテキスト'.repeat(30));
  });

  it('bytes decode like text, a byte order mark is dropped', () => {
    for (const path of listFixtures('invoke-service/valid')) {
      expect(decodeInvokeServiceRequest(loadFixtureBytes(path))).toEqual(decodeInvokeServiceRequest(loadFixture(path)));
    }
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...loadFixtureBytes('invoke-service/valid/no-variables.json')]);
    expect(decodeInvokeServiceRequest(withBom)).toEqual({ ok: true, value: { endUser: { phoneNumber: '14155550100' } } });
  });

  it('ignores unknown members of the body and of endUser', () => {
    expect(decodeInvokeServiceRequest('{"endUser":{"phoneNumber":14155550100,"name":"x"},"extra":[1]}')).toEqual({
      ok: true,
      value: { endUser: { phoneNumber: '14155550100' } },
    });
  });
});

describe('12007: body over 8000 bytes, checked before parsing', () => {
  const padded = (bytes: number) => {
    const base = '{"endUser":{"phoneNumber":14155550100}}';
    return base.slice(0, -1) + ' '.repeat(bytes - base.length) + '}';
  };

  it('exactly 8000 bytes pass, 8001 do not (text and bytes)', () => {
    expect(decodeInvokeServiceRequest(padded(8000)).ok).toBe(true);
    expect(decodeInvokeServiceRequest(new TextEncoder().encode(padded(8000))).ok).toBe(true);
    expect(decodeInvokeServiceRequest(padded(8001))).toEqual(TOO_LARGE);
    expect(decodeInvokeServiceRequest(new TextEncoder().encode(padded(8001)))).toEqual(TOO_LARGE);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const value = '日'.repeat(2660); // 7980 bytes of value, 2660 characters
    const body = `{"endUser":{"phoneNumber":14155550100},"variables":{"user":{"NAME":"${value}"}}}`;
    expect(body.length).toBeLessThan(8000);
    expect(decodeInvokeServiceRequest(body)).toEqual(TOO_LARGE);
  });

  it('a 5 MB body is refused at once, even when it is not JSON', () => {
    const text = '{'.repeat(5_000_000);
    const bytes = new Uint8Array(5_000_000).fill(0xff);
    expect(decodeInvokeServiceRequest(text)).toEqual(TOO_LARGE);
    expect(decodeInvokeServiceRequest(bytes)).toEqual(TOO_LARGE);
  });
});

describe('hostile bodies', () => {
  it('invalid UTF-8 → 12002', () => {
    for (const path of ['invoke-service/hostile/invalid-utf8.bin', 'invoke-service/hostile/overlong-utf8.bin']) {
      expect(decodeInvokeServiceRequest(loadFixtureBytes(path))).toEqual({ ok: false, error: { code: 12002, description: `${P} - body is not valid UTF-8` } });
    }
    expect(decodeInvokeServiceRequest('{"endUser":{"phoneNumber":14155550100},"x":"\ud800"}')).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - body is not valid UTF-8` },
    });
  });

  it('__proto__ and constructor as scope names are unknown scopes, and pollute nothing', () => {
    expect(decodeInvokeServiceRequest(loadFixture('invoke-service/hostile/proto-scope.json'))).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - scope "__proto__" is not a valid scope` },
    });
    expect(decodeInvokeServiceRequest(loadFixture('invoke-service/hostile/constructor-scope.json'))).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - scope "constructor" is not a valid scope` },
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('__proto__, constructor and prototype as keys are plain data', () => {
    const result = decodeInvokeServiceRequest(loadFixture('invoke-service/hostile/proto-keys.json'));
    if (!result.ok) throw new Error(result.error.description);
    const user = result.value.variables?.user as Record<string, string>;
    expect(Object.keys(user)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getPrototypeOf(user)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(user, '__proto__')?.value).toBe('a');
    expect(user['constructor']).toBe('b');
    expect(({} as Record<string, unknown>)['constructor']).toBe(Object);
    // and they survive a round trip as data
    expect(JSON.parse(encodeInvokeServiceRequest(result.value)).variables.user).toEqual(JSON.parse('{"__proto__":"a","constructor":"b","prototype":"c"}'));
  });

  it('an endUser hidden under __proto__ is not seen', () => {
    expect(decodeInvokeServiceRequest(loadFixture('invoke-service/hostile/proto-end-user.json'))).toEqual({
      ok: false,
      error: { code: 12002, description: `${P} - endUser is missing` },
    });
  });

  it('a body that is neither text nor bytes is a TypeError', () => {
    expect(() => decodeInvokeServiceRequest({} as unknown as string)).toThrow(TypeError);
    expect(() => decodeInvokeServiceRequest(null as unknown as string)).toThrow(TypeError);
  });
});

describe('encodeInvokeServiceRequest', () => {
  it('writes the phone number as a bare JSON integer with all its digits', () => {
    expect(encodeInvokeServiceRequest({ endUser: { phoneNumber: '9123456789012345', mobileOperatorId: 383 } })).toBe(
      '{"endUser":{"phoneNumber":9123456789012345,"mobileOperatorId":383}}',
    );
  });

  it('writes scopes under their canonical names, in the spec order', () => {
    expect(
      encodeInvokeServiceRequest({ endUser: { phoneNumber: '14155550100' }, variables: { user: { NAME: 'Ana "A"' }, request: { step: '1' } } }),
    ).toBe('{"endUser":{"phoneNumber":14155550100},"variables":{"request":{"step":"1"},"user":{"NAME":"Ana \\"A\\""}}}');
  });

  it('round-trips every valid fixture', () => {
    for (const path of listFixtures('invoke-service/valid')) {
      const value = decoded(path);
      expect(decodeInvokeServiceRequest(encodeInvokeServiceRequest(value))).toEqual({ ok: true, value });
    }
  });

  it.each([
    ['a phone number with a +', { endUser: { phoneNumber: '+14155550100' } }],
    ['a phone number with a leading zero', { endUser: { phoneNumber: '014155550100' } }],
    ['a phone number of 17 digits', { endUser: { phoneNumber: '12345678901234567' } }],
    ['a numeric phone number', { endUser: { phoneNumber: 14155550100 } }],
    ['a negative operator', { endUser: { phoneNumber: '14155550100', mobileOperatorId: -1 } }],
    ['an unknown scope', { endUser: { phoneNumber: '14155550100' }, variables: { global: { A: 'b' } } }],
    ['a scope name not in canonical case', { endUser: { phoneNumber: '14155550100' }, variables: { User: { A: 'b' } } }],
    ['empty variables', { endUser: { phoneNumber: '14155550100' }, variables: {} }],
    ['variables with only undefined scopes', { endUser: { phoneNumber: '14155550100' }, variables: { user: undefined } }],
    ['an empty scope', { endUser: { phoneNumber: '14155550100' }, variables: { user: {} } }],
    ['a key with a digit', { endUser: { phoneNumber: '14155550100' }, variables: { user: { A1: 'b' } } }],
    ['a value outside the BMP', { endUser: { phoneNumber: '14155550100' }, variables: { user: { A: '😀' } } }],
    ['a non-string value', { endUser: { phoneNumber: '14155550100' }, variables: { user: { A: 1 } } }],
    ['no endUser', {}],
  ])('refuses %s with a TypeError', (_, value) => {
    expect(() => encodeInvokeServiceRequest(value as unknown as InvokeServiceRequest)).toThrow(TypeError);
  });
});

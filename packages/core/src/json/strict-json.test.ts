import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strict-json.js';

describe('parseStrictJson', () => {
  it.each([
    ['{"a":1,"a":2}', 'duplicate-member'],
    ['{"a":{"b":1,"b":1}}', 'duplicate-member'],
    ['{"a":[{"c":1},{"d":{"e":1,"e":2}}]}', 'duplicate-member'],
    ['{"a":"x:y","a":"z"}', 'duplicate-member'],
    ['{"a\\"":1,"a\\"":1}', 'duplicate-member'],
    ['{"__proto__":1,"__proto__":2}', 'duplicate-member'],
    ['{"a":1,"b":2', 'syntax'],
    ['', 'syntax'],
    ['[' .repeat(100) + ']'.repeat(100), 'too-deep'],
  ])('%s → %s', (text, error) => {
    expect(parseStrictJson(text)).toEqual({ ok: false, error });
  });

  it.each([
    '{"a":"k:v","b":{"c:d":"\\":"}}',
    '{"url":"https://x.example/a:b","n":[1,{"m":"\\\\"}]}',
    '{"a":1,"A":2}',
    '"just a string"',
    '[{"a":1},{"a":1}]',
  ])('accepts %s exactly as JSON.parse', (text) => {
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('keeps __proto__ as plain data and pollutes nothing', () => {
    const r = parseStrictJson('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}');
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('ignores members inherited from a polluted Object.prototype', () => {
    (Object.prototype as Record<string, unknown>)['injected'] = 1;
    try {
      expect(parseStrictJson('{"a":{"b":1}}').ok).toBe(true);
    } finally {
      delete (Object.prototype as Record<string, unknown>)['injected'];
    }
  });

  it('agrees with JSON.parse on every document without repeated members', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
  });

  it('finds a member repeated anywhere, whatever the keys and values hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { minKeys: 1 }), fc.nat(), (object, pick) => {
        const keys = Object.keys(object);
        const key = keys[pick % keys.length] as string;
        const inner = JSON.stringify(object);
        const text = `{"wrap":${inner.slice(0, -1)},${JSON.stringify(key)}:null}}`;
        expect(parseStrictJson(text)).toEqual({ ok: false, error: 'duplicate-member' });
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(typeof parseStrictJson(text).ok).toBe('boolean');
    }));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyToText, utf8ByteLength } from './body-text.js';

describe('bodyToText', () => {
  it('counts UTF-8 octets exactly like TextEncoder', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
    }));
  });

  it('applies the limit in octets, for strings and bytes alike', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.nat(64), (s, maxBytes) => {
      const size = new TextEncoder().encode(s).length;
      const fromString = bodyToText(s, maxBytes);
      const fromBytes = bodyToText(new TextEncoder().encode(s), maxBytes);
      expect(fromString.ok).toBe(size <= maxBytes);
      expect(fromBytes.ok).toBe(size <= maxBytes);
      if (fromString.ok && fromBytes.ok) expect(fromString.value).toBe(fromBytes.value);
    }));
  });

  it('refuses invalid UTF-8 and lone surrogates, drops a byte order mark', () => {
    expect(bodyToText(new Uint8Array([0x7b, 0xff, 0x7d]), 100)).toEqual({ ok: false, error: 'invalid-utf8' });
    expect(bodyToText('{"a":"\ud800"}', 100)).toEqual({ ok: false, error: 'invalid-utf8' });
    expect(bodyToText(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), 100)).toEqual({ ok: true, value: '{}' });
    expect(bodyToText('\ufeff{}', 100)).toEqual({ ok: true, value: '{}' });
  });

  it('refuses a body over the limit before reading it, and what is not a body', () => {
    expect(bodyToText('x'.repeat(5_000_000), 65_536)).toEqual({ ok: false, error: 'too-large' });
    expect(bodyToText('é'.repeat(40_000), 65_536)).toEqual({ ok: false, error: 'too-large' });
    expect(bodyToText(42 as unknown as string, 10)).toEqual({ ok: false, error: 'not-a-body' });
  });
});

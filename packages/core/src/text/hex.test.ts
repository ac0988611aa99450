import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE } from './gsm-alphabet.js';
import { gsmEncode } from './gsm-codec.js';
import { bytesToHex, canEncodeHex, decodeHex, decodeHexContent, decodeUtf16Portable, encodeHex, hexToBytes, HEX_CHARSETS, type HexCharset } from './hex.js';
import { runs } from '../../test/property-runs.js';

const gsmChars = [...GSM_DEFAULT_ALPHABET].filter((_, i) => i !== 0x1b).concat([...GSM_EXTENSION_TABLE.values()]);
const gsmText = fc.array(fc.constantFrom(...gsmChars), { maxLength: 200 }).map((a) => a.join(''));
const latin1Text = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 200 });
const unicodeText = fc.string({ unit: 'grapheme', maxLength: 100 });
/** Any UTF-16 code units, lone surrogates included (often, as surrogates get their own arm). */
const codeUnitText = fc.string({
  unit: fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
/** Lead octets at the limits of the UTF-8 ranges, and surrogate halves as UTF-16 high octets. */
const leadOctet = fc.constantFrom(0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xff, 0xd8, 0xdb, 0xdc, 0xdf);
const continuationOctet = fc.oneof(fc.constantFrom(0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf), fc.integer({ min: 0x80, max: 0xbf }));
/** Octets that make UTF-8 and UTF-16 edge cases likely: any octet, or a lead octet and one to three continuation octets. */
const edgeOctets = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0xff }).map((b) => [b]),
      fc.tuple(leadOctet, fc.array(continuationOctet, { minLength: 1, maxLength: 3 })).map(([lead, rest]) => [lead, ...rest]),
    ),
    { maxLength: 15 },
  )
  .map((groups) => groups.flat());
/** Hex of edge octets in either case, now and then spoiled by a stray character or a missing last digit. */
const strayChar = fc.tuple(fc.nat(), fc.constantFrom('G', 'x', ' ', '٣', '\u0130', '\ud800'));
const edgeHex = fc
  .tuple(edgeOctets, fc.boolean(), fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: strayChar, weight: 1 }), fc.constantFrom(false, false, false, true))
  .map(([bytes, lower, stray, truncate]) => {
    let hex = Buffer.from(bytes).toString('hex');
    if (!lower) hex = hex.toUpperCase();
    if (stray !== null) hex = hex.slice(0, stray[0] % (hex.length + 1)) + stray[1] + hex.slice((stray[0] % (hex.length + 1)) + 1);
    return truncate ? hex.slice(0, -1) : hex;
  });

/** Reference: index of the first code unit that is not part of a well-formed surrogate pair, or -1. */
function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) i++;
    else if (c >= 0xd800 && c <= 0xdfff) return i;
  }
  return -1;
}

/** Reference: the text of hex content decoded by Node, or `undefined` where it is not valid in the charset. */
function referenceDecode(hex: string, charset: 'UTF-8' | 'UTF-16'): string | undefined {
  if (!/^(?:[0-9a-fA-F]{2})*$/u.test(hex)) return undefined;
  try {
    return new TextDecoder(charset === 'UTF-8' ? 'utf-8' : 'utf-16be', { fatal: true, ignoreBOM: true }).decode(Buffer.from(hex, 'hex'));
  } catch {
    return undefined;
  }
}

describe('encodeHex', () => {
  it('writes GSM as unpacked septets, upper case, extension characters as 1B xx', () => {
    expect(encodeHex('Hello @£$', 'GSM')).toBe('48656C6C6F20000102');
    expect(encodeHex('€{}[]~\\|^\f', 'GSM')).toBe('1B651B281B291B3C1B3E1B3D1B2F1B401B141B0A');
    expect(encodeHex('Δ_ΦΓΛΩΠΨΣΘΞ', 'GSM')).toBe('101112131415161718191A');
    expect(encodeHex('ÇØøÅåÆæßÉ¤¡ÄÖÑÜ§¿äöñüà', 'GSM')).toBe('090B0C0E0F1C1D1E1F24405B5C5D5E5F607B7C7D7E7F');
  });

  it('throws a TypeError naming the first character GSM cannot represent', () => {
    expect(() => encodeHex('ok ç', 'GSM')).toThrow(new TypeError("encodeHex: 'ç' (U+00E7) at index 3 cannot be represented in GSM"));
    expect(() => encodeHex('a😀', 'GSM')).toThrow(/'😀' \(U\+1F600\) at index 1/);
    expect(() => encodeHex('`', 'GSM')).toThrow(TypeError);
  });

  it('writes Latin-1 as ISO-8859-1 and rejects characters above U+00FF', () => {
    expect(encodeHex('café\u0080ÿ', 'Latin-1')).toBe('636166E980FF');
    expect(() => encodeHex('€', 'Latin-1')).toThrow(new TypeError("encodeHex: '€' (U+20AC) at index 0 cannot be represented in Latin-1"));
  });

  it('writes UTF-8 and big-endian UTF-16 and refuses lone surrogates', () => {
    expect(encodeHex('é😀', 'UTF-8')).toBe('C3A9F09F9880');
    expect(encodeHex('é😀', 'UTF-16')).toBe('00E9D83DDE00');
    expect(() => encodeHex('a\ud83d', 'UTF-8')).toThrow(new TypeError('encodeHex: lone surrogate U+D83D at index 1 cannot be represented in UTF-8'));
    expect(() => encodeHex('\ude00b', 'UTF-16')).toThrow(/lone surrogate U\+DE00 at index 0/);
  });

  it('throws a TypeError on a charset that is not one of the four', () => {
    expect(() => encodeHex('a', 'gsm' as HexCharset)).toThrow(TypeError);
    expect(() => decodeHex('61', 'UCS-2' as HexCharset)).toThrow(TypeError);
    expect(() => decodeHexContent('61', 'binary ' as 'binary')).toThrow(TypeError);
  });

  it('canEncodeHex agrees with encodeHex', () => {
    expect(canEncodeHex('Ça va', 'GSM')).toBe(true);
    expect(canEncodeHex('ça va', 'GSM')).toBe(false);
    expect(canEncodeHex('ça va', 'Latin-1')).toBe(true);
    expect(canEncodeHex('\ud800', 'UTF-16')).toBe(false);
  });
});

describe('hexToBytes / bytesToHex', () => {
  it('accepts either case and writes upper case', () => {
    const r = hexToBytes('0b84aBcD');
    expect(r).toEqual({ ok: true, value: new Uint8Array([0x0b, 0x84, 0xab, 0xcd]) });
    expect(bytesToHex(new Uint8Array([0x0b, 0x84, 0xab, 0xcd, 0]))).toBe('0B84ABCD00');
  });

  it('reports odd length and non-hex digits with their offset', () => {
    expect(hexToBytes('ABC')).toEqual({ ok: false, error: { kind: 'odd-length', offset: 2, message: 'hex content has an odd number of digits (3)' } });
    expect(hexToBytes('ABCG')).toEqual({ ok: false, error: { kind: 'not-hex', offset: 3, message: "'G' (U+0047) at offset 3 is not a hexadecimal digit" } });
    expect(hexToBytes('AB C')).toMatchObject({ ok: false, error: { kind: 'not-hex', offset: 2 } });
    expect(hexToBytes('0x12')).toMatchObject({ ok: false, error: { kind: 'not-hex', offset: 1 } });
    // A non-hex character is reported before the odd length.
    expect(hexToBytes('ABZ')).toMatchObject({ ok: false, error: { kind: 'not-hex', offset: 2 } });
    expect(hexToBytes('٣٣')).toMatchObject({ ok: false, error: { kind: 'not-hex', offset: 0 } });
  });

  it('reads long content (copied to ASCII octets first) alike and finds its first non-hex character', () => {
    const stray = fc.constantFrom('G', ' ', 'é', '٣', '\ud800', '😀');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 512, maxLength: 3000 }), fc.nat(), stray, (bytes, at, char) => {
        const hex = Buffer.from(bytes).toString('hex');
        expect(hexToBytes(hex)).toEqual({ ok: true, value: bytes });
        const offset = at % (hex.length - 1);
        const spoiled = hex.slice(0, offset) + char + hex.slice(offset + char.length);
        expect(hexToBytes(spoiled)).toMatchObject({ ok: false, error: { kind: 'not-hex', offset, message: expect.stringContaining(`at offset ${offset} `) } });
      }),
      { numRuns: runs(50) },
    );
  });

  it('round-trips any octets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hex).toBe(Buffer.from(bytes).toString('hex').toUpperCase());
        expect(hexToBytes(hex)).toEqual({ ok: true, value: bytes });
        expect(hexToBytes(hex.toLowerCase())).toEqual({ ok: true, value: bytes });
      }),
    );
  });
});

describe('decodeHex', () => {
  it('decodes GSM septets and escape pairs', () => {
    expect(decodeHex('48656C6C6F201B65', 'GSM')).toEqual({ ok: true, value: 'Hello €' });
    expect(decodeHex('00011B1400', 'GSM')).toEqual({ ok: true, value: '@£^@' });
  });

  it('rejects GSM octets over 7F, a trailing escape and escape pairs with no extension character', () => {
    expect(decodeHex('4180', 'GSM')).toEqual({
      ok: false,
      error: { kind: 'invalid-octets', offset: 2, message: 'octet 80 at offset 2 is not a GSM 03.38 septet (over 7F)' },
    });
    expect(decodeHex('411B', 'GSM')).toEqual({ ok: false, error: { kind: 'invalid-octets', offset: 2, message: 'escape 1B at offset 2 ends the content' } });
    expect(decodeHex('411B41', 'GSM')).toEqual({
      ok: false,
      error: { kind: 'invalid-octets', offset: 2, message: 'escape pair 1B 41 at offset 2 has no GSM 03.38 extension character' },
    });
    expect(decodeHex('1B1B', 'GSM')).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 0 } });
  });

  it('rejects invalid UTF-8 at the first bad sequence and keeps a byte order mark', () => {
    expect(decodeHex('EFBBBF61', 'UTF-8')).toEqual({ ok: true, value: '\ufeffa' });
    expect(decodeHex('6162C3', 'UTF-8')).toEqual({
      ok: false,
      error: { kind: 'invalid-octets', offset: 4, message: 'invalid UTF-8 sequence at offset 4 (octet C3)' },
    });
    expect(decodeHex('61C0AF', 'UTF-8')).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 2 } });
    expect(decodeHex('61EDA080', 'UTF-8')).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 2 } });
    expect(decodeHex('F4908080', 'UTF-8')).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 0 } });
    expect(decodeHex('E282AC41FF', 'UTF-8')).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 8 } });
  });

  it('rejects an odd UTF-16 octet count and lone surrogates', () => {
    expect(decodeHex('004100', 'UTF-16')).toEqual({
      ok: false,
      error: { kind: 'invalid-octets', offset: 4, message: 'UTF-16 content has an odd number of octets (3)' },
    });
    expect(decodeHex('0041D83D', 'UTF-16')).toEqual({
      ok: false,
      error: { kind: 'lone-surrogate', offset: 4, message: 'lone surrogate D83D at offset 4' },
    });
    expect(decodeHex('DE000041', 'UTF-16')).toMatchObject({ ok: false, error: { kind: 'lone-surrogate', offset: 0 } });
    expect(decodeHex('D83D0041', 'UTF-16')).toMatchObject({ ok: false, error: { kind: 'lone-surrogate', offset: 0 } });
    expect(decodeHex('D83DDE00', 'UTF-16')).toEqual({ ok: true, value: '😀' });
  });

  it('decodes the empty content to the empty text in every charset', () => {
    for (const cs of HEX_CHARSETS) expect(decodeHex('', cs)).toEqual({ ok: true, value: '' });
  });
});

describe('decodeHexContent', () => {
  it('counts octets and splits a user data header off', () => {
    expect(decodeHexContent('0605040B8423F0C3A9', 'UTF-8', { udh: true })).toEqual({
      ok: true,
      value: { octets: 9, text: 'é', udh: new Uint8Array([6, 5, 4, 0x0b, 0x84, 0x23, 0xf0]) },
    });
    expect(decodeHexContent('050003CC020148', 'GSM', { udh: true })).toEqual({
      ok: true,
      value: { octets: 7, text: 'H', udh: new Uint8Array([5, 0, 3, 0xcc, 2, 1]) },
    });
  });

  it('without udh, decodes all octets', () => {
    expect(decodeHexContent('0041', 'UTF-16')).toEqual({ ok: true, value: { octets: 2, text: 'A' } });
    expect(decodeHexContent('DEADBEEF', 'binary')).toEqual({ ok: true, value: { octets: 4 } });
    expect(decodeHexContent('050003CC0201', 'binary', { udh: true })).toEqual({
      ok: true,
      value: { octets: 6, udh: new Uint8Array([5, 0, 3, 0xcc, 2, 1]) },
    });
  });

  it('rejects a header that does not fit and reports text errors at their offset in the whole content', () => {
    expect(decodeHexContent('', 'binary', { udh: true })).toMatchObject({ ok: false, error: { kind: 'bad-udh', offset: 0 } });
    expect(decodeHexContent('0600', 'binary', { udh: true })).toEqual({
      ok: false,
      error: { kind: 'bad-udh', offset: 0, message: 'the user data header length (6) runs past the end of the content (1 octets after it)' },
    });
    expect(decodeHexContent('0100FF', 'GSM', { udh: true })).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 4 } });
    expect(decodeHexContent('0100D8', 'UTF-16', { udh: true })).toMatchObject({ ok: false, error: { kind: 'invalid-octets', offset: 4 } });
    expect(decodeHexContent('0100D800', 'UTF-16', { udh: true })).toMatchObject({ ok: false, error: { kind: 'lone-surrogate', offset: 4 } });
    expect(decodeHexContent('0200D8D800DC00', 'UTF-16', { udh: true })).toEqual({
      ok: true,
      value: { octets: 7, text: '\ud800\udc00', udh: new Uint8Array([2, 0, 0xd8]) },
    });
  });
});

describe('round trips and differential checks', () => {
  it('GSM text round-trips through hex', () => {
    fc.assert(
      fc.property(gsmText, (text) => {
        expect(decodeHex(encodeHex(text, 'GSM'), 'GSM')).toEqual({ ok: true, value: text });
      }),
    );
  });

  it('Latin-1 hex equals iconv-lite and round-trips', () => {
    fc.assert(
      fc.property(latin1Text, (text) => {
        const hex = encodeHex(text, 'Latin-1');
        expect(hex).toBe(iconv.encode(text, 'latin1').toString('hex').toUpperCase());
        expect(decodeHex(hex, 'Latin-1')).toEqual({ ok: true, value: iconv.decode(Buffer.from(hex, 'hex'), 'latin1') });
        expect(decodeHex(hex, 'Latin-1')).toEqual({ ok: true, value: text });
      }),
    );
  });

  it('UTF-16 hex equals iconv-lite UTF-16BE and round-trips', () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        const hex = encodeHex(text, 'UTF-16');
        expect(hex).toBe(iconv.encode(text, 'utf16be').toString('hex').toUpperCase());
        expect(decodeHex(hex, 'UTF-16')).toEqual({ ok: true, value: text });
      }),
    );
  });

  it('the portable UTF-16 decoder answers as the native one', () => {
    const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 });
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 3 }), (us, start) => {
        const bytes = new Uint8Array(start + us.length * 2);
        us.forEach((u, i) => {
          bytes[start + 2 * i] = u >> 8;
          bytes[start + 2 * i + 1] = u & 0xff;
        });
        const native = decodeHex(bytesToHex(bytes.subarray(start)), 'UTF-16');
        const portable = decodeUtf16Portable(bytes, start);
        // Offsets of the portable decoder count from the start of `bytes`.
        expect(portable).toEqual(native.ok ? native : { ok: false, error: { ...native.error, offset: native.error.offset + 2 * start, message: native.error.message.replace(/offset \d+/u, `offset ${native.error.offset + 2 * start}`) } });
      }),
    );
  });

  it('UTF-8 hex equals iconv-lite and round-trips', () => {
    fc.assert(
      fc.property(unicodeText, (text) => {
        const hex = encodeHex(text, 'UTF-8');
        expect(hex).toBe(iconv.encode(text, 'utf8').toString('hex').toUpperCase());
        expect(decodeHex(hex, 'UTF-8')).toEqual({ ok: true, value: text });
      }),
    );
  });

  it('decoders never throw and never return garbage on arbitrary input', () => {
    const charsets = fc.constantFrom<HexCharset | 'binary'>('GSM', 'Latin-1', 'UTF-8', 'UTF-16', 'binary');
    const hexish = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 80 }),
      fc.string({ maxLength: 40 }),
      fc.uint8Array({ maxLength: 40 }).map((b) => bytesToHex(b)),
    );
    fc.assert(
      fc.property(hexish, charsets, fc.boolean(), (hex, charset, udh) => {
        const r = decodeHexContent(hex, charset, { udh });
        if (!r.ok) {
          expect(['odd-length', 'not-hex', 'invalid-octets', 'lone-surrogate', 'bad-udh']).toContain(r.error.kind);
          expect(r.error.offset).toBeGreaterThanOrEqual(0);
          expect(r.error.offset).toBeLessThanOrEqual(Math.max(0, hex.length - 1));
          return;
        }
        expect(r.value.octets).toBe(hex.length / 2);
        if (charset !== 'binary') {
          const text = r.value.text ?? '';
          expect(text.isWellFormed()).toBe(true);
          // Whatever decodes re-encodes to the same octets (upper case).
          const tail = r.value.udh === undefined ? hex : hex.slice(r.value.udh.length * 2);
          expect(encodeHex(text, charset)).toBe(tail.toUpperCase());
        }
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('UTF-8 and UTF-16 of short and long content', () => {
  // Short content goes through scratch buffers, long content (here over 2048 code units or 4096 hex digits) through typed arrays of its own: both must agree with Node.
  const lengths = fc.constantFrom(1, 1, 1, 2, 0);
  /** The text `times` over, or (`times` 0) over and over until it is longer than `min`. */
  const repeatTo = (text: string, times: number, min: number): string =>
    text.length === 0 ? text : text.repeat(times === 0 ? Math.floor(min / text.length) + 1 : times);

  it('encodes any code units as Node does, and throws on the first lone surrogate', () => {
    fc.assert(
      fc.property(codeUnitText, lengths, fc.constantFrom<'UTF-8' | 'UTF-16'>('UTF-8', 'UTF-16'), (unit, times, charset) => {
        const text = repeatTo(unit, times, 2048);
        const lone = firstLoneSurrogate(text);
        if (lone >= 0) {
          const code = text.charCodeAt(lone).toString(16).toUpperCase();
          expect(() => encodeHex(text, charset)).toThrow(new TypeError(`encodeHex: lone surrogate U+${code} at index ${lone} cannot be represented in ${charset}`));
          expect(canEncodeHex(text, charset)).toBe(false);
          return;
        }
        const octets = charset === 'UTF-8' ? Buffer.from(text, 'utf8') : Buffer.from(text, 'utf16le').swap16();
        expect(encodeHex(text, charset)).toBe(octets.toString('hex').toUpperCase());
      }),
      { numRuns: runs(500) },
    );
  });

  it('decodes every UTF-8 sequence of a non-ASCII lead octet and up to three octets at range limits as Node does', () => {
    const follow = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0];
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const check = (octets: number[]): void => {
      const hex = Buffer.from(octets).toString('hex');
      let expected: string | undefined;
      try {
        expected = decoder.decode(new Uint8Array(octets));
      } catch {
        expected = undefined;
      }
      const decoded = decodeHex(hex, 'UTF-8');
      if (decoded.ok !== (expected !== undefined) || (decoded.ok && decoded.value !== expected)) expect({ hex, decoded }).toEqual({ hex, decoded: expected });
    };
    // Continuation octets all fail alike as leads: their limits stand for them.
    for (const lead of [0x80, 0xbf, ...Array.from({ length: 0x40 }, (_, i) => 0xc0 + i)]) {
      check([lead]);
      for (const a of follow) {
        check([lead, a]);
        for (const b of follow) {
          check([lead, a, b]);
          for (const c of follow) check([lead, a, b, c]);
        }
      }
    }
  });

  it('decodes any hex as Node does, with the errors of the octet path', () => {
    fc.assert(
      fc.property(edgeHex, lengths, fc.constantFrom<'UTF-8' | 'UTF-16'>('UTF-8', 'UTF-16'), (unit, times, charset) => {
        const hex = times === 1 ? unit : repeatTo(unit.length % 2 === 0 ? unit : unit.slice(0, -1), times, 4096);
        const expected = referenceDecode(hex, charset);
        const decoded = decodeHex(hex, charset);
        expect(decoded).toEqual(expected === undefined ? { ok: false, error: expect.anything() } : { ok: true, value: expected });
        // decodeHexContent always goes through octets: it must find the same error.
        const content = decodeHexContent(hex, charset);
        expect(decoded).toEqual(content.ok ? { ok: true, value: content.value.text } : content);
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('short content (scratch buffers) against the octet path, in every charset', () => {
  const texts: Readonly<Record<HexCharset, fc.Arbitrary<string>>> = { GSM: gsmText, 'Latin-1': latin1Text, 'UTF-8': unicodeText, 'UTF-16': unicodeText };

  it('encodes as the long path does: the hex of a text repeated past the scratch limit is its hex repeated', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HEX_CHARSETS), fc.nat({ max: 3 }), (charset, pick) =>
        fc.assert(
          fc.property(texts[charset], (text) => {
            if (text.length === 0) return;
            const times = Math.floor(2048 / text.length) + 1 + pick;
            expect(encodeHex(text.repeat(times), charset)).toBe(encodeHex(text, charset).repeat(times));
          }),
          { numRuns: runs(25) },
        ),
      ),
      { numRuns: runs(20) },
    );
  });

  it('refuses an escape followed by an octet over 7F, as the octet path does', () => {
    for (const hex of ['1B94', '1BFF', '411B80', '1B9B']) {
      const decoded = decodeHex(hex, 'GSM');
      expect(decoded.ok, hex).toBe(false);
      expect(decoded).toEqual(decodeHexContent(hex, 'GSM'));
    }
  });

  it('decodes any hex exactly as decodeHexContent (always the octet path) does, errors included', () => {
    const hexish = fc.oneof(
      edgeHex,
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 80 }),
      fc.uint8Array({ maxLength: 40 }).map((b) => bytesToHex(b)),
      fc.array(fc.constantFrom('1B', '1b', '1B1B', '1B65', '1B14', '1B7F', '1B80', '7F', '80', 'FF', '00', '41', 'C3A9', 'D83D', 'DE00'), { maxLength: 12 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(hexish, fc.constantFrom(...HEX_CHARSETS), (hex, charset) => {
        const content = decodeHexContent(hex, charset);
        expect(decodeHex(hex, charset)).toEqual(content.ok ? { ok: true, value: content.value.text } : content);
      }),
      { numRuns: runs(4000) },
    );
  });
});

describe('GSM and Latin-1 short paths (four characters at a time) against the general codecs', () => {
  /** Runs of ASCII of any length between single characters of every kind, so that each kind falls at every offset of a group of four. */
  const piece = fc.oneof(
    { arbitrary: fc.string({ unit: fc.constantFrom(...'abcXYZ 0189.,:!?'), maxLength: 9 }), weight: 4 },
    // GSM extension characters, GSM characters outside ASCII or on other septets, Latin-1 letters.
    { arbitrary: fc.constantFrom('€', '{', '^', '|', '~', '[', '\\', ']', '}', '@', '$', '_', 'é', 'Ñ', 'Δ', '£', '¿', '\n', '\r'), weight: 2 },
    // In neither GSM nor (for the last ones) Latin-1.
    { arbitrary: fc.constantFrom('`', '\t', '\u0000', '\u0080', '\u009f', 'ÿ', 'Ā', '–', '😀', '\ud800'), weight: 1 },
  );
  const mixedText = fc.array(piece, { maxLength: 30 }).map((a) => a.join(''));
  const gsmHexOf = (text: string): string | undefined => {
    try {
      return bytesToHex(gsmEncode(text));
    } catch {
      return undefined;
    }
  };
  const latin1HexOf = (text: string): string | undefined =>
    /^[\u0000-\u00ff]*$/u.test(text) ? Buffer.from(text, 'latin1').toString('hex').toUpperCase() : undefined;

  it('encode as gsmEncode and Buffer (latin1) do, refuse what they cannot represent, and decode back in either case', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        for (const [charset, want] of [['GSM', gsmHexOf(text)], ['Latin-1', latin1HexOf(text)]] as const) {
          if (want === undefined) {
            expect(() => encodeHex(text, charset)).toThrow(TypeError);
            continue;
          }
          expect(encodeHex(text, charset)).toBe(want);
          expect(decodeHex(want, charset)).toEqual({ ok: true, value: text });
          expect(decodeHex(want.toLowerCase(), charset)).toEqual({ ok: true, value: text });
        }
      }),
      { numRuns: runs(3000) },
    );
  });

  it('decode spoiled content (a character replaced anywhere) with the errors of the octet path', () => {
    const spoiler = fc.constantFrom('G', 'g', ' ', '٣', '\u0130', '\ud800', '8', 'F');
    fc.assert(
      fc.property(mixedText, fc.nat(), spoiler, fc.boolean(), (text, at, spoil, lower) => {
        for (const charset of ['GSM', 'Latin-1'] as const) {
          const clean = charset === 'GSM' ? gsmHexOf(text) : latin1HexOf(text);
          if (clean === undefined || clean.length === 0) continue;
          const cased = lower ? clean.toLowerCase() : clean;
          const i = at % cased.length;
          const hex = cased.slice(0, i) + spoil + cased.slice(i + 1);
          const content = decodeHexContent(hex, charset);
          expect(decodeHex(hex, charset)).toEqual(content.ok ? { ok: true, value: content.value.text } : content);
        }
      }),
      { numRuns: runs(3000) },
    );
  });

  it('encode and decode content of every length around the kept scratch views, longer and shorter in turn', () => {
    for (const n of [2047, 1, 1023, 1024, 1025, 2, 2048, 3, 2049, 1000, 4096, 0, 4097]) {
      const text = 'Aé{'.repeat(Math.ceil(n / 3)).slice(0, n);
      const latin1 = Buffer.from(text, 'latin1').toString('hex').toUpperCase();
      expect(encodeHex(text, 'Latin-1')).toBe(latin1);
      expect(decodeHex(latin1, 'Latin-1')).toEqual({ ok: true, value: text });
      const gsm = bytesToHex(gsmEncode(text));
      expect(encodeHex(text, 'GSM')).toBe(gsm);
      expect(decodeHex(gsm, 'GSM')).toEqual({ ok: true, value: text });
    }
  });
});

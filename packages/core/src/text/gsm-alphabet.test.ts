import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeChar,
  GSM_DEFAULT_ALPHABET,
  GSM_EXTENSION_TABLE,
  gsmSeptetLength,
  isGsmChar,
  isGsmText,
} from './gsm-alphabet.js';
import { gsmEncode } from './gsm-codec.js';

const gsmChars = [...GSM_DEFAULT_ALPHABET].filter((_, i) => i !== 0x1b).concat([...GSM_EXTENSION_TABLE.values()]);

describe('GSM 03.38 tables', () => {
  it('has 128 septets in the default alphabet and the ten extension characters', () => {
    expect(GSM_DEFAULT_ALPHABET).toHaveLength(128);
    expect([...GSM_EXTENSION_TABLE.values()].join('')).toBe('\f^{}\\[~]|€');
    expect(new Set(gsmChars).size).toBe(127 + 10);
  });

  it('places the characters that differ from ASCII where TS 23.038 puts them', () => {
    const at = (s: number): string => GSM_DEFAULT_ALPHABET.charAt(s);
    expect([at(0x00), at(0x02), at(0x09), at(0x11), at(0x24), at(0x40), at(0x60), at(0x7f)]).toEqual(['@', '$', 'Ç', '_', '¤', '¡', '¿', 'à']);
  });
});

describe('isGsmText / gsmSeptetLength', () => {
  it('accepts the alphabet and counts extension characters twice', () => {
    expect(isGsmText('')).toBe(true);
    expect(isGsmText(gsmChars.join(''))).toBe(true);
    expect(gsmSeptetLength('Price: 5€ [sale]')).toBe(19);
    expect(gsmSeptetLength('')).toBe(0);
  });

  it('rejects characters outside the alphabet, including look-alikes', () => {
    for (const c of ['ç', '`', '’', '\u00a0', '😀', 'ж', '\u001b', '\t', 'ì'.normalize('NFD')]) {
      expect(isGsmText(`a${c}`)).toBe(false);
      expect(gsmSeptetLength(`a${c}`)).toBe(-1);
    }
    expect(isGsmChar('€')).toBe(true);
    expect(isGsmChar('€€')).toBe(false);
  });

  it('agrees with gsmEncode on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom(...gsmChars), fc.constantFrom('ç', '😀', '’')), maxLength: 50 }), (text) => {
        const n = gsmSeptetLength(text);
        expect(isGsmText(text)).toBe(n >= 0);
        if (n >= 0) expect(gsmEncode(text)).toHaveLength(n);
        else expect(() => gsmEncode(text)).toThrow(TypeError);
      }),
    );
  });
});

describe('gsmEncode', () => {
  it('writes unpacked septets with 1B before extension characters', () => {
    expect([...gsmEncode('A€@')]).toEqual([0x41, 0x1b, 0x65, 0x00]);
  });

  it('names the first character it cannot encode', () => {
    expect(() => gsmEncode('ab👍')).toThrow("'👍' (U+1F44D) at index 2 is not in the GSM 03.38 default alphabet or extension table");
  });
});

describe('describeChar', () => {
  it('shows printable characters with their code point and others by code point only', () => {
    expect(describeChar('é')).toBe("'é' (U+00E9)");
    expect(describeChar('\u200b')).toBe("'\u200b' (U+200B)");
    expect(describeChar('\n')).toBe('U+000A');
    expect(describeChar('\ud800')).toBe('U+D800');
  });
});

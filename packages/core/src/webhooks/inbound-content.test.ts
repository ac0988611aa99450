import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeHex, hexToBytes } from '../text/hex.js';
import { decodeInboundText, guessInboundCharset, inboundHeader } from './inbound-content.js';

const octets = (hex: string): Uint8Array => {
  const bytes = hexToBytes(hex);
  if (!bytes.ok) throw new Error('bad hex');
  return bytes.value;
};

describe('guessInboundCharset', () => {
  it.each([
    ['Hello world, see you at 5?', 'GSM'],
    ['Prix: 5€ à Paris', 'GSM'],
  ] as const)('reads GSM text %j as GSM', (text, charset) => {
    expect(guessInboundCharset(octets(encodeHex(text, 'GSM')))).toBe(charset);
  });

  it.each(['Привет, как дела?', 'Γειά σου Κόσμε', 'שלום עולם', 'مرحبا بالعالم', 'नमस्ते दुनिया', '你好，世界！', 'Emoji 👋 wave', '안녕하세요'])(
    'reads UTF-16 text %j as UTF-16',
    (text) => {
      expect(guessInboundCharset(octets(encodeHex(text, 'UTF-16')))).toBe('UTF-16');
    },
  );

  it('reads odd-length octets above 7F as UTF-8 when they decode, else Latin-1', () => {
    expect(guessInboundCharset(octets(encodeHex('café!', 'UTF-8')))).toBe('UTF-8');
    expect(guessInboundCharset(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x21]))).toBe('Latin-1');
  });

  it('reads any Cyrillic or Greek text in UTF-16 back exactly', () => {
    const letters = fc.constantFrom(...'абвгдежзийклмнопрстуфхцчшщыэюяΑΒΓΔΕαβγδε .,!?'.split(''));
    fc.assert(
      fc.property(fc.array(letters, { minLength: 1, maxLength: 70 }), (chars) => {
        const text = chars.join('');
        const decoded = decodeInboundText(encodeHex(text, 'UTF-16'));
        expect(decoded.ok && decoded.value.text).toBe(text);
      }),
    );
  });

  it('reads GSM text of letters, digits and punctuation back exactly', () => {
    const chars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,!?:;-'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { minLength: 1, maxLength: 160 }), (list) => {
        const text = list.join('');
        const decoded = decodeInboundText(encodeHex(text, 'GSM'));
        expect(decoded.ok && decoded.value).toEqual({ text, charset: 'GSM' });
      }),
    );
  });
});

describe('decodeInboundText', () => {
  it('uses a named charset as given', () => {
    expect(decodeInboundText('00480069', 'UTF-16')).toEqual({ ok: true, value: { text: 'Hi', charset: 'UTF-16' } });
    expect(decodeInboundText('00480069', 'GSM')).toEqual({ ok: true, value: { text: '@H@i', charset: 'GSM' } });
  });

  it('reports hex that is not hex', () => {
    expect(decodeInboundText('zz').ok).toBe(false);
  });
});

describe('decodeInboundText: the receiver decoding of TS 23.038 6.2.1.1 for GSM text', () => {
  it('shows 1B 1B as a space, an unknown escape as the main table character, drops a trailing escape, and reports each', () => {
    expect(decodeInboundText('48691B1B411B41421B', 'GSM')).toEqual({
      ok: true,
      value: {
        text: 'Hi AAB',
        charset: 'GSM',
        substitutions: [
          { kind: 'escape-escape', index: 2, septets: '1B1B', char: ' ' },
          { kind: 'unknown-escape', index: 5, septets: '1B41', char: 'A' },
          { kind: 'trailing-escape', index: 8, septets: '1B', char: '' },
        ],
      },
    });
  });

  it('still reads such text as GSM when guessing (it used to fall back to Latin-1)', () => {
    expect(decodeInboundText('48691B1B41')).toEqual({
      ok: true,
      value: { text: 'Hi A', charset: 'GSM', substitutions: [{ kind: 'escape-escape', index: 2, septets: '1B1B', char: ' ' }] },
    });
  });

  it('decodes in the tables the header names, and reads such content as GSM', () => {
    const hindi = 'नमस्ते। आपका कोड 4829 है';
    const hex = encodeHex(hindi, 'GSM', { nationalTables: { locking: 'hindi', single: 'hindi' } });
    expect(decodeInboundText(hex, 'auto', { national: { locking: 6, single: 6 } })).toEqual({
      ok: true,
      value: { text: hindi, charset: 'GSM', nationalTables: { locking: 'hindi', single: 'hindi' } },
    });
    // Turkish single shift Ş (1B 53), and an identifier TS 23.038 does not define (the default table).
    expect(decodeInboundText('1B53', 'GSM', { national: { single: 1 } })).toMatchObject({ ok: true, value: { text: 'Ş', nationalTables: { single: 'turkish' } } });
    expect(decodeInboundText('1B65', 'GSM', { national: { single: 99 } })).toEqual({ ok: true, value: { text: '€', charset: 'GSM' } });
  });

  it('refuses an octet over 7F in GSM text', () => {
    expect(decodeInboundText('4180', 'GSM')).toEqual({
      ok: false,
      error: { kind: 'invalid-octets', offset: 2, message: 'octet 80 at offset 2 is not a GSM 03.38 septet (over 7F)' },
    });
  });

  it('never fails on septets, whatever they hold', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }).map((a) => a.map((b) => b & 0x7f)), (septets) => {
        const hex = [...septets].map((b) => b.toString(16).padStart(2, '0')).join('');
        const decoded = decodeInboundText(hex, 'GSM', { national: { locking: 4 } });
        expect(decoded.ok).toBe(true);
      }),
    );
  });
});

describe('inboundHeader', () => {
  it('has no header for text, or without udh', () => {
    expect(inboundHeader({ type: 'text', udh: true, content: 'hi' })).toEqual({ ok: true, value: undefined });
    expect(inboundHeader({ type: 'hexEncodedText', udh: false, content: '0500034A0201' })).toEqual({ ok: true, value: undefined });
  });

  it('splits the header off a hex part', () => {
    const result = inboundHeader({ type: 'hexEncodedText', udh: true, content: '0500034A020148' });
    expect(result.ok && result.value?.payload).toBe('48');
    expect(result.ok && result.value?.header.concatenation).toEqual({ reference: 0x4a, total: 2, sequence: 1, referenceBits: 8 });
  });
});

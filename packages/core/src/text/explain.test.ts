import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { isGsmText } from './gsm-alphabet.js';
import { explain } from './explain.js';
import { GSM_SUBSTITUTES } from './gsm-substitutes.js';

describe('explain', () => {
  it('finds the typography that forces UCS-2 and the parts the GSM substitutes save', () => {
    const text = loadFixture('text/promo-typography.txt');
    const x = explain(text);
    expect(x.estimate).toMatchObject({ encoding: 'UCS-2', segments: 3 });
    expect(x.ucs2Characters.map((c) => c.char)).toEqual(['’', '—', '“', '”', '…']);
    expect(x.substitutions).toEqual([
      { char: '’', index: 3, replacement: "'" },
      { char: '—', index: 15, replacement: '-' },
      { char: '“', index: 21, replacement: '"' },
      { char: '”', index: 33, replacement: '"' },
      { char: '…', index: 47, replacement: '...' },
    ]);
    expect(x.unsubstitutable).toEqual([]);
    expect(x.substituted.startsWith('Don\'t miss out - our "Summer Sale" ends tonight... Take 20%')).toBe(true);
    expect(x.substitutedEstimate).toMatchObject({ encoding: 'GSM', segments: 2 });
    expect(x.segmentsSaved).toBe(1);
  });

  it('removes zero-width characters and turns special spaces into spaces', () => {
    const x = explain('Price:\u00a05\u202f€\u200b today\u2028Ends soon');
    expect(x.substituted).toBe('Price: 5 € today\nEnds soon');
    expect(x.substitutedEstimate.encoding).toBe('GSM');
    expect(x.segmentsSaved).toBe(0);
  });

  it('names the characters without a substitute and still applies the one-for-one substitutions', () => {
    const x = explain('It’s 😀 time');
    expect(x.unsubstitutable).toEqual([{ char: '😀', index: 5, count: 1 }]);
    expect(x.substituted).toBe("It's 😀 time");
    expect(x.substitutedEstimate.encoding).toBe('UCS-2');
  });

  it('never applies substitutions that cost more parts', () => {
    // 70 ellipses are one UCS-2 part; as "..." they would be 210 septets, two GSM parts.
    const x = explain('…'.repeat(70));
    expect(x.estimate.segments).toBe(1);
    expect(x.substituted).toBe('…'.repeat(70));
    expect(x.segmentsSaved).toBe(0);
    // Alongside a character without a substitute, only the one-for-one substitutions are applied.
    const y = explain('ж’' + '…'.repeat(68));
    expect(y.substituted).toBe("ж'" + '…'.repeat(68));
    expect(y.substitutedEstimate.segments).toBe(1);
  });

  it('takes a custom substitutes table and the estimate options', () => {
    const x = explain('ça va', { substitutes: new Map([['ç', 'c']]) });
    expect(x.substituted).toBe('ca va');
    // With the Portuguese tables, ç is GSM: nothing forces UCS-2.
    const y = explain('ça va', { nationalLanguages: ['portuguese'] });
    expect(y.estimate.encoding).toBe('GSM');
    expect(y.unsubstitutable).toEqual([]);
    expect(() => explain('a', { substitutes: {} as ReadonlyMap<string, string> })).toThrow(TypeError);
  });

  it('maps every substitute to GSM text', () => {
    for (const [char, replacement] of GSM_SUBSTITUTES) {
      expect(isGsmText(char)).toBe(false);
      expect(isGsmText(replacement)).toBe(true);
    }
    expect(GSM_SUBSTITUTES.get('\uff01')).toBe('!');
  });

  it('substitutions never add parts and point at the characters they replace', () => {
    const unit = fc.oneof(
      fc.constantFrom(...'ab .\n€'),
      fc.constantFrom(...GSM_SUBSTITUTES.keys()),
      fc.constantFrom('ж', '😀', 'ç'),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 300 }).map((u) => u.join('')), fc.boolean(), (text, graphemes) => {
        const x = explain(text, { graphemes });
        expect(x.substitutedEstimate.segments).toBeLessThanOrEqual(x.estimate.segments);
        expect(x.segmentsSaved).toBe(x.estimate.segments - x.substitutedEstimate.segments);
        for (const s of x.substitutions) expect(text.slice(s.index, s.index + s.char.length)).toBe(s.char);
        if (x.unsubstitutable.length === 0 && x.substitutions.length > 0 && x.segmentsSaved > 0) expect(isGsmText(x.substituted)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { isGsmText } from './gsm-alphabet.js';
import { explain } from './explain.js';
import { GSM_SUBSTITUTES } from './gsm-substitutes.js';
import { runs } from '../../test/property-runs.js';

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
    // The typographic characters common SMS tools replace, each with a substitute here.
    const covered = [
      '\u2768', '\u276e', '\u2771', '\u2772', '\u2773', '\u2017', '\u2016', '\u223c', '\u02f7', '\u2223', '\u29f5', '\u29f8', '\u2774', '\u2775', '\u02d7', '\u2120', '\u20b9',
      '\ufe50', '\ufe51', '\ufe52', '\ufe54', '\ufe55', '\ufe56', '\ufe57', '\ufe58', '\ufe59', '\ufe5a', '\ufe5b', '\ufe5c',
      '\ufe5d', '\ufe5e', '\ufe5f', '\ufe60', '\ufe61', '\ufe62', '\ufe63', '\ufe64', '\ufe65', '\ufe66', '\ufe68', '\ufe69', '\ufe6a', '\ufe6b',
    ];
    for (const c of covered) expect(GSM_SUBSTITUTES.has(c), `U+${c.charCodeAt(0).toString(16)}`).toBe(true);
    // The two reserved positions of the small form variants hold no character: nothing to substitute.
    expect(GSM_SUBSTITUTES.has('\ufe53')).toBe(false);
    expect(GSM_SUBSTITUTES.has('\ufe67')).toBe(false);
    // Letters, combining marks and superscripts are never substituted.
    for (const c of ['ç', 'ж', '\u0301', '\u0313', '\u0338', '²', '₽']) expect(GSM_SUBSTITUTES.has(c)).toBe(false);
  });

  it('offers the small form variants, the ornament brackets and the operator look-alikes as their ASCII counterparts', () => {
    const x = explain('﹙a﹚ ﹛b﹜ ﹝c﹞ ❴d❵ ❨e❩ ❮f❯ 5﹪ ﹩5 me﹫x ﹟1 ﹤﹦﹥ a﹨b ∣ ‖ ‗ a∼b ˷ ⧸ ⧵ x﹐y﹒ ok﹗ ok﹖ a﹔b﹕c');
    expect(x.substituted).toBe('(a) {b} [c] {d} (e) <f> 5% $5 me@x #1 <=> a\\b | || _ a~b ~ / \\ x,y. ok! ok? a;b:c');
    expect(x.substitutedEstimate.encoding).toBe('GSM');
    expect(x.unsubstitutable).toEqual([]);
    expect(x.substitutions.find((s) => s.char === '\u2016')).toEqual({ char: '\u2016', index: 48, replacement: '||' });
  });

  it('offers ₹ as "Rs", never applied to the estimate', () => {
    const x = explain('Your bill of ₹1,250 is due on 5 May. Pay at acme.example/pay');
    expect(x.estimate.encoding).toBe('UCS-2');
    expect(x.substitutions).toEqual([{ char: '₹', index: 13, replacement: 'Rs' }]);
    expect(x.substituted).toBe('Your bill of Rs1,250 is due on 5 May. Pay at acme.example/pay');
    expect(x.substitutedEstimate).toMatchObject({ encoding: 'GSM', segments: 1 });
    // ₹ is in no national table: with the Hindi tables the substitute is what keeps the text in GSM.
    const hindi = explain('बिल ₹1,250', { nationalLanguages: ['hindi'] });
    expect(hindi.estimate.encoding).toBe('UCS-2');
    expect(hindi.substituted).toBe('बिल Rs1,250');
    expect(hindi.substitutedEstimate).toMatchObject({ encoding: 'GSM', nationalTables: { locking: 'hindi', single: 'hindi' } });
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
      { numRuns: runs(300) },
    );
  });

  it('offers the typography common tools replace, fractions after a digit keeping their own number', () => {
    const x = explain('Get 1½ kg • only ¾ left… “Brand™” ‘today’ — see ⅓ × 2 ‼');
    expect(x.substituted).toBe('Get 1 1/2 kg - only 3/4 left... "BrandTM" \'today\' - see 1/3 x 2 !!');
    expect(x.substitutions.find((s) => s.char === '½')).toEqual({ char: '½', index: 5, replacement: ' 1/2' });
    expect(x.substitutions.find((s) => s.char === '¾')).toEqual({ char: '¾', index: 17, replacement: '3/4' });
    expect(x.substitutedEstimate.encoding).toBe('GSM');
    // Offered, never applied: the estimate is of the text as it is.
    expect(x.estimate.encoding).toBe('UCS-2');
  });
});

describe('explain with national language tables', () => {
  const hindi = 'आपका OTP 482913 है। कृपया इसे किसी के साथ साझा न करें। यह कोड 10 मिनट में समाप्त हो जाएगा। धन्यवाद';

  it('names the tables chosen, why, and what each enabled language alone would cost', () => {
    const x = explain(hindi, { nationalLanguages: ['bengali', 'hindi'] });
    expect(x.estimate).toMatchObject({ encoding: 'GSM', segments: 1, nationalTables: { locking: 'hindi', single: 'hindi' } });
    expect(x.tables).toEqual({
      chosen: { locking: 'hindi', single: 'hindi' },
      reason:
        'The Hindi locking shift table and the Hindi single shift table: 1 part, 48 septets left in the last part. It is the only combination of the enabled tables that holds every character.',
      ranking: [{ tables: { locking: 'hindi', single: 'hindi' }, segments: 1, tableCount: 2, unitsLeft: 48, headerOctets: 7 }],
      languages: [
        { language: 'bengali', encoding: 'UCS-2', segments: 2, unitsLeft: 36, segmentsSaved: 0 },
        { language: 'hindi', encoding: 'GSM', segments: 1, nationalTables: { locking: 'hindi', single: 'hindi' }, unitsLeft: 48, segmentsSaved: 1 },
      ],
      withoutNationalTables: { encoding: 'UCS-2', segments: 2, unitsLeft: 36 },
    });
  });

  it('says when fewer parts, fewer tables or more room decided, and when the first of equals was kept', () => {
    expect(explain('ş'.repeat(155), { nationalLanguages: ['turkish'] }).tables?.reason).toBe(
      'The Turkish locking shift table and the default extension table: 1 part, 0 septets left in the last part. Chosen for the fewest parts: the next best, the Turkish locking shift table and the Turkish single shift table, takes 2 parts.',
    );
    expect(explain('hello', { nationalLanguages: ['hindi'] }).tables?.reason).toBe(
      'The GSM 03.38 default alphabet and extension table: 1 part, 155 septets left in the last part. Chosen for the fewest parts, then the fewest tables: the default alphabet and the Hindi single shift table also takes 1 part but with one national table, whose header octets every part pays.',
    );
    expect(explain('ş', { nationalLanguages: ['turkish'] }).tables?.reason).toBe(
      'The Turkish locking shift table and the default extension table: 1 part, 154 septets left in the last part. Chosen for the fewest parts and tables, then the most room left: the default alphabet and the Turkish single shift table leaves 153 septets.',
    );
    expect(explain(hindi, { nationalLanguages: ['hindi', 'tamil'] }).tables?.reason).toMatch(
      /It ties with the Hindi locking shift table and the Tamil single shift table on parts, tables and room left; the first tried \(languages in the order given\) is kept\.$/,
    );
  });

  it('says when no combination of the enabled tables holds the text', () => {
    expect(explain('नमस्ते Привет', { nationalLanguages: ['hindi', 'urdu'] }).tables).toEqual({
      reason: 'No combination of the enabled tables (Hindi, Urdu) holds every character: the text is UCS-2, 1 part.',
      ranking: [],
      languages: [
        { language: 'hindi', encoding: 'UCS-2', segments: 1, unitsLeft: 57, segmentsSaved: 0 },
        { language: 'urdu', encoding: 'UCS-2', segments: 1, unitsLeft: 57, segmentsSaved: 0 },
      ],
      withoutNationalTables: { encoding: 'UCS-2', segments: 1, unitsLeft: 57 },
    });
    expect(explain('hello').tables).toBeUndefined();
  });
});


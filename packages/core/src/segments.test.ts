// The `@smsv4/core/segments` entry point against the main one: the same estimator, so the same
// results for the same text and languages (names there, tables here).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STANDARD_LOCKING, STANDARD_SINGLE } from '../test/gsm-standard.js';
import * as main from './index.js';
import * as lean from './segments.js';
import type { NationalLanguage } from './text/gsm-national.js';
import { runs } from '../test/property-runs.js';

const TABLES: { readonly [L in NationalLanguage]: lean.NationalLanguageTables } = {
  turkish: lean.turkish,
  spanish: lean.spanish,
  portuguese: lean.portuguese,
  bengali: lean.bengali,
  gujarati: lean.gujarati,
  hindi: lean.hindi,
  kannada: lean.kannada,
  malayalam: lean.malayalam,
  oriya: lean.oriya,
  punjabi: lean.punjabi,
  tamil: lean.tamil,
  telugu: lean.telugu,
  urdu: lean.urdu,
};

const defaultCharacters = [...(STANDARD_LOCKING.get('default') ?? []), ...(STANDARD_SINGLE.get('default') ?? [])].filter((c): c is string => c !== undefined);
const nationalCharacters = [...new Set([...STANDARD_LOCKING.values(), ...STANDARD_SINGLE.values()].flat().filter((c): c is string => c !== undefined))];

/** Text of GSM, extension, national and non-GSM characters (substitutable ones, astral ones, a combining mark, a lone surrogate). */
const text = fc
  .array(
    fc.oneof(
      { weight: 10, arbitrary: fc.constantFrom(...defaultCharacters) },
      { weight: 10, arbitrary: fc.constantFrom(...nationalCharacters) },
      { weight: 1, arbitrary: fc.constantFrom('ж', '字', '😀', 'a\u0301', '…', '“', '½', '\u00a0', '\ud800', '\r\n') },
    ),
    { maxLength: 400 },
  )
  .map((units) => units.join(''));

/** Languages as a caller may give them: any subset, in any order, repeats included. */
const languages = fc.array(fc.constantFrom(...main.NATIONAL_LANGUAGES), { maxLength: 6 });

const options = fc.record(
  {
    referenceBits: fc.constantFrom(8 as const, 16 as const),
    graphemes: fc.boolean(),
    operator: fc.record({ textLength: fc.integer({ min: 130, max: 170 }), unicodeLength: fc.integer({ min: 60, max: 80 }), maxParts: fc.integer({ min: 1, max: 5 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

describe('@smsv4/core/segments', () => {
  it('estimates as the main entry point does, for any text and any languages', () => {
    fc.assert(
      fc.property(text, languages, options, (content, names, rest) => {
        const expected = main.estimateSegments(content, { ...rest, nationalLanguages: names });
        const actual = lean.estimateSegments(content, { ...rest, nationalLanguages: names.map((l) => TABLES[l]) });
        expect(actual).toEqual(expected);
        expect(actual.ucs2Characters).toEqual(expected.ucs2Characters);
      }),
      { numRuns: runs(300) },
    );
  });

  it('explains and ranks tables as the main entry point does, for any text and any languages', () => {
    fc.assert(
      fc.property(text, languages, options, (content, names, rest) => {
        const values = names.map((l) => TABLES[l]);
        expect(lean.explain(content, { ...rest, nationalLanguages: values })).toEqual(main.explain(content, { ...rest, nationalLanguages: names }));
        expect(lean.rankTables(content, { ...rest, nationalLanguages: values })).toEqual(main.rankTables(content, { ...rest, nationalLanguages: names }));
      }),
      { numRuns: runs(150) },
    );
  });

  it('without languages, and with no options, estimates with the default tables as the main entry point does', () => {
    fc.assert(
      fc.property(text, (content) => {
        expect(lean.estimateSegments(content)).toEqual(main.estimateSegments(content));
        expect(lean.explain(content)).toEqual(main.explain(content));
      }),
      { numRuns: runs(200) },
    );
  });

  it('uses the national tables passed in and says which', () => {
    const devanagari = 'नमस्ते, आपका कोड 4821 है।';
    expect(lean.estimateSegments(devanagari).encoding).toBe('UCS-2');
    const withHindi = lean.estimateSegments(devanagari, { nationalLanguages: [lean.hindi] });
    expect(withHindi).toMatchObject({ encoding: 'GSM', nationalTables: { locking: 'hindi', single: 'hindi' }, segments: 1 });
    expect(lean.explain(devanagari, { nationalLanguages: [lean.turkish, lean.hindi] }).tables?.chosen).toEqual({ locking: 'hindi', single: 'hindi' });
  });

  it('holds the same tables as the main entry point', () => {
    for (const language of main.NATIONAL_LANGUAGES) {
      const tables = TABLES[language];
      expect(tables.language).toBe(language);
      expect(tables.singleShiftTable).toEqual(main.SINGLE_SHIFT_TABLES[language]);
      expect(tables.lockingShiftTable).toEqual(language === 'spanish' ? undefined : main.LOCKING_SHIFT_TABLES[language]);
    }
  });

  it('refuses what is not one of its tables, and hex content, with a TypeError', () => {
    expect(() => lean.estimateSegments('hi', { nationalLanguages: ['hindi' as unknown as lean.NationalLanguageTables] })).toThrow(
      /unknown national language hindi: pass the tables of @smsv4\/core\/segments/,
    );
    const lookalike = { language: 'hindi', lockingShiftTable: [], singleShiftTable: new Map() } as unknown as lean.NationalLanguageTables;
    expect(() => lean.explain('hi', { nationalLanguages: [lookalike] })).toThrow(TypeError);
    expect(() => lean.estimateSegments('hi', { nationalLanguages: lean.hindi as unknown as lean.NationalLanguageTables[] })).toThrow('nationalLanguages must be an array');
    expect(() => lean.estimateSegments('00', { type: 'binary' } as unknown as lean.SegmentsOptions)).toThrow(/counts text; estimate binary content with @smsv4\/core/);
    expect(() => lean.estimateSegments(42 as unknown as string)).toThrow(TypeError);
    expect(() => lean.explain('hi', { substitutes: {} as ReadonlyMap<string, string> })).toThrow('explain: substitutes must be a Map');
    expect(() => lean.estimateSegments('hi', { referenceBits: 9 as 8 })).toThrow('referenceBits must be 8 or 16');
  });
});

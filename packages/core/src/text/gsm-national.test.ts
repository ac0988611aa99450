import { describe, expect, it } from 'vitest';
import { candidateCosts, DEFAULT_COSTS, LOCKING_SHIFT_TABLES, NATIONAL_LANGUAGES, SINGLE_SHIFT_TABLES, septetCost, septetCosts } from './gsm-national.js';

const cost = (tables: Parameters<typeof septetCosts>[0], char: string): number => septetCost(septetCosts(tables), char.charCodeAt(0));

describe('national language tables (TS 23.038 Annex A)', () => {
  it('has 128-position locking shift tables with no character at the escape (1B)', () => {
    for (const table of Object.values(LOCKING_SHIFT_TABLES)) {
      expect(table).toHaveLength(128);
      expect(table[0x1b]).toBeUndefined();
    }
  });

  it('lists every language as an enumerable member, each table made once and kept', () => {
    expect(Object.keys(LOCKING_SHIFT_TABLES)).toEqual(NATIONAL_LANGUAGES.filter((l) => l !== 'spanish'));
    expect(Object.keys(SINGLE_SHIFT_TABLES)).toEqual(NATIONAL_LANGUAGES);
    expect(Object.isFrozen(LOCKING_SHIFT_TABLES) && Object.isFrozen(SINGLE_SHIFT_TABLES)).toBe(true);
    for (const language of NATIONAL_LANGUAGES) {
      expect(SINGLE_SHIFT_TABLES[language]).toBe(SINGLE_SHIFT_TABLES[language]);
      if (language !== 'spanish') expect(LOCKING_SHIFT_TABLES[language]).toBe(LOCKING_SHIFT_TABLES[language]);
    }
    // Spread and JSON see plain data.
    expect({ ...LOCKING_SHIFT_TABLES }.hindi).toBe(LOCKING_SHIFT_TABLES.hindi);
    expect(JSON.parse(JSON.stringify(LOCKING_SHIFT_TABLES)).hindi[0x15]).toBe('\u0915');
  });

  it('places the Turkish and Portuguese letters at their septets', () => {
    const tr = LOCKING_SHIFT_TABLES.turkish;
    expect([tr[0x04], tr[0x07], tr[0x0b], tr[0x0c], tr[0x1c], tr[0x1d], tr[0x40], tr[0x60]].join('')).toBe('€ıĞğŞşİç');
    const pt = LOCKING_SHIFT_TABLES.portuguese;
    expect([pt[0x04], pt[0x09], pt[0x12], pt[0x15], pt[0x24], pt[0x5b], pt[0x60], pt[0x7b], pt[0x7d]].join('')).toBe('êçª∞ºÃ~ã`');
    expect(SINGLE_SHIFT_TABLES.turkish.get(0x49)).toBe('İ');
    expect(SINGLE_SHIFT_TABLES.spanish.get(0x09)).toBe('ç');
    expect(SINGLE_SHIFT_TABLES.portuguese.get(0x12)).toBe('Φ');
    // Every single shift table but the Telugu one (TS 23.038 A.2.12 leaves 0x65 empty) has the euro sign at 0x65.
    for (const [language, table] of Object.entries(SINGLE_SHIFT_TABLES)) expect(table.get(0x65)).toBe(language === 'telugu' ? undefined : '€');
  });

  it('costs one septet in the locking table, two in the single shift table, none elsewhere', () => {
    expect(cost({}, 'ş')).toBe(0);
    expect(cost({ single: 'turkish' }, 'ş')).toBe(2);
    expect(cost({ locking: 'turkish' }, 'ş')).toBe(1);
    expect(cost({ locking: 'turkish', single: 'turkish' }, 'ş')).toBe(1);
    // A character of both tables is written with the locking table.
    expect(cost({ locking: 'portuguese' }, '€')).toBe(1);
    expect(cost({ locking: 'portuguese' }, '^')).toBe(1);
    expect(cost({ locking: 'portuguese' }, '{')).toBe(2);
    // The Portuguese locking table drops letters of the default alphabet.
    expect(cost({ locking: 'portuguese' }, 'ñ')).toBe(0);
    expect(cost({ locking: 'portuguese', single: 'portuguese' }, 'Σ')).toBe(2);
    // Spanish has no locking shift table of its own: the default alphabet stands in.
    expect(septetCosts({ locking: 'spanish', single: 'spanish' })).toBe(septetCosts({ single: 'spanish' }));
    expect(cost({ single: 'spanish' }, 'ú')).toBe(2);
  });

  it('charges 3 header octets per table in use', () => {
    expect(DEFAULT_COSTS.headerOctets).toBe(0);
    expect(septetCosts({ single: 'spanish' }).headerOctets).toBe(3);
    expect(septetCosts({ locking: 'turkish', single: 'turkish' }).headerOctets).toBe(6);
  });

  it('lists the combinations to try, default tables first', () => {
    expect(candidateCosts(['spanish']).map((c) => c.tables)).toEqual([{}, { single: 'spanish' }]);
    expect(candidateCosts(['turkish', 'portuguese'])).toHaveLength(9);
    expect(candidateCosts(['turkish', 'spanish', 'portuguese'])).toHaveLength(12);
    // Every language: 13 locking shift tables (the default and 12 national) by 14 single shift tables.
    expect(candidateCosts(NATIONAL_LANGUAGES)).toHaveLength(13 * 14);
    expect(() => candidateCosts(['greek' as 'turkish'])).toThrow(TypeError);
  });
});

/**
 * Every code position of every table of TS 23.038 V18.0.0 (6.2.1, 6.2.1.1, A.2.1-A.2.13, A.3.1-A.3.13)
 * against a transcription of the standard's tables kept in a fixture, written from the standard
 * and not from this implementation.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { STANDARD_TABLE_ROWS, standardPositions } from '../../test/gsm-standard.js';
import { GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE } from './gsm-alphabet.js';
import { gsmDecode, gsmEncode } from './gsm-codec.js';
import { LOCKING_SHIFT_TABLES, NATIONAL_LANGUAGE_IDS, NATIONAL_LANGUAGES, SINGLE_SHIFT_TABLES, type NationalLanguage, type NationalTables } from './gsm-national.js';

const fixture = { tables: STANDARD_TABLE_ROWS };
type FixtureTable = (typeof STANDARD_TABLE_ROWS)[number];
const standardTable = standardPositions;

const tablesOf = (t: FixtureTable): NationalTables => (t.language === 'default' ? {} : { [t.kind]: t.language as NationalLanguage });

describe('the fixture', () => {
  it('holds the 27 tables of TS 23.038, 16 rows of 8 positions each', () => {
    expect(fixture.tables).toHaveLength(27);
    for (const t of fixture.tables) {
      expect(t.rows).toHaveLength(16);
      for (const row of t.rows) expect(row).toHaveLength(8);
    }
    const clauses = fixture.tables.map((t) => t.clause);
    for (let n = 1; n <= 13; n++) {
      expect(clauses).toContain(`A.2.${n}`);
      if (n !== 2) expect(clauses).toContain(`A.3.${n}`);
    }
    // The escape of every locking shift table, and the "1)" of every single shift table, at 0x1B.
    for (const t of fixture.tables) expect(t.rows[0xb]?.[1]).toBe(t.kind === 'locking' ? 'ESC' : '1)');
  });

  it('names the version of TS 23.038 it transcribes', () => {
    const { standard } = JSON.parse(loadFixture('standards/ts-23-038-tables.json')) as { standard: string };
    expect(standard).toMatch(/^3GPP TS 23\.038 V18\.0\.0 \(Release 18\), /);
    for (const clause of ['6.2.1', '6.2.1.1', 'A.2', 'A.3']) expect(standard).toContain(clause);
  });

  it('gives each language the identifier of TS 23.038', () => {
    for (const t of fixture.tables) if (t.language !== 'default') expect(NATIONAL_LANGUAGE_IDS[t.language as NationalLanguage]).toBe(t.id);
    expect(NATIONAL_LANGUAGES).toHaveLength(13);
  });
});

describe.each(fixture.tables.map((t) => [`${t.clause} ${t.language} ${t.kind}`, t] as const))('%s', (_, t) => {
  const standard = standardTable(t);
  const tables = tablesOf(t);

  if (t.kind === 'locking') {
    const ours: readonly (string | undefined)[] =
      t.language === 'default' ? [...GSM_DEFAULT_ALPHABET].map((c, s) => (s === 0x1b ? undefined : c)) : LOCKING_SHIFT_TABLES[t.language as Exclude<NationalLanguage, 'spanish'>];

    it('has the character of the standard at every position', () => {
      for (let s = 0; s < 128; s++) expect([s, ours[s]]).toEqual([s, standard[s]]);
    });

    it('decodes every septet to it, and encodes it back to a septet of the same character', () => {
      for (let s = 0; s < 128; s++) {
        if (s === 0x1b) continue;
        const c = standard[s];
        const decoded = gsmDecode(Uint8Array.of(s), { nationalTables: tables });
        if (c === undefined) {
          expect(decoded.ok).toBe(false);
          continue;
        }
        expect(decoded).toEqual({ ok: true, value: { text: c, substitutions: [] } });
        const septets = gsmEncode(c, { nationalTables: tables });
        expect(septets).toHaveLength(1);
        expect(standard[septets[0] as number]).toBe(c);
      }
    });
  } else {
    const ours: ReadonlyMap<number, string> = t.language === 'default' ? GSM_EXTENSION_TABLE : SINGLE_SHIFT_TABLES[t.language as NationalLanguage];

    it('has the character of the standard at every position, and nothing else', () => {
      for (let s = 0; s < 128; s++) expect([s, ours.get(s)]).toEqual([s, standard[s]]);
      expect(ours.size).toBe(standard.filter((c) => c !== undefined).length);
    });

    it('decodes every escape pair of a character to it', () => {
      for (let s = 0; s < 128; s++) {
        const c = standard[s];
        if (c === undefined) continue;
        expect([s, gsmDecode(Uint8Array.of(0x1b, s), { nationalTables: tables })]).toEqual([s, { ok: true, value: { text: c, substitutions: [] } }]);
      }
    });
  }
});

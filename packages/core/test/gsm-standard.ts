/**
 * The tables of TS 23.038 as the fixture `standards/ts-23-038-tables.json` transcribes them from the
 * standard, for tests that check the implementation against the standard (never built from the
 * implementation's own tables).
 */
import { loadFixture } from './fixtures.js';

/** One table of the fixture: 16 rows (low four bits of the septet) of 8 columns (high three bits). */
export interface StandardTableRows {
  readonly language: string;
  readonly id: number;
  readonly kind: 'locking' | 'single';
  readonly clause: string;
  readonly rows: readonly (readonly (string | null)[])[];
}

/** Every table of the fixture, in its order. */
export const STANDARD_TABLE_ROWS: readonly StandardTableRows[] = (JSON.parse(loadFixture('standards/ts-23-038-tables.json')) as { tables: StandardTableRows[] }).tables;

/** The character of each septet (index = septet); `undefined` for no character, the escape and the reserved 0x1B included. */
export function standardPositions(t: StandardTableRows): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let s = 0; s < 128; s++) {
    const cell = t.rows[s % 16]?.[s >> 4];
    out.push(cell === null || cell === undefined || cell === 'ESC' || cell === '1)' ? undefined : String.fromCodePoint(parseInt(cell, 16)));
  }
  return out;
}

/** The locking shift tables by language (`'default'` for the default alphabet; Spanish has none). */
export const STANDARD_LOCKING: ReadonlyMap<string, (string | undefined)[]> = new Map(
  STANDARD_TABLE_ROWS.filter((t) => t.kind === 'locking').map((t) => [t.language, standardPositions(t)]),
);

/** The single shift tables by language (`'default'` for the default extension table). */
export const STANDARD_SINGLE: ReadonlyMap<string, (string | undefined)[]> = new Map(
  STANDARD_TABLE_ROWS.filter((t) => t.kind === 'single').map((t) => [t.language, standardPositions(t)]),
);

/** The locking shift table a language uses (the default alphabet for `undefined` and for Spanish). */
export const lockingOf = (language: string | undefined): (string | undefined)[] =>
  STANDARD_LOCKING.get(language ?? 'default') ?? (STANDARD_LOCKING.get('default') as (string | undefined)[]);

/** The single shift table a language uses (the default extension table for `undefined`). */
export const singleOf = (language: string | undefined): (string | undefined)[] => STANDARD_SINGLE.get(language ?? 'default') as (string | undefined)[];

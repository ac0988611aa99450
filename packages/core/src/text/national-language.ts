/**
 * One language's national language shift tables as a value (`hindi`, `turkish`, ... of
 * `@smsv4/core/segments`), so that a program that counts SMS parts carries the tables of the
 * languages it passes and no others: each language is its own module-level constant, and a bundler
 * drops those a program does not import. The main entry point names languages instead
 * (`nationalLanguages: ['hindi']`) and finds their values in a registry of all of them.
 */
import { lazy } from '../lazy.js';

/** A language of India with national language shift tables (TS 23.038 identifiers 4 to 13). */
export type IndianLanguage = 'bengali' | 'gujarati' | 'hindi' | 'kannada' | 'malayalam' | 'oriya' | 'punjabi' | 'tamil' | 'telugu' | 'urdu';

/** A language with national shift tables in TS 23.038 Annex A. */
export type NationalLanguage = 'turkish' | 'spanish' | 'portuguese' | IndianLanguage;

/** The tables of one national language (TS 23.038 Annex A), each decoded on its first use. */
export class NationalLanguageTables {
  /** The language, as the estimate names it (`nationalTables`). */
  readonly language: NationalLanguage;
  readonly #locking: (() => readonly (string | undefined)[]) | undefined;
  readonly #single: () => ReadonlyMap<number, string>;

  /** Made by core only (the entry point exports the type, not the class): the estimators accept no other value. */
  constructor(language: NationalLanguage, locking: (() => readonly (string | undefined)[]) | undefined, single: () => ReadonlyMap<number, string>) {
    this.language = language;
    this.#locking = locking === undefined ? undefined : lazy(locking);
    this.#single = lazy(single);
    Object.freeze(this);
  }

  /** The locking shift table (index = septet, `undefined` where no character); `undefined` for Spanish, whose locking shift table is the default alphabet. */
  get lockingShiftTable(): readonly (string | undefined)[] | undefined {
    return this.#locking?.();
  }

  /** The single shift table (septet after the escape → character). */
  get singleShiftTable(): ReadonlyMap<number, string> {
    return this.#single();
  }
}

/**
 * National language shift tables of 3GPP TS 23.038 Annex A: Turkish (locking and single shift),
 * Spanish (single shift only: its locking shift table is the default alphabet), Portuguese, and the
 * ten languages of India (Bengali, Gujarati, Hindi, Kannada, Malayalam, Oriya, Punjabi, Tamil, Telugu
 * and Urdu, each with a locking and a single shift table, see `gsm-national-indian.ts`).
 *
 * A locking shift table replaces the default alphabet for the whole message; a single shift table
 * replaces the extension table (reached with the escape `1B`). Each table in use is announced by a
 * 3-octet information element of the user data header (IEI 25 locking, 24 single shift), so a
 * national table costs 3 header octets per part (plus the header length octet if there was no header).
 */
import {
  buildSeptetLookup,
  EXTENSION_FLAG,
  GSM_DEFAULT_ALPHABET,
  GSM_EXTENSION_TABLE,
  NONE,
  TABLE_LIMIT,
  type SeptetLookup,
} from './gsm-alphabet.js';
import { lazy } from '../lazy.js';
import { indianLockingShiftTables, indianSingleShiftTables, type IndianLanguage } from './gsm-national-indian.js';

export type { IndianLanguage } from './gsm-national-indian.js';

/** A language with national shift tables in TS 23.038 Annex A. */
export type NationalLanguage = 'turkish' | 'spanish' | 'portuguese' | IndianLanguage;

/** A language with a locking shift table of its own (every one but Spanish). */
export type LockingShiftLanguage = Exclude<NationalLanguage, 'spanish'>;

/** Every {@link NationalLanguage}, in the order of their TS 23.038 identifiers (1 to 13). */
export const NATIONAL_LANGUAGES: readonly NationalLanguage[] = [
  'turkish',
  'spanish',
  'portuguese',
  'bengali',
  'gujarati',
  'hindi',
  'kannada',
  'malayalam',
  'oriya',
  'punjabi',
  'tamil',
  'telugu',
  'urdu',
];

/** The national language identifiers of TS 23.038 6.2.1.2.4 (the value of the shift information elements). */
export const NATIONAL_LANGUAGE_IDS: { readonly [L in NationalLanguage]: number } = {
  turkish: 1,
  spanish: 2,
  portuguese: 3,
  bengali: 4,
  gujarati: 5,
  hindi: 6,
  kannada: 7,
  malayalam: 8,
  oriya: 9,
  punjabi: 10,
  tamil: 11,
  telugu: 12,
  urdu: 13,
};

/** IEI of the national language single shift element of a user data header (TS 23.040 9.2.3.24.15). */
export const IEI_NATIONAL_SINGLE_SHIFT = 0x24;
/** IEI of the national language locking shift element of a user data header (TS 23.040 9.2.3.24.16). */
export const IEI_NATIONAL_LOCKING_SHIFT = 0x25;

/** The tables a message uses; an absent member is the default alphabet / default extension table. */
export interface NationalTables {
  readonly locking?: NationalLanguage;
  readonly single?: NationalLanguage;
}

const ESC = '\u001b';

/** Turkish locking shift table (A.3.1). */
const TURKISH_LOCKING =
  `@£$¥€éùıòÇ\nĞğ\rÅåΔ_ΦΓΛΩΠΨΣΘΞ${ESC}ŞşßÉ !"#¤%&'()*+,-./0123456789:;<=>?` +
  'İABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§çabcdefghijklmnopqrstuvwxyzäöñüà';

/** Portuguese locking shift table (A.3.3). */
const PORTUGUESE_LOCKING =
  `@£$¥êéúíóç\nÔô\rÁáΔ_ªÇÀ∞^\\€Ó|${ESC}ÂâÊÉ !"#º%&'()*+,-./0123456789:;<=>?` +
  'ÍABCDEFGHIJKLMNOPQRSTUVWXYZÃÕÚÜ§~abcdefghijklmnopqrstuvwxyzãõ`üà';

/** The characters every single shift table of these languages shares with the default extension table. */
const COMMON_SINGLE: readonly (readonly [number, string])[] = [
  [0x0a, '\f'],
  [0x14, '^'],
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
  [0x65, '€'],
];

const single = (extra: readonly (readonly [number, string])[]): ReadonlyMap<number, string> =>
  new Map([...COMMON_SINGLE, ...extra].sort((a, b) => a[0] - b[0]));

/** The single shift tables of Turkish, Spanish and Portuguese beyond {@link COMMON_SINGLE}. */
const EUROPEAN_SINGLE: { readonly [L in 'turkish' | 'spanish' | 'portuguese']: readonly (readonly [number, string])[] } = {
  /** Turkish single shift table (A.2.1). */
  turkish: [
    [0x47, 'Ğ'],
    [0x49, 'İ'],
    [0x53, 'Ş'],
    [0x63, 'ç'],
    [0x67, 'ğ'],
    [0x69, 'ı'],
    [0x73, 'ş'],
  ],
  /** Spanish single shift table (A.2.2). */
  spanish: [
    [0x09, 'ç'],
    [0x41, 'Á'],
    [0x49, 'Í'],
    [0x4f, 'Ó'],
    [0x55, 'Ú'],
    [0x61, 'á'],
    [0x69, 'í'],
    [0x6f, 'ó'],
    [0x75, 'ú'],
  ],
  /** Portuguese single shift table (A.2.3). */
  portuguese: [
    [0x05, 'ê'],
    [0x09, 'ç'],
    [0x0b, 'Ô'],
    [0x0c, 'ô'],
    [0x0e, 'Á'],
    [0x0f, 'á'],
    [0x12, 'Φ'],
    [0x13, 'Γ'],
    [0x15, 'Ω'],
    [0x16, 'Π'],
    [0x17, 'Ψ'],
    [0x18, 'Σ'],
    [0x19, 'Θ'],
    [0x1f, 'Ê'],
    [0x41, 'À'],
    [0x49, 'Í'],
    [0x4f, 'Ó'],
    [0x55, 'Ú'],
    [0x5b, 'Ã'],
    [0x5c, 'Õ'],
    [0x61, 'Â'],
    [0x69, 'í'],
    [0x6f, 'ó'],
    [0x75, 'ú'],
    [0x7b, 'ã'],
    [0x7c, 'õ'],
    [0x7f, 'â'],
  ],
};

/** A 128-character table string as positions, the escape (0x1B) as `undefined`. */
const positionsOf = (table: string): readonly (string | undefined)[] => [...table].map((c, s) => (s === 0x1b ? undefined : c));

/**
 * An object with one enumerable property per language that `has` a table, each made on its first read (and kept):
 * importing core decodes no table, and a table nobody reads is never decoded.
 */
function tablesOf<L extends NationalLanguage, T>(has: (language: NationalLanguage) => language is L, make: (language: L) => T): { readonly [K in L]: T } {
  const out = {} as { [K in L]: T };
  for (const language of NATIONAL_LANGUAGES) {
    if (has(language)) Object.defineProperty(out, language, { enumerable: true, get: lazy(() => make(language)) });
  }
  return Object.freeze(out);
}

const isNational = (language: NationalLanguage): language is NationalLanguage => language !== undefined;

/** The languages of India are those after Portuguese (identifiers 4 to 13). */
const isIndian = (language: NationalLanguage): language is IndianLanguage => NATIONAL_LANGUAGES.indexOf(language) > 2;

/**
 * Locking shift tables (index = septet; `undefined` where a position holds no character, the escape
 * at 0x1B included), each decoded on first read. Spanish has none: its locking shift table is the
 * default alphabet.
 */
export const LOCKING_SHIFT_TABLES: { readonly [L in LockingShiftLanguage]: readonly (string | undefined)[] } = /* @__PURE__ */ tablesOf(
  hasLockingShift,
  (language) => (isIndian(language) ? indianLockingShiftTables()[language] : positionsOf(language === 'turkish' ? TURKISH_LOCKING : PORTUGUESE_LOCKING)),
);

/** Single shift tables (septet after the escape → character), each decoded on first read. */
export const SINGLE_SHIFT_TABLES: { readonly [L in NationalLanguage]: ReadonlyMap<number, string> } = /* @__PURE__ */ tablesOf(isNational, (language) =>
  isIndian(language) ? indianSingleShiftTables()[language] : single(EUROPEAN_SINGLE[language]),
);

/** Whether a language has a locking shift table of its own (every one but Spanish). */
export function hasLockingShift(language: NationalLanguage): language is LockingShiftLanguage {
  return language !== 'spanish';
}

/** The name of a language for messages: `'Hindi'`. */
export function languageName(language: NationalLanguage): string {
  return language.charAt(0).toUpperCase() + language.slice(1);
}

/**
 * The septet cost of each character under one combination of tables: `low[c]` for code units
 * below {@link TABLE_LIMIT}, `high` for the others; 0 = not representable, 1 = locking shift
 * table, 2 = single shift table (escape pair).
 */
export interface SeptetCosts {
  readonly tables: NationalTables;
  readonly low: Uint8Array;
  readonly high: ReadonlyMap<number, number>;
  /** Header octets the tables cost in every part (information elements only, 0 or 3 or 6). */
  readonly headerOctets: number;
  readonly lookup: SeptetLookup;
}

function costs(tables: NationalTables): SeptetCosts {
  const locking = tables.locking === undefined || !hasLockingShift(tables.locking) ? GSM_DEFAULT_ALPHABET : LOCKING_SHIFT_TABLES[tables.locking];
  const singleTable = tables.single === undefined ? GSM_EXTENSION_TABLE : SINGLE_SHIFT_TABLES[tables.single];
  const lookup = buildSeptetLookup(locking, singleTable);
  const low = new Uint8Array(TABLE_LIMIT);
  for (let c = 0; c < TABLE_LIMIT; c++) {
    const v = lookup.encodeLow[c] as number;
    low[c] = v === NONE ? 0 : v >= EXTENSION_FLAG ? 2 : 1;
  }
  const high = new Map<number, number>();
  for (const [c, v] of lookup.encodeHigh) high.set(c, v >= EXTENSION_FLAG ? 2 : 1);
  const headerOctets = (tables.locking === undefined ? 0 : 3) + (tables.single === undefined ? 0 : 3);
  return { tables, low, high, headerOctets, lookup };
}

/** The tables with the Spanish locking shift table (the default alphabet) dropped, in a fixed member order. */
function normalize(tables: NationalTables): NationalTables {
  const locking = tables.locking !== undefined && hasLockingShift(tables.locking) ? tables.locking : undefined;
  return { ...(locking === undefined ? {} : { locking }), ...(tables.single === undefined ? {} : { single: tables.single }) };
}

const key = (tables: NationalTables): string => `${tables.locking ?? ''}/${tables.single ?? ''}`;

/**
 * The costs of each combination of tables, built on first use: 13 locking (the default and 12
 * national) by 14 single shift tables would cost a few megabytes and milliseconds built all at once.
 * The cache holds derived constants only (the same tables always give the same costs).
 */
const COSTS_CACHE = new Map<string, SeptetCosts>();

/** The septet costs of the default alphabet and extension table. */
export const DEFAULT_COSTS: SeptetCosts = /* @__PURE__ */ septetCosts({});

/**
 * The septet costs of a combination of tables (a Spanish locking table is the default alphabet).
 * @throws TypeError for a language that is not a {@link NationalLanguage}.
 */
export function septetCosts(tables: NationalTables): SeptetCosts {
  for (const l of [tables.locking, tables.single]) {
    if (l !== undefined && !NATIONAL_LANGUAGES.includes(l)) throw new TypeError(`unknown national language tables ${JSON.stringify(tables)}`);
  }
  const normal = normalize(tables);
  const k = key(normal);
  let found = COSTS_CACHE.get(k);
  if (found === undefined) {
    found = costs(normal);
    COSTS_CACHE.set(k, found);
  }
  return found;
}

/** The languages of a list, checked and without repeats. */
function checkedLanguages(languages: readonly NationalLanguage[]): NationalLanguage[] {
  const enabled = new Set<NationalLanguage>();
  for (const l of languages) {
    if (!NATIONAL_LANGUAGES.includes(l)) throw new TypeError(`unknown national language ${String(l)}: use ${NATIONAL_LANGUAGES.join(', ')}`);
    enabled.add(l);
  }
  return [...enabled];
}

/**
 * The combinations to try when the given languages are enabled: the default tables first, then
 * each enabled locking shift table (and the default alphabet) with each enabled single shift table
 * (and the default extension table), in the order the languages are given.
 * @throws TypeError for a language that is not a {@link NationalLanguage}.
 */
export function candidateCosts(languages: readonly NationalLanguage[]): SeptetCosts[] {
  const enabled = checkedLanguages(languages);
  const lockings: (NationalLanguage | undefined)[] = [undefined, ...enabled.filter(hasLockingShift)];
  const singles: (NationalLanguage | undefined)[] = [undefined, ...enabled];
  const out: SeptetCosts[] = [];
  for (const locking of lockings) {
    for (const s of singles) out.push(septetCosts({ ...(locking === undefined ? {} : { locking }), ...(s === undefined ? {} : { single: s }) }));
  }
  return out;
}

/** The septet cost (0 = not representable) of UTF-16 code unit `c` under a combination of tables. */
export function septetCost(costs: SeptetCosts, c: number): number {
  return c < TABLE_LIMIT ? (costs.low[c] as number) : (costs.high.get(c) ?? 0);
}

/** The language of a TS 23.038 national language identifier, or `undefined` for an identifier it does not define. */
export function nationalLanguageOfId(id: number): NationalLanguage | undefined {
  return NATIONAL_LANGUAGES[id - 1];
}

/**
 * The tables announced by the national language shift elements of a user data header (identifiers
 * as `parseUserDataHeader` gives them). An identifier TS 23.038 does not define (0, or above 13)
 * selects the default table, as a receiver that does not know the language would; it is listed in
 * `unknownIds`.
 */
export function nationalTablesOfIds(shift: { readonly single?: number; readonly locking?: number }): { tables: NationalTables; unknownIds: number[] } {
  const unknownIds: number[] = [];
  const language = (id: number | undefined): NationalLanguage | undefined => {
    if (id === undefined) return undefined;
    const l = nationalLanguageOfId(id);
    if (l === undefined) unknownIds.push(id);
    return l;
  };
  const locking = language(shift.locking);
  const single = language(shift.single);
  return { tables: normalize({ ...(locking === undefined ? {} : { locking }), ...(single === undefined ? {} : { single }) }), unknownIds };
}

/** Whether the tables are the default alphabet and extension table. */
export function isDefaultTables(tables: NationalTables | undefined): boolean {
  return tables === undefined || (normalize(tables).locking === undefined && tables.single === undefined);
}

/**
 * The Indian national language shift tables of 3GPP TS 23.038 Annex A: Bengali, Gujarati, Hindi,
 * Kannada, Malayalam, Oriya, Punjabi, Tamil, Telugu and Urdu (language identifiers 4 to 13), each a
 * locking shift table (A.3.4 to A.3.13) and a single shift table (A.2.4 to A.2.13).
 *
 * The tables are written as the standard prints them, with these readings where printings differ
 * (the tests check every position against a transcription of the standard that lists them too):
 * - position 0x2C of every locking shift table is a comma;
 * - Oriya locking 0x47 is U+0B33; Tamil and Telugu locking 0x11 hold no character;
 * - Punjabi single 0x23 is U+0A6D, Tamil single 0x24 is U+0BEE, Telugu single 0x22 and 0x23 are
 *   U+0C6C and U+0C6D (the digits in their places);
 * - the Telugu single shift table has no euro sign and no danda (0x65, 0x19 and 0x1A are empty);
 * - characters printed twice keep both places (Kannada locking U+0CAA at 0x24 and 0x3D, `¡` at
 *   0x13 and 0x15 and `*` at 0x0B and 0x18 of the single shift tables).
 *
 * How they are written, compactly (a browser bundle that counts SMS parts carries them) yet so that
 * each can be read against the standard:
 * - A locking shift table is the base of its Unicode block and its 8 rows of 16 positions (septets
 *   0x00-0x0F, 0x10-0x1F, ...), one token per position: two hex digits are the character at that
 *   offset from the base (`15` in the Devanagari table, base U+0900, is U+0915); a single character
 *   is itself (punctuation, digits, Latin small letters); `LF`, `CR` and `SP` are line feed,
 *   carriage return and space; `--` is no character (the escape at 0x1B included). The scripts of
 *   India share one layout in Unicode, so the tables read alike from one language to the next.
 * - A single shift table is {@link INDIAN_SINGLE_FRAME}, the positions every one of them shares,
 *   and runs of code points, each from a septet: `1C: 966-96F 951` is U+0966 to U+096F at septets
 *   0x1C to 0x25, then U+0951 at 0x26.
 * Each table is decoded on its first use, and checked as it is (a malformed table throws). Each
 * language is its own constant (`hindi`, ...), so that a bundle of `@smsv4/core/segments` holds only
 * the languages a program passes.
 */
import { NationalLanguageTables, type IndianLanguage } from './national-language.js';

export type { IndianLanguage } from './national-language.js';

/** A locking shift table: the base of the Unicode block, and the 8 rows of tokens (see the module). */
type LockingRows = readonly [base: number, rows: readonly string[]];

/** A.3.4, Bengali block. */
const BENGALI_LOCKING: LockingRows = [
  0x980,
  [
    '01 02 03 05 06 07 08 09 0A 0B LF 0C -- CR -- 0F',
    '10 -- -- 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 -- 32 -- -- -- 36 37 38 39 3C 3D',
    '3E 3F 40 41 42 43 44 -- -- 47 48 -- -- 4B 4C 4D',
    '4E a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 57 5C 5D 70 71',
  ],
];

/** A.3.5, Gujarati block. */
const GUJARATI_LOCKING: LockingRows = [
  0xa80,
  [
    '01 02 03 05 06 07 08 09 0A 0B LF 0C 0D CR -- 0F',
    '10 11 -- 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 -- 32 33 -- 35 36 37 38 39 3C 3D',
    '3E 3F 40 41 42 43 44 45 -- 47 48 49 -- 4B 4C 4D',
    '50 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 60 61 62 63 71',
  ],
];

/** A.3.6, Devanagari block. */
const HINDI_LOCKING: LockingRows = [
  0x900,
  [
    '01 02 03 05 06 07 08 09 0A 0B LF 0C 0D CR 0E 0F',
    '10 11 12 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; 29 2A 2B ?',
    '2C 2D 2E 2F 30 31 32 33 34 35 36 37 38 39 3C 3D',
    '3E 3F 40 41 42 43 44 45 46 47 48 49 4A 4B 4C 4D',
    '50 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 72 7B 7C 7E 7F',
  ],
];

/** A.3.7, Kannada block. */
const KANNADA_LOCKING: LockingRows = [
  0xc80,
  [
    '-- 02 03 05 06 07 08 09 0A 0B LF 0C -- CR 0E 0F',
    '10 -- 12 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 2A 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 31 32 33 -- 35 36 37 38 39 3C 3D',
    '3E 3F 40 41 42 43 44 -- 46 47 48 -- 4A 4B 4C 4D',
    '55 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 56 60 61 62 63',
  ],
];

/** A.3.8, Malayalam block. */
const MALAYALAM_LOCKING: LockingRows = [
  0xd00,
  [
    '-- 02 03 05 06 07 08 09 0A 0B LF 0C -- CR 0E 0F',
    '10 -- 12 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 31 32 33 34 35 36 37 38 39 -- 3D',
    '3E 3F 40 41 42 43 44 -- 46 47 48 -- 4A 4B 4C 4D',
    '57 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 60 61 62 63 79',
  ],
];

/** A.3.9, Oriya block. */
const ORIYA_LOCKING: LockingRows = [
  0xb00,
  [
    '01 02 03 05 06 07 08 09 0A 0B LF 0C -- CR -- 0F',
    '10 -- -- 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 -- 32 33 -- 35 36 37 38 39 3C 3D',
    '3E 3F 40 41 42 43 44 -- -- 47 48 -- -- 4B 4C 4D',
    '56 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 57 60 61 62 63',
  ],
];

/** A.3.10, Gurmukhi block. */
const PUNJABI_LOCKING: LockingRows = [
  0xa00,
  [
    '01 02 03 05 06 07 08 09 0A -- LF -- -- CR -- 0F',
    '10 -- -- 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 -- 32 33 -- 35 36 -- 38 39 3C --',
    '3E 3F 40 41 42 -- -- -- -- 47 48 -- -- 4B 4C 4D',
    '51 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 70 71 72 73 74',
  ],
];

/** A.3.11, Tamil block. */
const TAMIL_LOCKING: LockingRows = [
  0xb80,
  [
    '-- 02 03 05 06 07 08 09 0A -- LF -- -- CR 0E 0F',
    '10 -- 12 13 14 15 -- -- -- 19 1A -- -- 1C -- 1E',
    'SP ! 1F -- -- -- 23 24 ) ( -- -- , -- . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; 29 2A -- ?',
    '-- -- 2E 2F 30 31 32 33 34 35 36 37 38 39 -- --',
    '3E 3F 40 41 42 -- -- -- 46 47 48 -- 4A 4B 4C 4D',
    '50 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 57 70 71 72 79',
  ],
];

/** A.3.12, Telugu block. */
const TELUGU_LOCKING: LockingRows = [
  0xc00,
  [
    '01 02 03 05 06 07 08 09 0A 0B LF 0C -- CR 0E 0F',
    '10 -- 12 13 14 15 16 17 18 19 1A -- 1B 1C 1D 1E',
    'SP ! 1F 20 21 22 23 24 ) ( 25 26 , 27 . 28',
    '0 1 2 3 4 5 6 7 8 9 : ; -- 2A 2B ?',
    '2C 2D 2E 2F 30 31 32 33 -- 35 36 37 38 39 -- 3D',
    '3E 3F 40 41 42 43 44 -- 46 47 48 -- 4A 4B 4C 4D',
    '55 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 56 60 61 62 63',
  ],
];

/** A.3.13, Arabic block. */
const URDU_LOCKING: LockingRows = [
  0x600,
  [
    '27 22 28 7B 80 7E A6 2A C2 7F LF 79 7D CR 7A 7C',
    '2B 2C 81 84 83 85 86 87 2D 2E 2F -- 8C 88 89 8A',
    'SP ! 8F 8D 30 31 91 93 ) ( 99 32 , 96 . 98',
    '0 1 2 3 4 5 6 7 8 9 : ; 9A 33 34 ?',
    '35 36 37 38 39 41 42 A9 AA AB AF B3 B1 44 45 46',
    'BA BB BC 48 C4 D5 C1 BE 21 CC D0 D2 4D 50 4F 57',
    '54 a b c d e f g h i j k l m n o',
    'p q r s t u v w x y z 55 51 53 56 70',
  ],
];

/**
 * The positions every Indian single shift table shares: the symbols of the default alphabet's first
 * columns, the default extension characters and the capital letters. 0x0D and 0x1B hold no
 * character; the euro sign (0x65, in all but Telugu) is listed with each table.
 */
const INDIAN_SINGLE_FRAME = '@£$¥¿"¤%&\'\f*+\0-/<=>¡^¡_#*';
/** Septet → the character of {@link INDIAN_SINGLE_FRAME} at index 0x00-0x18, and the others. */
const FRAME_OTHERS: readonly (readonly [number, string])[] = [
  [0x28, '{'],
  [0x29, '}'],
  [0x2f, '\\'],
  [0x3c, '['],
  [0x3d, '~'],
  [0x3e, ']'],
  [0x40, '|'],
];

// The single shift tables beyond the shared positions: runs of code points (hex), each from a septet (see the module).

/** A.2.4. */
const BENGALI_SINGLE = '19: 9E6 9E7, 1C: 9E8-9EF 9DF-9E2, 2A: 9E3 9F2-9F5, 30: 9F6-9FA, 65: 20AC';
/** A.2.5. */
const GUJARATI_SINGLE = '19: 964 965, 1C: AE6-AEF, 65: 20AC';
/** A.2.6. */
const HINDI_SINGLE = '19: 964 965, 1C: 966-96F 951 952, 2A: 953 954 958-95A, 30: 95B-963 970 971, 65: 20AC';
/** A.2.7. */
const KANNADA_SINGLE = '19: 964 965, 1C: CE6-CEF CDE CF1, 2A: CF2, 65: 20AC';
/** A.2.8. */
const MALAYALAM_SINGLE = '19: 964 965, 1C: D66-D71, 2A: D72-D75 D7A, 30: D7B-D7F, 65: 20AC';
/** A.2.9. */
const ORIYA_SINGLE = '19: 964 965, 1C: B66-B6F B5C B5D, 2A: B5F B70 B71, 65: 20AC';
/** A.2.10. */
const PUNJABI_SINGLE = '19: 964 965, 1C: A66-A6F A59 A5A, 2A: A5B A5C A5E A75, 65: 20AC';
/** A.2.11. */
const TAMIL_SINGLE = '19: 964 965, 1C: BE6-BEF BF3 BF4, 2A: BF5-BF8 BFA, 65: 20AC';
/** A.2.12. */
const TELUGU_SINGLE = '1C: C66-C6F C58 C59, 2A: C78-C7C, 30: C7D-C7F';
/** A.2.13. */
const URDU_SINGLE = '19: 600 601, 1C: 6F0-6F9 60C 60D, 2A: 60E-612, 30: 613 614 61B 61F 640 652 658 66B 66C 672 673 6CD, 3F: 6D4, 65: 20AC';

const NAMED: Readonly<Record<string, string>> = { LF: '\n', CR: '\r', SP: ' ' };

function hex(digits: string): number {
  if (!/^[0-9A-F]{2,4}$/.test(digits)) throw new TypeError(`not a hex token of a shift table: ${digits}`);
  return parseInt(digits, 16);
}

/** A locking shift table, index = septet, `undefined` where no character. */
function lockingTable([base, rows]: readonly [number, readonly string[]]): (string | undefined)[] {
  const tokens = rows.flatMap((row) => row.split(' '));
  if (rows.length !== 8 || tokens.length !== 128) throw new TypeError(`a locking shift table has 8 rows of 16 positions, not ${tokens.length} positions`);
  return tokens.map((t) => (t.length === 1 ? t : t === '--' ? undefined : (NAMED[t] ?? String.fromCharCode(base + hex(t)))));
}

/** A single shift table: septet → character. */
function singleTable(runs: string): ReadonlyMap<number, string> {
  // 0x0D holds no character: its `\0` in the frame only keeps the places.
  const entries = [...INDIAN_SINGLE_FRAME].map((c, s): [number, string] => [s, c]).filter(([, c]) => c !== '\0');
  entries.push(...FRAME_OTHERS.map(([s, c]): [number, string] => [s, c]));
  for (let s = 0x41; s <= 0x5a; s++) entries.push([s, String.fromCharCode(s)]);
  for (const run of runs.split(', ')) {
    const [at = '', list = ''] = run.split(': ');
    let s = hex(at);
    for (const range of list.split(' ')) {
      const [from = '', to = from] = range.split('-');
      for (let cp = hex(from); cp <= hex(to); cp++) entries.push([s++, String.fromCharCode(cp)]);
    }
  }
  const map = new Map(entries.sort((a, b) => a[0] - b[0]));
  if (map.size !== entries.length) throw new TypeError('a single shift table lists a septet twice');
  return map;
}

/** The tables of one language of India, each decoded on its first use. */
const indian = (language: IndianLanguage, locking: LockingRows, single: string): NationalLanguageTables =>
  new NationalLanguageTables(language, () => lockingTable(locking), () => singleTable(single));

/** The national language shift tables of Bengali. */
export const bengali = /* @__PURE__ */ indian('bengali', BENGALI_LOCKING, BENGALI_SINGLE);
/** The national language shift tables of Gujarati. */
export const gujarati = /* @__PURE__ */ indian('gujarati', GUJARATI_LOCKING, GUJARATI_SINGLE);
/** The national language shift tables of Hindi. */
export const hindi = /* @__PURE__ */ indian('hindi', HINDI_LOCKING, HINDI_SINGLE);
/** The national language shift tables of Kannada. */
export const kannada = /* @__PURE__ */ indian('kannada', KANNADA_LOCKING, KANNADA_SINGLE);
/** The national language shift tables of Malayalam. */
export const malayalam = /* @__PURE__ */ indian('malayalam', MALAYALAM_LOCKING, MALAYALAM_SINGLE);
/** The national language shift tables of Oriya. */
export const oriya = /* @__PURE__ */ indian('oriya', ORIYA_LOCKING, ORIYA_SINGLE);
/** The national language shift tables of Punjabi. */
export const punjabi = /* @__PURE__ */ indian('punjabi', PUNJABI_LOCKING, PUNJABI_SINGLE);
/** The national language shift tables of Tamil. */
export const tamil = /* @__PURE__ */ indian('tamil', TAMIL_LOCKING, TAMIL_SINGLE);
/** The national language shift tables of Telugu. */
export const telugu = /* @__PURE__ */ indian('telugu', TELUGU_LOCKING, TELUGU_SINGLE);
/** The national language shift tables of Urdu. */
export const urdu = /* @__PURE__ */ indian('urdu', URDU_LOCKING, URDU_SINGLE);

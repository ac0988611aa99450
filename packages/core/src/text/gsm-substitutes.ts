/**
 * GSM substitutes: characters outside the GSM 03.38 alphabet that word processors and templates
 * bring in, each with a replacement in the alphabet that reads the same. One of these in a message
 * switches it to UCS-2 (70 characters a part instead of 160). Letters are never substituted
 * (changing `ç` to `c` changes the text); only typography is.
 *
 * | characters | replacement |
 * | --- | --- |
 * | ‘ ’ ‚ ‛ ′ ‹ › ´ ` (U+2018, U+2019, U+201A, U+201B, U+2032, U+2039, U+203A, U+00B4, U+0060) | `'` |
 * | “ ” „ ‟ ″ « » (U+201C, U+201D, U+201E, U+201F, U+2033, U+00AB, U+00BB) | `"` |
 * | ‐ ‑ ‒ – — ― − ﹘ ﹣ (U+2010-U+2015, U+2212, U+FE58, U+FE63) and • (U+2022) | `-` |
 * | … ‥ ․ (U+2026, U+2025, U+2024) | `...` `..` `.` |
 * | no-break, thin, figure, ideographic and other spaces (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000) and tab | space |
 * | zero-width space, non-joiner, joiner, word joiner, byte order mark, soft hyphen (U+200B, U+200C, U+200D, U+2060, U+FEFF, U+00AD) | removed |
 * | line and paragraph separators, next line (U+2028, U+2029, U+0085) | line feed |
 * | ˆ ˜ ¦ ⁄ ∕ (U+02C6, U+02DC, U+00A6, U+2044, U+2215) | `^` `~` `\|` `/` `/` |
 * | full-width forms of ASCII characters in the alphabet (U+FF01-U+FF5E) | the ASCII character |
 */
import { GSM_DEFAULT, NONE, septetOf } from './gsm-alphabet.js';

const entries: (readonly [string, string])[] = [
  ...[...'\u2018\u2019\u201a\u201b\u2032\u2039\u203a\u00b4`'].map((c) => [c, "'"] as const),
  ...[...'\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb'].map((c) => [c, '"'] as const),
  ...[...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\u2022'].map((c) => [c, '-'] as const),
  ['\u2026', '...'],
  ['\u2025', '..'],
  ['\u2024', '.'],
  ...[...'\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t'].map((c) => [c, ' '] as const),
  ...[...'\u200b\u200c\u200d\u2060\ufeff\u00ad'].map((c) => [c, ''] as const),
  ...[...'\u2028\u2029\u0085'].map((c) => [c, '\n'] as const),
  ['\u02c6', '^'],
  ['\u02dc', '~'],
  ['\u00a6', '|'],
  ['\u2044', '/'],
  ['\u2215', '/'],
];
for (let cp = 0xff01; cp <= 0xff5e; cp++) {
  const ascii = cp - 0xfee0;
  if (septetOf(GSM_DEFAULT, ascii) !== NONE) entries.push([String.fromCharCode(cp), String.fromCharCode(ascii)]);
}

/** Character outside the GSM alphabet → its GSM replacement (possibly empty: the character is dropped). */
export const GSM_SUBSTITUTES: ReadonlyMap<string, string> = new Map(entries);

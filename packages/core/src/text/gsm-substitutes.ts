/**
 * GSM substitutes: characters outside the GSM 03.38 alphabet that word processors, templates and
 * phones bring in, each with a replacement in the alphabet that reads the same. One of these in a
 * message switches it to UCS-2 (70 characters a part instead of 160). Letters are never
 * substituted (changing `ç` to `c` changes the text); only typography is. {@link explain} offers
 * them (it never applies them by itself); the README shows the same table.
 *
 * | characters | replacement |
 * | --- | --- |
 * | ‘ ’ ‚ ‛ ′ ‵ ‹ › ´ ` ʹ ʻ ʼ ʽ ˈ ˊ ˋ ❛ ❜ (single quotes, primes, accents used as apostrophes) | `'` |
 * | “ ” „ ‟ ″ ‶ « » ʺ ˮ ❝ ❞ 〝 〞 (double quotes and double primes) | `"` |
 * | ‐ ‑ ‒ – — ― ⸺ ⸻ − ˗ ﹘ ﹣ (hyphens, dashes, minus) | `-` |
 * | • ‣ ◦ ⁃ ∙ · ● ▪ (bullets, middle dot) | `-` |
 * | … ‥ ․ (ellipsis, two- and one-dot leaders) | `...` `..` `.` |
 * | ¼ ½ ¾ ⅐ ⅑ ⅒ ⅓ ⅔ ⅕ ⅖ ⅗ ⅘ ⅙ ⅚ ⅛ ⅜ ⅝ ⅞ (vulgar fractions) | `1/4` `1/2` `3/4` … (after a digit, with a space: `1½` → `1 1/2`) |
 * | ™ ℠ © ® | `TM` `SM` `(C)` `(R)` |
 * | × ÷ | `x` `/` |
 * | ‼ ⁇ ⁈ ⁉ | `!!` `??` `?!` `!?` |
 * | ⁄ ∕ ⧸ (fraction slash, division slash, big solidus) | `/` |
 * | ⧵ ⧹ (reverse solidus operator, big reverse solidus) | `\` |
 * | ¦ ∣ (broken bar, divides) and ‖ (double vertical line) | `\|` and `\|\|` |
 * | ‗ (double low line) | `_` |
 * | ˆ ‸ (modifier circumflex, caret) | `^` |
 * | ˜ ˷ ∼ (small tilde, modifier low tilde, tilde operator) | `~` |
 * | ː ˸ ∶ (modifier colons, ratio) and ; (Greek question mark, the same character as `;`) | `:` and `;` |
 * | ∗ ⁎ (asterisk operator, low asterisk) | `*` |
 * | ❨ ❩ ❪ ❫ ❬ ❭ ❮ ❯ ❰ ❱ ❲ ❳ ❴ ❵ (ornament brackets, U+2768-U+2775) | `(` `)` `(` `)` `<` `>` `<` `>` `<` `>` `[` `]` `{` `}` |
 * | small form variants U+FE50-U+FE6B: ﹐ ﹑ ﹒ ﹔ ﹕ ﹖ ﹗ ﹙ ﹚ ﹛ ﹜ ﹝ ﹞ ﹟ ﹠ ﹡ ﹢ ﹤ ﹥ ﹦ ﹨ ﹩ ﹪ ﹫ (and ﹘ ﹣ above) | `,` `,` `.` `;` `:` `?` `!` `(` `)` `{` `}` `[` `]` `#` `&` `*` `+` `<` `>` `=` `\` `$` `%` `@` |
 * | vertical presentation forms ︐ ︑ ︒ ︓ ︔ ︕ ︖ (U+FE10-U+FE16) | `,` `,` `.` `:` `;` `!` `?` |
 * | ₹ (Indian rupee sign) | `Rs` |
 * | no-break, thin, figure, ideographic and other spaces (U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000) and tab | space |
 * | zero-width space, non-joiner, joiner, word joiner, byte order mark, soft hyphen, Mongolian vowel separator, left-to-right and right-to-left marks (U+200B, U+200C, U+200D, U+2060, U+FEFF, U+00AD, U+180E, U+200E, U+200F) | removed |
 * | line and paragraph separators, next line (U+2028, U+2029, U+0085) | line feed |
 * | full-width forms of ASCII characters in the alphabet (U+FF01-U+FF5E) | the ASCII character |
 *
 * Not substituted: combining marks (U+0300-U+036F and the like, even those some tools turn into an
 * apostrophe or a slash: they belong to the letter before them), superscripts and subscripts (`m²`
 * is not `m2`), letters of any script, and currency signs other than ₹. ₹ is offered as `Rs`, the
 * abbreviation Indian banks and shops write in SMS (`Rs 500`), because India is the market where a
 * rupee amount most often pushes a message into UCS-2; like every substitute it is only offered
 * (`explain`'s `substituted` is a suggestion; its estimate is of the text as it is).
 */
import { GSM_DEFAULT, NONE, septetOf } from './gsm-alphabet.js';

const each = (chars: string, replacement: string): (readonly [string, string])[] => [...chars].map((c) => [c, replacement] as const);

/** The substitutes, as the table above lists them. */
function substituteEntries(): (readonly [string, string])[] {
  const entries: (readonly [string, string])[] = [
    ...each('\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a\u00b4`\u02b9\u02bb\u02bc\u02bd\u02c8\u02ca\u02cb\u275b\u275c', "'"),
    ...each('\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\u02ba\u02ee\u275d\u275e\u301d\u301e', '"'),
    ...each('\u2010\u2011\u2012\u2013\u2014\u2015\u2e3a\u2e3b\u2212\u02d7\ufe58\ufe63', '-'),
    ...each('\u2022\u2023\u25e6\u2043\u2219\u00b7\u25cf\u25aa', '-'),
    ['\u2026', '...'],
    ['\u2025', '..'],
    ['\u2024', '.'],
    ['\u00bc', '1/4'],
    ['\u00bd', '1/2'],
    ['\u00be', '3/4'],
    // U+2150 to U+215E, in code point order.
    ...'1/7 1/9 1/10 1/3 2/3 1/5 2/5 3/5 4/5 1/6 5/6 1/8 3/8 5/8 7/8'.split(' ').map((f, i) => [String.fromCharCode(0x2150 + i), f] as const),
    ['\u2122', 'TM'],
    ['\u00a9', '(C)'],
    ['\u00ae', '(R)'],
    ['\u00d7', 'x'],
    ['\u00f7', '/'],
    ['\u203c', '!!'],
    ['\u2047', '??'],
    ['\u2048', '?!'],
    ['\u2049', '!?'],
    ...each('\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t', ' '),
    ...each('\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e', ''),
    ...each('\u2028\u2029\u0085', '\n'),
    ['\u2120', 'SM'],
    ...each('\u2044\u2215\u29f8', '/'),
    ...each('\u29f5\u29f9', '\\'),
    ...each('\u00a6\u2223', '|'),
    ['\u2016', '||'],
    ['\u2017', '_'],
    ...each('\u02c6\u2038', '^'),
    ...each('\u02dc\u02f7\u223c', '~'),
    ...each('\u02d0\u02f8\u2236', ':'),
    ['\u037e', ';'],
    ...each('\u2217\u204e', '*'),
    ['\u20b9', 'Rs'],
    ...each('\u200e\u200f', ''),
  ];
  // Ornament brackets (U+2768-U+2775), small form variants (U+FE50-U+FE6B) and vertical
  // presentation forms (U+FE10-U+FE16), each position its ASCII counterpart; a space where there
  // is none (reserved).
  // U+FE58 and U+FE63 are dashes, listed with the others above.
  const forms = (first: number, ascii: string): void => {
    [...ascii].forEach((c, i) => {
      if (c !== ' ') entries.push([String.fromCharCode(first + i), c]);
    });
  };
  forms(0x2768, '()()<><><>[]{}');
  forms(0xfe50, ',,. ;:?! (){}[]#&*+ <>= \\$%@');
  forms(0xfe10, ',,.:;!?');
  for (let cp = 0xff01; cp <= 0xff5e; cp++) {
    const ascii = cp - 0xfee0;
    if (septetOf(GSM_DEFAULT, ascii) !== NONE) entries.push([String.fromCharCode(cp), String.fromCharCode(ascii)]);
  }
  return entries;
}

/** Character outside the GSM alphabet → its GSM replacement (possibly empty: the character is dropped). */
export const GSM_SUBSTITUTES: ReadonlyMap<string, string> = /* @__PURE__ */ new Map(substituteEntries());

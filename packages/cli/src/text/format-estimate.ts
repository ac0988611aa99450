/** How estimates, explanations and lint results read on a terminal. */
import type { Explanation, ForcedCharacter, SegmentEstimate, Substitution, TableChoice } from '@smsv4/core';
import type { Colors } from '../terminal/colors.js';

const UNIT_NAMES: Readonly<Record<SegmentEstimate['unit'], readonly [one: string, many: string]>> = {
  septet: ['septet', 'septets'],
  'utf16-unit': ['UTF-16 unit', 'UTF-16 units'],
  octet: ['octet', 'octets'],
};

const ENCODING_NAMES: Readonly<Record<SegmentEstimate['encoding'], string>> = {
  GSM: 'GSM 03.38 (7-bit)',
  'UCS-2': 'UCS-2 (UTF-16)',
  '8-bit': '8-bit data',
};

/** `1 septet`, `2 septets`. */
export function units(count: number, unit: SegmentEstimate['unit']): string {
  const [one, many] = UNIT_NAMES[unit];
  return `${count} ${count === 1 ? one : many}`;
}

/** `1 part`, `3 parts`. */
export const parts = (count: number): string => `${count} ${count === 1 ? 'part' : 'parts'}`;

const INVISIBLE = /^[\p{C}\p{Z}\p{M}]/u;

/** A character as a person can read it: itself (or its escape) and its code point. */
export function showChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f) return `${JSON.stringify(char).slice(1, -1)} ${hex}`;
  // Invisible or combining on its own (joiners, marks, odd spaces): the code point alone says it.
  return INVISIBLE.test(char) && char !== ' ' ? hex : `${char} ${hex}`;
}

/** `’ U+2019 ×2 (first at 14)` for each character. */
export function forcedList(characters: readonly ForcedCharacter[]): string {
  return characters.map(({ char, index, count }) => `${showChar(char)}${count > 1 ? ` ×${count}` : ''} (at ${index})`).join(', ');
}

/** `’ → '` for each distinct substitution, with its count. */
export function substitutionList(substitutions: readonly Substitution[]): string {
  const counts = new Map<string, { replacement: string; count: number }>();
  for (const { char, replacement } of substitutions) {
    const seen = counts.get(char);
    if (seen === undefined) counts.set(char, { replacement, count: 1 });
    else seen.count++;
  }
  return [...counts].map(([char, { replacement, count }]) => `${showChar(char)} → ${JSON.stringify(replacement)}${count > 1 ? ` ×${count}` : ''}`).join(', ');
}

const row = (label: string, value: string): string => `${label.padEnd(17)}${value}\n`;

/**
 * What the text costs with no national table and with each enabled language alone:
 * `no national table: UCS-2, 2 parts · hindi: GSM, 1 part, saves 1 part · bengali: UCS-2, 2 parts, saves no part`.
 */
export function languageCosts(tables: TableChoice, colors: Colors): string {
  const plain = tables.withoutNationalTables;
  const each = tables.languages.map(({ language, encoding, segments, segmentsSaved }) => {
    const saved = segmentsSaved > 0 ? colors.green(`saves ${parts(segmentsSaved)}`) : 'saves no part';
    return `${language}: ${encoding}, ${parts(segments)}, ${saved}`;
  });
  return [`no national table: ${plain.encoding}, ${parts(plain.segments)}`, ...each].join(' · ');
}

/** `2 at 3, 10: …`: where the lone surrogates are and what follows. */
export function loneSurrogateList(indexes: readonly number[]): string {
  const what = indexes.length === 1 ? 'half of a surrogate pair, no character' : 'halves of surrogate pairs, no characters';
  return `${indexes.length} at ${indexes.join(', ')}: ${what}; no request can carry the text, fix it first`;
}

/** The lines of an estimate (`smsv4 segments`), with the substitutions of an explanation when given. */
export function formatEstimate(estimate: SegmentEstimate, colors: Colors, explanation?: Explanation): string {
  const { unit } = estimate;
  let out = row('Encoding', colors.bold(ENCODING_NAMES[estimate.encoding]));
  const capacity =
    estimate.segments === 1
      ? `${units(estimate.singlePartCapacity, unit)} in a single part`
      : `${units(estimate.multipartCapacity, unit)} each (${units(estimate.singlePartCapacity, unit)} in a single part)`;
  out += row('Parts', `${colors.bold(parts(estimate.segments))}, ${capacity}`);
  out += row('Length', units(estimate.units, unit));
  out += row('Left', `${units(estimate.unitsLeft, unit)} in the last part`);
  if (estimate.headerOctets > 0) out += row('Header', `${estimate.headerOctets} octets of user data header in each part`);
  if (estimate.nationalTables !== undefined) {
    const { locking, single } = estimate.nationalTables;
    out += row('National', [locking && `locking shift ${locking}`, single && `single shift ${single}`].filter(Boolean).join(', '));
  }
  if (explanation?.tables !== undefined) {
    out += row('Table choice', explanation.tables.reason);
    out += row('Each language', languageCosts(explanation.tables, colors));
  }
  if (estimate.graphemes?.changed) out += row('Graphemes', `kept whole: ${parts(estimate.segments)} instead of ${estimate.graphemes.segmentsWithoutGraphemes}`);
  if (estimate.ucs2Characters.length > 0) out += row('UCS-2 forced by', colors.yellow(forcedList(estimate.ucs2Characters)));
  if (estimate.loneSurrogates !== undefined) out += row('Lone surrogates', colors.red(loneSurrogateList(estimate.loneSurrogates)));
  if (explanation !== undefined && explanation.substitutions.length > 0) {
    const saved = explanation.segmentsSaved;
    const verdict =
      saved > 0
        ? colors.green(`saves ${parts(saved)} (${parts(explanation.substitutedEstimate.segments)}, ${explanation.substitutedEstimate.encoding})`)
        : `saves no part (${explanation.substitutedEstimate.encoding}, ${parts(explanation.substitutedEstimate.segments)})`;
    out += row('Substitutions', `${substitutionList(explanation.substitutions)}: ${verdict}`);
  }
  if (explanation !== undefined && explanation.unsubstitutable.length > 0) out += row('No substitute', forcedList(explanation.unsubstitutable));
  if (estimate.maxParts !== undefined) {
    const within = estimate.segments <= estimate.maxParts;
    out += row('Operator', `takes at most ${parts(estimate.maxParts)}: ${within ? colors.green('within') : colors.red('beyond')}`);
  }
  const { reject, truncate, segment } = estimate.mlc;
  const mlc = [
    `reject ${reject.accepted ? colors.green('accepted') : colors.red('refused')}`,
    `truncate ${truncate.truncated ? colors.yellow(`cut to ${units(truncate.units, unit)}`) : 'whole'}`,
    `segment ${segment.accepted ? colors.green(parts(segment.segments)) : colors.red('refused')}`,
  ];
  out += row('mlc', mlc.join(' · '));
  return out;
}

/** The lines of an explanation (`smsv4 explain`): the estimate, every part, every character and the substituted text. */
export function formatExplanation(explanation: Explanation, colors: Colors): string {
  const { estimate } = explanation;
  let out = formatEstimate(estimate, colors, explanation);
  out += `\n${colors.bold('Parts')}\n`;
  estimate.parts.forEach((part, index) => {
    out += `  ${String(index + 1).padStart(3)}  ${units(estimate.partUnits[index] ?? 0, estimate.unit).padEnd(16)} ${JSON.stringify(part)}\n`;
  });
  if (explanation.substitutions.length > 0) {
    out += `\n${colors.bold('Substitutions')}\n`;
    for (const { char, index, replacement } of explanation.substitutions) out += `  at ${String(index).padEnd(6)} ${showChar(char)} → ${JSON.stringify(replacement)}\n`;
    out += `\n${colors.bold('Substituted text')} (${explanation.substitutedEstimate.encoding}, ${parts(explanation.substitutedEstimate.segments)})\n  ${JSON.stringify(explanation.substituted)}\n`;
  }
  return out;
}

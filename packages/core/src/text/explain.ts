/**
 * Template linting: why a text is sent in UCS-2 and what the GSM substitutes of
 * {@link @smsv4/core!GSM_SUBSTITUTES} would save, so a template can be fixed before it costs money; with
 * national languages enabled, which shift tables the estimate chose, why, and what each language
 * alone would cost.
 */
import { TABLE_LIMIT } from './gsm-alphabet.js';
import { describeTables } from './gsm-codec.js';
import { DEFAULT_COSTS, languageName, septetCost, type NationalLanguage, type NationalTables } from './gsm-national.js';
import { GSM_SUBSTITUTES } from './gsm-substitutes.js';
import {
  BY_NAME,
  estimateTextWith,
  rankTablesWith,
  type ForcedCharacter,
  type LanguageResolver,
  type SegmentEstimate,
  type SmsEncoding,
  type TablesOutcome,
  type TextOptionsOf,
} from './segments.js';

/** One substitutable occurrence of a character outside the GSM alphabet. */
export interface Substitution {
  readonly char: string;
  /** UTF-16 index in the original text. */
  readonly index: number;
  readonly replacement: string;
}

/** Options of `explain` on either entry point (see {@link TextOptionsOf}): the estimate's options, and the substitutes to use. */
export interface ExplainOptionsOf<L> extends TextOptionsOf<L> {
  /** Character → replacement (default {@link @smsv4/core!GSM_SUBSTITUTES}). */
  readonly substitutes?: ReadonlyMap<string, string>;
}

/** Options of {@link explain}: the estimate's options, the national languages by name, and the substitutes to use. */
export type ExplainOptions = ExplainOptionsOf<NationalLanguage>;

/** What one enabled national language alone would cost (its tables and the default ones). */
export interface LanguageCost {
  readonly language: NationalLanguage;
  readonly encoding: SmsEncoding;
  readonly segments: number;
  /** The tables the estimate would use, when national ones. */
  readonly nationalTables?: NationalTables;
  /** Units left in the last part (septets in GSM, code units in UCS-2). */
  readonly unitsLeft: number;
  /** Parts this language saves against the default tables alone (0 when it does not help). */
  readonly segmentsSaved: number;
}

/** The choice of national language shift tables, when national languages are enabled. */
export interface TableChoice {
  /**
   * The tables of the estimate (`{}`: the default alphabet and extension table were enough);
   * absent when no combination of the enabled tables holds every character (UCS-2).
   */
  readonly chosen?: NationalTables;
  /** The choice in words: which tables, and why (fewest parts, then fewest tables, then most room left). */
  readonly reason: string;
  /** Every combination of the enabled tables that can encode the text, best first ({@link rankTables}). */
  readonly ranking: readonly TablesOutcome[];
  /** What each enabled language alone would cost, in the order given. */
  readonly languages: readonly LanguageCost[];
  /** What the text costs with the default tables only. */
  readonly withoutNationalTables: { readonly encoding: SmsEncoding; readonly segments: number; readonly unitsLeft: number };
}

/** What {@link explain} finds. */
export interface Explanation {
  /** The estimate of the text as it is. */
  readonly estimate: SegmentEstimate;
  /** The characters that force UCS-2, each once (as in the estimate). */
  readonly ucs2Characters: readonly ForcedCharacter[];
  /** Every occurrence of a character outside the GSM alphabet that has a substitute. */
  readonly substitutions: readonly Substitution[];
  /**
   * Characters without a substitute that no table in use holds (the default alphabet, and the
   * national tables when enabled), each once: these keep the text in UCS-2.
   */
  readonly unsubstitutable: readonly ForcedCharacter[];
  /**
   * The text with the substitutions that help applied: all of them, or when that would cost more
   * parts (`…` becomes three characters) only the one-for-one and removing ones, or none. Never
   * more parts than the text.
   */
  readonly substituted: string;
  /** The estimate of `substituted`. */
  readonly substitutedEstimate: SegmentEstimate;
  /** `estimate.segments - substitutedEstimate.segments` (never negative). */
  readonly segmentsSaved: number;
  /** With `nationalLanguages`: the tables chosen, why, and what each language alone would cost. */
  readonly tables?: TableChoice;
}

/**
 * Explains the encoding of a text: the characters that force UCS-2, the GSM substitutes that would
 * keep it in GSM (a documented table, {@link @smsv4/core!GSM_SUBSTITUTES}), the substituted text and the parts
 * it saves. Nothing is applied: `substituted` is a suggestion. With `nationalLanguages`, `tables`
 * says which shift tables the estimate chose, why, and what each language alone would cost.
 * @throws TypeError on misuse (as {@link estimateSegments}; `substitutes` must be a Map).
 */
export function explain(text: string, options: ExplainOptions = {}): Explanation {
  return explainWith(text, options, BY_NAME);
}

/** {@link explain} with the national languages resolved by `languages`: what both entry points' `explain` run. */
export function explainWith<L>(text: string, options: ExplainOptionsOf<L>, languages: LanguageResolver<L>): Explanation {
  if (typeof text !== 'string') throw new TypeError('explain: text must be a string');
  const { substitutes = GSM_SUBSTITUTES, ...estimateOptions } = options;
  if (!(substitutes instanceof Map)) throw new TypeError('explain: substitutes must be a Map');
  const estimate = estimateTextWith(text, { ...estimateOptions, type: 'text' }, languages);

  const substitutions: Substitution[] = [];
  const missing = new Map<string, { char: string; index: number; count: number }>();
  const low = DEFAULT_COSTS.low;
  let all = '';
  let oneForOne = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < TABLE_LIMIT ? low[c] !== 0 : c === 0x20ac) continue;
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const char = pair ? text.slice(i, i + 2) : text.charAt(i);
    const found = substitutes.get(char);
    // A fraction after a digit keeps its own number: 1½ becomes "1 1/2", not "11/2".
    const replacement = found !== undefined && isDigit(found.charCodeAt(0)) && i > 0 && isDigit(text.charCodeAt(i - 1)) ? ` ${found}` : found;
    if (replacement === undefined) {
      const m = missing.get(char);
      if (m === undefined) missing.set(char, { char, index: i, count: 1 });
      else m.count++;
    } else {
      substitutions.push({ char, index: i, replacement });
      const keep = text.slice(last, i);
      all += keep + replacement;
      oneForOne += keep + (replacement.length <= char.length ? replacement : char);
      last = i + char.length;
    }
    if (pair) i++;
  }
  all += text.slice(last);
  oneForOne += text.slice(last);

  let substituted = text;
  let substitutedEstimate = estimate;
  if (substitutions.length > 0) {
    // The candidate with the fewest parts, all substitutions first; the text itself when both cost more.
    let best: { text: string; estimate: SegmentEstimate } | undefined;
    for (const candidate of all === oneForOne ? [all] : [all, oneForOne]) {
      const e = estimateTextWith(candidate, { ...estimateOptions, type: 'text' }, languages);
      if (best === undefined || e.segments < best.estimate.segments) best = { text: candidate, estimate: e };
    }
    if (best !== undefined && best.estimate.segments <= estimate.segments) {
      substituted = best.text;
      substitutedEstimate = best.estimate;
    }
  }
  const national = estimateOptions.nationalLanguages === undefined ? [] : languages.candidates(estimateOptions.nationalLanguages);
  const unsubstitutable = [...missing.values()].filter(({ char }) => char.length === 2 || !national.some((k) => septetCost(k, char.charCodeAt(0)) !== 0));
  const enabled = estimateOptions.nationalLanguages;
  return {
    estimate,
    ucs2Characters: estimate.ucs2Characters,
    substitutions,
    unsubstitutable,
    substituted,
    substitutedEstimate,
    segmentsSaved: estimate.segments - substitutedEstimate.segments,
    ...(enabled === undefined || enabled.length === 0 ? {} : { tables: tableChoice(text, estimate, { ...estimateOptions, type: 'text' }, enabled, languages) }),
  };
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

const parts = (n: number): string => `${n} part${n === 1 ? '' : 's'}`;
const tablesCount = (n: number): string => (n === 0 ? 'no national table' : n === 1 ? 'one national table' : 'two national tables');

/** The table choice of an estimate made with national languages. */
function tableChoice<L>(text: string, estimate: SegmentEstimate, options: TextOptionsOf<L>, given: readonly L[], languages: LanguageResolver<L>): TableChoice {
  const ranking = rankTablesWith(text, options, languages);
  const plain = estimateTextWith(text, { ...options, nationalLanguages: [] }, languages);
  const withoutNationalTables = { encoding: plain.encoding, segments: plain.segments, unitsLeft: plain.unitsLeft };
  const seen = new Set<NationalLanguage>();
  const costs: LanguageCost[] = [];
  for (const value of given) {
    const language = languages.name(value);
    if (seen.has(language)) continue;
    seen.add(language);
    const e = estimateTextWith(text, { ...options, nationalLanguages: [value] }, languages);
    costs.push({
      language,
      encoding: e.encoding,
      segments: e.segments,
      ...(e.nationalTables === undefined ? {} : { nationalTables: e.nationalTables }),
      unitsLeft: e.unitsLeft,
      segmentsSaved: plain.segments - e.segments,
    });
  }
  const enabled = [...seen].map(languageName).join(', ');
  const best = ranking[0];
  if (best === undefined) {
    return {
      reason: `No combination of the enabled tables (${enabled}) holds every character: the text is UCS-2, ${parts(estimate.segments)}.`,
      ranking,
      languages: costs,
      withoutNationalTables,
    };
  }
  const chosen = estimate.nationalTables ?? {};
  const what = `${capitalize(describeTables(chosen))}: ${parts(best.segments)}, ${best.unitsLeft} septets left in the last part.`;
  return { chosen, reason: `${what} ${why(best, ranking[1])}`, ranking, languages: costs, withoutNationalTables };
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Why the first outcome was chosen over the runner-up. */
function why(best: TablesOutcome, next: TablesOutcome | undefined): string {
  if (next === undefined) return 'It is the only combination of the enabled tables that holds every character.';
  const other = describeTables(next.tables);
  if (best.segments < next.segments) return `Chosen for the fewest parts: the next best, ${other}, takes ${parts(next.segments)}.`;
  if (best.tableCount < next.tableCount) {
    return `Chosen for the fewest parts, then the fewest tables: ${other} also takes ${parts(next.segments)} but with ${tablesCount(next.tableCount)}, whose header octets every part pays.`;
  }
  if (best.unitsLeft > next.unitsLeft) {
    return `Chosen for the fewest parts and tables, then the most room left: ${other} leaves ${next.unitsLeft} septets.`;
  }
  return `It ties with ${other} on parts, tables and room left; the first tried (languages in the order given) is kept.`;
}

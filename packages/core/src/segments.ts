/**
 * `@smsv4/core/segments`: the SMS part counter for a web page, without the rest of core. The same
 * estimator as the main entry point's `estimateSegments` and `explain` (the same results, the same
 * types) for text content, with the national language tables passed in as values, so that a bundle
 * holds only the tables it uses:
 *
 * ```ts
 * import { estimateSegments, explain, hindi } from '@smsv4/core/segments';
 * estimateSegments(text, { nationalLanguages: [hindi] });
 * ```
 *
 * Hex content (`hexEncodedText`, `binary`) is estimated by the main entry point's `estimateSegments`.
 */
import { explainWith, type ExplainOptionsOf, type Explanation } from './text/explain.js';
import { candidateCostsOf, NATIONAL_LANGUAGES, type SeptetCosts } from './text/gsm-national.js';
import { NationalLanguageTables } from './text/national-language.js';
import { estimateTextWith, rankTablesWith, type LanguageResolver, type SegmentEstimate, type TablesOutcome, type TextOptionsOf } from './text/segments.js';

export type { NationalLanguageTables } from './text/national-language.js';
export { turkish, spanish, portuguese } from './text/gsm-national.js';
export { bengali, gujarati, hindi, kannada, malayalam, oriya, punjabi, tamil, telugu, urdu } from './text/gsm-national-indian.js';
export type { NationalLanguage, IndianLanguage, NationalTables } from './text/gsm-national.js';
export type { SmsEncoding, OperatorLimits, ForcedCharacter, MlcOutcomes, SegmentEstimate, TablesOutcome } from './text/segments.js';
export type { Substitution, Explanation, TableChoice, LanguageCost } from './text/explain.js';
export type { CapacityUnit, ReferenceBits } from './text/capacity.js';

/**
 * Options of {@link estimateSegments}: those of the main entry point's `TextEstimateOptions`, with
 * `nationalLanguages` given as tables (`[hindi, turkish]`).
 */
export type SegmentsOptions = TextOptionsOf<NationalLanguageTables>;

/** Options of {@link explain}: {@link SegmentsOptions} and the substitutes to use (default `GSM_SUBSTITUTES`). */
export type SegmentsExplainOptions = ExplainOptionsOf<NationalLanguageTables>;

/** The languages' tables, checked (each one of this entry point's values) and without repeats. */
function candidates(languages: readonly NationalLanguageTables[]): SeptetCosts[] {
  const enabled = new Map<string, NationalLanguageTables>();
  for (const l of languages) {
    if (!(l instanceof NationalLanguageTables)) {
      throw new TypeError(`unknown national language ${String(l)}: pass the tables of @smsv4/core/segments (${NATIONAL_LANGUAGES.join(', ')})`);
    }
    if (!enabled.has(l.language)) enabled.set(l.language, l);
  }
  return candidateCostsOf([...enabled.values()]);
}

/** Languages given as their tables: this entry point's. */
const BY_VALUE: LanguageResolver<NationalLanguageTables> = { candidates, name: (language) => language.language };

/**
 * Estimates the encoding, parts and cost of a text: what the main entry point's `estimateSegments`
 * returns for the same text and options, the national languages given as tables.
 * @throws TypeError on misuse: a non-string text, hex content (use the main entry point), a value
 *   of `nationalLanguages` that is not one of this entry point's tables, or an operator limit that is
 *   not a positive integer or leaves no room.
 */
export function estimateSegments(text: string, options: SegmentsOptions = {}): SegmentEstimate {
  if (typeof text !== 'string') throw new TypeError('estimateSegments: content must be a string');
  if (options === null || typeof options !== 'object') throw new TypeError('estimateSegments: options must be an object');
  const type = options.type ?? 'text';
  if (type !== 'text') throw new TypeError(`estimateSegments: @smsv4/core/segments counts text; estimate ${String(type)} content with @smsv4/core`);
  return estimateTextWith(text, options, BY_VALUE);
}

/**
 * Explains the encoding of a text (the characters that force UCS-2, the GSM substitutes and the parts
 * they save, the national tables chosen): what the main entry point's `explain` returns for the same
 * text and options, the national languages given as tables.
 * @throws TypeError on misuse, as {@link estimateSegments}.
 */
export function explain(text: string, options: SegmentsExplainOptions = {}): Explanation {
  return explainWith(text, options, BY_VALUE);
}

/**
 * Every combination of the enabled tables that can encode a text, best first: the main entry
 * point's `rankTables`, the national languages given as tables.
 * @throws TypeError on misuse, as {@link estimateSegments}.
 */
export function rankTables(text: string, options: SegmentsOptions = {}): TablesOutcome[] {
  if (typeof text !== 'string') throw new TypeError('rankTables: text must be a string');
  return rankTablesWith(text, options, BY_VALUE);
}

/**
 * Template linting: why a text is sent in UCS-2 and what the GSM substitutes of
 * {@link GSM_SUBSTITUTES} would save, so a template can be fixed before it costs money.
 */
import { TABLE_LIMIT } from './gsm-alphabet.js';
import { candidateCosts, DEFAULT_COSTS, septetCost } from './gsm-national.js';
import { GSM_SUBSTITUTES } from './gsm-substitutes.js';
import { estimateSegments, type ForcedCharacter, type SegmentEstimate, type TextEstimateOptions } from './segments.js';

/** One substitutable occurrence of a character outside the GSM alphabet. */
export interface Substitution {
  readonly char: string;
  /** UTF-16 index in the original text. */
  readonly index: number;
  readonly replacement: string;
}

/** Options of {@link explain}: the estimate's options, and the substitutes to use. */
export interface ExplainOptions extends TextEstimateOptions {
  /** Character → replacement (default {@link GSM_SUBSTITUTES}). */
  readonly substitutes?: ReadonlyMap<string, string>;
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
}

/**
 * Explains the encoding of a text: the characters that force UCS-2, the GSM substitutes that would
 * keep it in GSM (a documented table, {@link GSM_SUBSTITUTES}), the substituted text and the parts
 * it saves.
 * @throws TypeError on misuse (as {@link estimateSegments}; `substitutes` must be a Map).
 */
export function explain(text: string, options: ExplainOptions = {}): Explanation {
  if (typeof text !== 'string') throw new TypeError('explain: text must be a string');
  const { substitutes = GSM_SUBSTITUTES, ...estimateOptions } = options;
  if (!(substitutes instanceof Map)) throw new TypeError('explain: substitutes must be a Map');
  const estimate = estimateSegments(text, { ...estimateOptions, type: 'text' });

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
    const replacement = substitutes.get(char);
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
      const e = estimateSegments(candidate, { ...estimateOptions, type: 'text' });
      if (best === undefined || e.segments < best.estimate.segments) best = { text: candidate, estimate: e };
    }
    if (best !== undefined && best.estimate.segments <= estimate.segments) {
      substituted = best.text;
      substitutedEstimate = best.estimate;
    }
  }
  const national = estimateOptions.nationalLanguages === undefined ? [] : candidateCosts(estimateOptions.nationalLanguages);
  const unsubstitutable = [...missing.values()].filter(({ char }) => char.length === 2 || !national.some((k) => septetCost(k, char.charCodeAt(0)) !== 0));
  return {
    estimate,
    ucs2Characters: estimate.ucs2Characters,
    substitutions,
    unsubstitutable,
    substituted,
    substitutedEstimate,
    segmentsSaved: estimate.segments - substitutedEstimate.segments,
  };
}

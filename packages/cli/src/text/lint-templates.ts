/**
 * Template linting: a template fails when it leaves the GSM alphabet (it would go out in UCS-2,
 * at 70 instead of 160 characters a part) or when it costs more parts than its budget. The
 * explanation of core tells which characters force UCS-2 and which GSM substitutes would help.
 */
import { explain, type Explanation, type ForcedCharacter, type Substitution, type TextEstimateOptions } from '@smsv4/core';

/** Why a template fails (closed set). */
export type LintProblemCode = 'leaves-gsm' | 'over-budget' | 'unreadable';

/** One problem of a template. */
export interface LintProblem {
  readonly code: LintProblemCode;
  readonly description: string;
}

/** The verdict on one template. */
export interface LintResult {
  /** The file, and `#key.path` for a template inside a JSON file. */
  readonly template: string;
  readonly ok: boolean;
  readonly problems: readonly LintProblem[];
  /** Encoding and parts, when the template could be read. */
  readonly encoding?: string;
  readonly segments?: number;
  /** Characters that force UCS-2. */
  readonly ucs2Characters?: readonly ForcedCharacter[];
  /** GSM substitutes that apply, and what they give. */
  readonly substitutions?: readonly Substitution[];
  readonly substitutedSegments?: number;
  readonly substitutedEncoding?: string;
}

/** Options of {@link lintTemplate}. */
export interface LintOptions {
  /** The most parts a template may cost (default 1). */
  readonly maxParts?: number;
  /** Accept templates in UCS-2 (default `false`). */
  readonly allowUcs2?: boolean;
  /** The estimator's options (national tables, operator lengths, reference, graphemes). */
  readonly estimate?: Omit<TextEstimateOptions, 'type'>;
  /** Values of `{{name}}` placeholders; placeholders without one are counted as written. */
  readonly variables?: ReadonlyMap<string, string>;
}

/** A template read from a file. */
export interface TemplateText {
  readonly name: string;
  readonly text: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Fills the `{{name}}` placeholders that have a value. */
export function fillPlaceholders(text: string, variables: ReadonlyMap<string, string>): string {
  if (variables.size === 0) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => variables.get(name) ?? whole);
}

/** Lints one template. */
export function lintTemplate(name: string, text: string, { maxParts = 1, allowUcs2 = false, estimate = {}, variables = new Map() }: LintOptions = {}): LintResult {
  const explanation: Explanation = explain(fillPlaceholders(text, variables), estimate);
  const { estimate: result } = explanation;
  const problems: LintProblem[] = [];
  if (result.encoding !== 'GSM' && !allowUcs2) {
    const fix =
      explanation.substitutions.length > 0 && explanation.substitutedEstimate.encoding === 'GSM'
        ? '; the GSM substitutes fix it'
        : explanation.unsubstitutable.length > 0
          ? '; some characters have no GSM substitute'
          : '';
    problems.push({ code: 'leaves-gsm', description: `leaves the GSM alphabet: sent in UCS-2${fix}` });
  }
  if (result.segments > maxParts) {
    problems.push({ code: 'over-budget', description: `costs ${result.segments} parts, the budget is ${maxParts}` });
  }
  return {
    template: name,
    ok: problems.length === 0,
    problems,
    encoding: result.encoding,
    segments: result.segments,
    ucs2Characters: result.ucs2Characters,
    substitutions: explanation.substitutions,
    substitutedSegments: explanation.substitutedEstimate.segments,
    substitutedEncoding: explanation.substitutedEstimate.encoding,
  };
}

/** The result for a template file that could not be read. */
export function unreadableTemplate(name: string, reason: string): LintResult {
  return { template: name, ok: false, problems: [{ code: 'unreadable', description: reason }] };
}

/** Removes one line break at the end of a file (editors add one). */
export function stripFinalNewline(text: string): string {
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

function collectStrings(value: unknown, path: string, out: TemplateText[], source: string): void {
  if (typeof value === 'string') out.push({ name: `${source}#${path}`, text: value });
  else if (Array.isArray(value)) value.forEach((item, index) => collectStrings(item, path === '' ? String(index) : `${path}.${index}`, out, source));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) collectStrings(item, path === '' ? key : `${path}.${key}`, out, source);
  }
}

/**
 * The templates of a file: a `.json` file holds templates as the string values of an object
 * (`{ "otp": "Your code is {{code}}" }`, nested objects and arrays too), named `file#key.path`;
 * any other file is one template, its final line break removed. Bytes that are not UTF-8 or
 * JSON that does not parse give an error message instead.
 */
export function templatesOf(source: string, bytes: Uint8Array): { ok: true; value: TemplateText[] } | { ok: false; error: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'not UTF-8 text' };
  }
  if (!source.toLowerCase().endsWith('.json')) return { ok: true, value: [{ name: source, text: stripFinalNewline(text.replace(/^\uFEFF/, '')) }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const out: TemplateText[] = [];
  collectStrings(parsed, '', out, source);
  return { ok: true, value: out };
}

import { err, ok, type Result } from '../result.js';
import { countColons, hasRepeatedMember, newTally, tallyValue } from './member-tally.js';

/** Why a JSON text was refused. */
export type StrictJsonError = 'syntax' | 'duplicate-member' | 'too-deep';

/** Options of {@link parseStrictJson}. */
export interface StrictJsonOptions {
  /** Deepest nesting of objects and arrays accepted (default 64). */
  readonly maxDepth?: number;
}

/**
 * `JSON.parse` that also refuses a repeated member anywhere in the document and nesting deeper
 * than `maxDepth`. A member repeated in the source leaves fewer keys in the parsed value than there
 * are member separators (`:` outside strings) in the text, so one walk of the value and a count of
 * the separators find it without a second parser. Texts without a backslash (nearly all) count
 * separators with native searches only; others with one scan that skips strings.
 */
export function parseStrictJson(text: string, { maxDepth = 64 }: StrictJsonOptions = {}): Result<unknown, StrictJsonError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return err('syntax');
  }
  if (typeof value !== 'object' || value === null) return ok(value);
  if (text.indexOf('\\') === -1) {
    // No escape anywhere: every string holds exactly the characters written, so native colon
    // searches suffice (see member-tally.ts).
    const tally = newTally(maxDepth);
    tallyValue(value, 1, tally);
    if (tally.deepest > maxDepth) return err('too-deep');
    return hasRepeatedMember(tally, countColons(text)) ? err('duplicate-member') : ok(value);
  }
  const keys = countKeys(value, 1, maxDepth);
  if (keys < 0) return err('too-deep');
  return keys === countMemberSeparators(text) ? ok(value) : err('duplicate-member');
}

/** Counts `:` outside strings in a text that `JSON.parse` accepted. */
function countMemberSeparators(text: string): number {
  let count = 0;
  let i = 0;
  const n = text.length;
  for (;;) {
    const quote = text.indexOf('"', i);
    const end = quote === -1 ? n : quote;
    for (let j = i; j < end; j++) if (text.charCodeAt(j) === 58) count++;
    if (quote === -1) return count;
    let close = quote + 1;
    for (;;) {
      close = text.indexOf('"', close);
      let backslashes = 0;
      while (text.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
      if ((backslashes & 1) === 0) break;
      close++;
    }
    i = close + 1;
  }
}

/**
 * Counts the members of every object in a parsed value; negative when nesting exceeds `maxDepth`.
 * Recursion is bounded by `maxDepth`, so it cannot exhaust the stack. `Object.keys` (not `for...in`)
 * keeps inherited members of a polluted `Object.prototype` out of the count.
 */
function countKeys(node: object, depth: number, maxDepth: number): number {
  if (depth > maxDepth) return Number.NEGATIVE_INFINITY;
  let count = 0;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item: unknown = node[i];
      if (typeof item === 'object' && item !== null) count += countKeys(item, depth + 1, maxDepth);
    }
    return count;
  }
  const keys = Object.keys(node);
  count += keys.length;
  for (let i = 0; i < keys.length; i++) {
    const item = (node as Record<string, unknown>)[keys[i] as string];
    if (typeof item === 'object' && item !== null) count += countKeys(item, depth + 1, maxDepth);
  }
  return count;
}

/** Reads an own member of a parsed object; inherited members (`constructor`, `__proto__`) are never seen. */
export function own(object: unknown, key: string): unknown {
  return typeof object === 'object' && object !== null && Object.hasOwn(object, key)
    ? (object as Record<string, unknown>)[key]
    : undefined;
}

/** `true` for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

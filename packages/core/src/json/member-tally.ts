/**
 * Repeated-member detection for JSON texts without a backslash, without a scan of the text in
 * JavaScript. `JSON.parse` keeps the last of repeated members, so a parsed value holds fewer
 * members than the text has member separators (`:` outside strings) exactly when a member was
 * repeated. In a text without a backslash, every string holds exactly the characters it is written
 * with, so the separators are the text's colons minus the colons inside the parsed value's keys and
 * string values. A dropped member only removes strings from the parsed value, which raises the
 * estimate of separators, so a repeated member can never be hidden: the counts are equal if and only
 * if no member was repeated.
 */

/** Members, colons inside strings and the deepest nesting of a parsed value, tallied as it is walked. */
export interface MemberTally {
  members: number;
  colons: number;
  /** Deepest nesting of objects and arrays (the root object is 1). */
  deepest: number;
  /** The walk does not descend past this depth; the caller compares `deepest` with it. */
  readonly maxDepth: number;
}

/** The deepest nesting accepted by default, as `parseStrictJson`'s. */
export const MAX_DEPTH = 64;

/** A fresh, empty tally. */
export function newTally(maxDepth = MAX_DEPTH): MemberTally {
  return { members: 0, colons: 0, deepest: 0, maxDepth };
}

/** The number of `:` in a string (one native search per colon). */
export function countColons(text: string): number {
  let count = 0;
  let at = text.indexOf(':');
  while (at !== -1) {
    count++;
    at = text.indexOf(':', at + 1);
  }
  return count;
}

/**
 * Adds a parsed value found at nesting `depth` (an object or array at the root is at depth 1, its
 * members' values at 2) to `tally`. Stops descending past `tally.maxDepth`; the caller compares
 * `tally.deepest` with it.
 */
export function tallyValue(value: unknown, depth: number, tally: MemberTally): void {
  if (typeof value === 'string') {
    if (value.indexOf(':') !== -1) tally.colons += countColons(value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > tally.deepest) tally.deepest = depth;
  if (depth > tally.maxDepth) return;
  if (Array.isArray(value)) {
    for (const item of value) tallyValue(item, depth + 1, tally);
    return;
  }
  const keys = Object.keys(value);
  tally.members += keys.length;
  for (const key of keys) {
    if (key.indexOf(':') !== -1) tally.colons += countColons(key);
    tallyValue((value as Record<string, unknown>)[key], depth + 1, tally);
  }
}

/** `true` when the tally shows a repeated member in a backslash-free text with `textColons` colons. */
export function hasRepeatedMember(tally: MemberTally, textColons: number): boolean {
  return tally.members !== textColons - tally.colons;
}

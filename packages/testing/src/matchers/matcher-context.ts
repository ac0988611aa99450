/** What the matchers use of the context vitest and jest give a custom matcher. */

/** The part of vitest's `MatcherState` and jest's `MatcherContext` the matchers read. */
export interface SmsMatcherContext {
  /** `true` under `.not` (jest types it optional). */
  readonly isNot?: boolean;
  /** The runner's deep equality (it understands asymmetric matchers such as `expect.any(String)`). */
  equals(a: unknown, b: unknown): boolean;
  /** The runner's printing helpers, when it has them. */
  readonly utils?: { matcherHint?(name: string, received?: string, expected?: string, options?: { isNot?: boolean }): string };
}

/** What a matcher returns, in both runners. */
export interface SmsMatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** The hint line of a message (`expect(received).toBeValidMtRequest()`), the runner's when it has one. */
export function hint(context: SmsMatcherContext, name: string, expected = ''): string {
  const isNot = context.isNot === true;
  const own = `expect(received).${isNot ? 'not.' : ''}${name}(${expected})`;
  try {
    return context.utils?.matcherHint?.(`.${name}`, undefined, expected === '' ? '' : 'expected', { isNot }) ?? own;
  } catch {
    return own;
  }
}

/** A JSON-ish rendering of a value for messages, cut at `max` characters. */
export function show(value: unknown, max = 200): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : value instanceof RegExp ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

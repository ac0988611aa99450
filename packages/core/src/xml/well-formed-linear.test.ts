/**
 * The well-formedness check does work linear in the length of the document, whatever its shape:
 * counted in characters touched (every string method it calls is counted for the characters it
 * reads), not timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWellFormed, MAX_ATTRIBUTES } from './well-formed.js';

type Counted = 'charCodeAt' | 'indexOf' | 'slice' | 'startsWith' | 'toLowerCase';

/** Runs `work`, counting the characters the string methods it calls read. */
function countSteps(work: () => unknown): { steps: number; result: unknown } {
  const proto = String.prototype as unknown as Record<Counted, (...args: unknown[]) => unknown>;
  const original = { ...Object.fromEntries((['charCodeAt', 'indexOf', 'slice', 'startsWith', 'toLowerCase'] as const).map((name) => [name, proto[name]])) } as Record<
    Counted,
    (...args: unknown[]) => unknown
  >;
  let steps = 0;
  proto.charCodeAt = function (this: string, ...args: unknown[]) {
    steps++;
    return original.charCodeAt.apply(this, args);
  };
  proto.indexOf = function (this: string, ...args: unknown[]) {
    const found = original.indexOf.apply(this, args) as number;
    const from = typeof args[1] === 'number' ? args[1] : 0;
    steps += (found === -1 ? this.length : found) - from + 1;
    return found;
  };
  proto.slice = function (this: string, ...args: unknown[]) {
    const out = original.slice.apply(this, args) as string;
    steps += out.length + 1;
    return out;
  };
  proto.startsWith = function (this: string, ...args: unknown[]) {
    steps += String(args[0]).length + 1;
    return original.startsWith.apply(this, args);
  };
  proto.toLowerCase = function (this: string, ...args: unknown[]) {
    steps += this.length + 1;
    return original.toLowerCase.apply(this, args);
  };
  try {
    const result = work();
    return { steps, result };
  } finally {
    Object.assign(proto, original);
  }
}

/** A three-letter name per number below 26³ (`aaa`, `aab`, ...). */
const name3 = (n: number): string => String.fromCharCode(97 + Math.floor(n / 676), 97 + (Math.floor(n / 26) % 26), 97 + (n % 26));
const attributes = (count: number, from = 0): string => Array.from({ length: count }, (_, i) => `${name3(from + i)}=""`).join(' ');

/** A linear bound on the steps: a few per character. */
const STEPS_PER_CHAR = 6;

describe('checkWellFormed: linear work', () => {
  it('checks a 64 KiB document of 9,300 three-letter attributes in steps proportional to its length, as one 64 KiB attribute', () => {
    const oneElement = `<r ${attributes(9_300)}/>`;
    // The same attributes spread over elements as many as the cap allows: all read and compared.
    const perElement = MAX_ATTRIBUTES;
    const spread = `<r>${Array.from({ length: Math.ceil(9_300 / perElement) }, (_, k) => `<e ${attributes(Math.min(perElement, 9_300 - k * perElement), k * perElement)}/>`).join('')}</r>`;
    const baseline = `<r a="${'x'.repeat(64 * 1024)}"/>`;
    expect(oneElement.length).toBeGreaterThan(60_000);
    expect(oneElement.length).toBeLessThanOrEqual(64 * 1024);
    expect(spread.length).toBeGreaterThan(60_000);
    const one = countSteps(() => checkWellFormed(oneElement));
    const many = countSteps(() => checkWellFormed(spread));
    const base = countSteps(() => checkWellFormed(baseline));
    expect(one.result).toBe('too-many-attributes');
    expect(many.result).toBeUndefined();
    expect(base.result).toBeUndefined();
    expect(one.steps).toBeLessThanOrEqual(STEPS_PER_CHAR * oneElement.length);
    expect(many.steps).toBeLessThanOrEqual(STEPS_PER_CHAR * spread.length);
    // Per character, no more than a few times the work of the single long attribute.
    expect(many.steps / spread.length).toBeLessThanOrEqual(4 * (base.steps / baseline.length) + STEPS_PER_CHAR);
  });

  it('bounds its steps per character on documents of any shape built from hostile pieces', () => {
    const piece = fc.oneof(
      fc.integer({ min: 1, max: MAX_ATTRIBUTES }).map((n) => `<e ${attributes(n)}/>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<e a="${'&amp;'.repeat(n)}" b="${'x'.repeat(n)}"/>`),
      fc.integer({ min: 1, max: 500 }).map((n) => 'text&lt;'.repeat(n)),
      fc.integer({ min: 1, max: 200 }).map((n) => `<e${' a="1"'.repeat(1)}>${'<f/>'.repeat(n)}</e>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<!--${'-x'.repeat(n)}--><![CDATA[${'<'.repeat(n)}]]>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<?pi ${'?'.repeat(n)}?>`),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.boolean(), (pieces, broken) => {
        const xml = `<r>${pieces.join('')}${broken ? '<e a="1" a="2"/>' : ''}</r>`;
        const { steps, result } = countSteps(() => checkWellFormed(xml));
        expect(result).toBe(broken ? 'duplicate-attribute' : undefined);
        expect(steps).toBeLessThanOrEqual(STEPS_PER_CHAR * xml.length + 64);
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * The well-formedness check, alone and in the one pass that also builds the tree, does work linear
 * in the length of the document, whatever its shape: counted in characters touched (every string
 * method it calls, and every regular expression test, is counted for the characters it reads), not timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWellFormed, MAX_ATTRIBUTES, readWellFormed, type WellFormedProblem } from './well-formed.js';
import { runs } from '../../test/property-runs.js';

type Counted = 'charCodeAt' | 'indexOf' | 'slice' | 'startsWith' | 'toLowerCase' | 'replace';

/** Runs `work`, counting the characters the string methods it calls read. */
function countSteps(work: () => unknown): { steps: number; result: unknown } {
  const proto = String.prototype as unknown as Record<Counted, (...args: unknown[]) => unknown>;
  const original = { ...Object.fromEntries((['charCodeAt', 'indexOf', 'slice', 'startsWith', 'toLowerCase', 'replace'] as const).map((name) => [name, proto[name]])) } as Record<
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
  proto.replace = function (this: string, ...args: unknown[]) {
    steps += this.length + 1;
    return original.replace.apply(this, args);
  };
  const regExp = RegExp.prototype;
  const test = regExp.test;
  regExp.test = function (this: RegExp, input: string) {
    steps += String(input).length + 1;
    return test.call(this, input);
  };
  try {
    const result = work();
    return { steps, result };
  } finally {
    Object.assign(proto, original);
    regExp.test = test;
  }
}

/** A three-letter name per number below 26³ (`aaa`, `aab`, ...). */
const name3 = (n: number): string => String.fromCharCode(97 + Math.floor(n / 676), 97 + (Math.floor(n / 26) % 26), 97 + (n % 26));
const attributes = (count: number, from = 0): string => Array.from({ length: count }, (_, i) => `${name3(from + i)}=""`).join(' ');

/** A linear bound on the steps: a few per character. */
const STEPS_PER_CHAR = 6;

/**
 * Each reader with its bound: the check alone, and the one pass, which may read each character up to
 * three times more to build the tree (the slice of a value, its line ends, CDATA's escapes).
 */
const readers: ReadonlyArray<readonly [string, (xml: string) => WellFormedProblem | undefined, number]> = [
  ['checkWellFormed', (xml) => checkWellFormed(xml), STEPS_PER_CHAR],
  ['readWellFormed (the one pass that also builds the tree)', (xml) => readWellFormed(xml).problem, STEPS_PER_CHAR + 3],
];

describe.each(readers)('%s: linear work', (_name, check, stepsPerChar) => {
  it('checks a 64 KiB document of 9,300 three-letter attributes in steps proportional to its length, as one 64 KiB attribute', () => {
    const oneElement = `<r ${attributes(9_300)}/>`;
    // The same attributes spread over elements as many as the cap allows: all read and compared.
    const perElement = MAX_ATTRIBUTES;
    const spread = `<r>${Array.from({ length: Math.ceil(9_300 / perElement) }, (_, k) => `<e ${attributes(Math.min(perElement, 9_300 - k * perElement), k * perElement)}/>`).join('')}</r>`;
    const baseline = `<r a="${'x'.repeat(64 * 1024)}"/>`;
    expect(oneElement.length).toBeGreaterThan(60_000);
    expect(oneElement.length).toBeLessThanOrEqual(64 * 1024);
    expect(spread.length).toBeGreaterThan(60_000);
    const one = countSteps(() => check(oneElement));
    const many = countSteps(() => check(spread));
    const base = countSteps(() => check(baseline));
    expect(one.result).toBe('too-many-attributes');
    expect(many.result).toBeUndefined();
    expect(base.result).toBeUndefined();
    expect(one.steps).toBeLessThanOrEqual(stepsPerChar * oneElement.length);
    expect(many.steps).toBeLessThanOrEqual(stepsPerChar * spread.length);
    // Per character, no more than a few times the work of the single long attribute.
    expect(many.steps / spread.length).toBeLessThanOrEqual(4 * (base.steps / baseline.length) + stepsPerChar);
  });

  it('answers CDATA openings inside processing instructions and comments, and a CDATA never closed, in steps linear in their length', () => {
    for (const xml of [
      '<?<![CDATA[]>ml version="1.0"?><deliveryReceipt type="final"/>',
      '<a><?pi <![CDATA[ ?><b/></a>',
      '<a><!-- <![CDATA[ --><b/></a>',
      '<a><![CDATA[never closed</a>',
    ]) {
      const { steps } = countSteps(() => check(xml));
      expect(steps, xml).toBeLessThanOrEqual(stepsPerChar * xml.length + 64);
    }
  });

  it('bounds its steps per character on documents of any shape built from hostile pieces', () => {
    const piece = fc.oneof(
      fc.integer({ min: 1, max: MAX_ATTRIBUTES }).map((n) => `<e ${attributes(n)}/>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<e a="${'&amp;'.repeat(n)}" b="${'x'.repeat(n)}"/>`),
      fc.integer({ min: 1, max: 500 }).map((n) => 'text&lt;'.repeat(n)),
      fc.integer({ min: 1, max: 500 }).map((n) => `<t k="\r\n">${'line\r\n'.repeat(n)}<![CDATA[\r<&>]]></t>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<e${' a="1"'.repeat(1)}>${'<f/>'.repeat(n)}</e>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<!--${'-x'.repeat(n)}--><![CDATA[${'<'.repeat(n)}]]>`),
      fc.integer({ min: 1, max: 200 }).map((n) => `<?pi ${'?'.repeat(n)}?>`),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.boolean(), (pieces, broken) => {
        const xml = `<r>${pieces.join('')}${broken ? '<e a="1" a="2"/>' : ''}</r>`;
        const { steps, result } = countSteps(() => check(xml));
        expect(result).toBe(broken ? 'duplicate-attribute' : undefined);
        expect(steps).toBeLessThanOrEqual(stepsPerChar * xml.length + 64);
      }),
      { numRuns: runs(40) },
    );
  });
});

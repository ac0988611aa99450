// The generated reader and member count must answer exactly as the reference walks do, and the
// codecs must give the same results where code generation is forbidden (Workers, strict CSP).
import type { TObject } from '@sinclair/typebox';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { parseStrictJson } from '../json/strict-json.js';
import { DeliveryReceiptSchema } from '../delivery-receipt/delivery-receipt.js';
import { ErrorRecordSchema } from '../error-record/error-record.js';
import { InvokeErrorBodySchema } from '../error-record/invoke-error-body.js';
import { MobileOriginateSchema } from '../mobile-originate/mobile-originate.js';
import { MtStatusSchema } from '../mt-status/mt-status.js';
import { PreviewSchema } from '../preview/preview.js';
import { parseXmlDocument } from '../xml/xml-document.js';
import { compileExactMembers, hasExactMembers } from './compile-exact-members.js';
import { compileReader } from './compile-reader.js';
import { readWire } from './read-wire.js';
import { decodeResource, defineResource } from './resource-codec.js';
import { planOf } from './wire-plan.js';
import { runs } from '../../test/property-runs.js';

const RESOURCES: readonly [string, string, TObject][] = [
  ['mt-status', 'mtStatus', MtStatusSchema],
  ['delivery-receipt', 'deliveryReceipt', DeliveryReceiptSchema],
  ['mobile-originate', 'mobileOriginate', MobileOriginateSchema],
  ['preview', 'preview', PreviewSchema],
  ['error-record', 'error', ErrorRecordSchema],
  ['error-record', 'error', InvokeErrorBodySchema],
];

/** The fixtures of a folder, each with random single-character edits. */
function texts(folder: string, format: 'json' | 'xml'): fc.Arbitrary<string> {
  const samples = listFixtures(folder).filter((path) => path.endsWith(`.${format}`)).map(loadFixture);
  return fc
    .record({
      sample: fc.constantFrom(...samples),
      edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom('"', '1', 'x', ' ', '<', '/', '>', '[', ']', '{', '}', ',', '', '-')), { maxLength: 3 }),
    })
    .map(({ sample, edits }) => edits.reduce((text, [at, ch]) => text.slice(0, at % text.length) + ch + text.slice((at % text.length) + 1), sample));
}

describe.each(RESOURCES)('%s (%s)', (folder, root, schema) => {
  const plan = planOf(schema);

  it.each(['json', 'xml'] as const)('the generated %s reader reads what the reference walk reads', (format) => {
    const compiled = compileReader(plan, format === 'xml');
    fc.assert(
      fc.property(texts(folder, format), (text) => {
        let node: unknown;
        if (format === 'json') {
          const parsed = parseStrictJson(text);
          if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return;
          node = (parsed.value as Record<string, unknown>)[root];
        } else {
          const parsed = parseXmlDocument(text);
          if (!parsed.ok) return;
          node = parsed.value.root;
        }
        expect(compiled(node)).toStrictEqual(readWire(plan, node, format === 'xml'));
      }),
      { numRuns: runs(300) },
    );
  });

  it('the generated reader reads arbitrary JSON values as the reference walk does', () => {
    const compiled = compileReader(plan, false);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(compiled(value)).toStrictEqual(readWire(plan, value, false));
      }),
    );
  });

  it('the generated member count agrees with the reference walk', () => {
    const compiled = compileExactMembers(plan);
    const decoded = defineResource(root, schema, '');
    fc.assert(
      fc.property(texts(folder, 'json'), (text) => {
        const parsed = parseStrictJson(text);
        if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return;
        const node = (parsed.value as Record<string, unknown>)[root];
        if (!decoded.check.Check(node)) return;
        expect(compiled(node)).toBe(hasExactMembers(plan, node));
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('where code generation is forbidden', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each(RESOURCES)('decodes %s (%s) exactly as the compiled codec does', (folder, root, schema) => {
    const compiled = defineResource(root, schema, '');
    vi.stubGlobal('Function', function forbidden() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const interpreted = defineResource(root, schema, '');
    // A resource is compiled on its first use: use it while code generation is forbidden.
    interpreted.check.Check(undefined);
    void [interpreted.readJson, interpreted.readXml, interpreted.exactMembers];
    vi.unstubAllGlobals();
    // The fallbacks are the reference walks themselves.
    expect(String(interpreted.readJson)).toContain('readWire');
    expect(String(interpreted.exactMembers)).toContain('hasExactMembers');
    expect(String(compiled.readJson)).not.toContain('readWire');
    for (const format of ['json', 'xml'] as const) {
      fc.assert(
        fc.property(texts(folder, format), (text) => {
          expect(decodeResource(interpreted, text, format)).toStrictEqual(decodeResource(compiled, text, format));
        }),
        { numRuns: runs(200) },
      );
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, deliveryState } from '../errors/catalogue.js';
import { summarizeMultipart, type MultipartPart } from './summarize-multipart.js';

const description = (code: number): string => DELIVERY_STATES[code]?.description ?? '';

describe('summarizeMultipart', () => {
  it.each<[string, MultipartPart[], number, string]>([
    ['one delivered part', [{ code: 4 }], 4, 'Message delivered'],
    ['all delivered', [{ code: 4 }, { code: 4 }, { code: 4 }], 4, 'Message delivered'],
    ['all sent (0)', [{ code: 0 }, { code: 0 }], 0, 'Message sent'],
    ['all expired', [{ code: 811 }, { code: 811 }], 811, 'Message expired before it reached handset'],
    ['all accepted (2): no receipt yet', [{ code: 2 }, { code: 2 }], 831, 'Awaiting complete message delivery status'],
    ['all at the operator (3): no receipt yet', [{ code: 3 }, { code: 3 }, { code: 3 }], 831, 'Awaiting complete message delivery status'],
    ['one part pending: a one-part message reports its own state', [{ code: 3 }], 3, 'Message accepted by the mobile operator, awaiting receipt'],
    ['delivered and expired', [{ code: 4 }, { code: 811 }], 830, 'Partial message delivery failure'],
    ['delivered and awaiting a receipt', [{ code: 4 }, {}], 831, 'Awaiting complete message delivery status'],
    ['delivered and accepted by the operator (3)', [{ code: 4 }, { code: 3 }], 831, 'Awaiting complete message delivery status'],
    ['no receipt yet for any part', [{}, {}], 831, 'Awaiting complete message delivery status'],
    ['failure takes precedence over a missing receipt', [{ code: 4 }, {}, { code: 351 }], 830, 'Partial message delivery failure'],
    ['failure takes precedence over a pending code', [{ code: 2 }, { code: 607 }], 830, 'Partial message delivery failure'],
    ['two different failures', [{ code: 811 }, { code: 351 }], 830, 'Partial message delivery failure'],
    ['an unknown final code counts as failed', [{ code: 4 }, { code: 999, description: 'Carrier rejected' }], 830, 'Partial message delivery failure'],
    ['0 and 4 mixed: all delivered', [{ code: 0 }, { code: 4 }, { code: 0 }], 4, 'Message delivered'],
    ['catalogue descriptions win over the parts', [{ code: 4, description: 'Delivered!' }, { code: 4, description: 'ok' }], 4, 'Message delivered'],
    ['an unknown code shared by every part keeps the part description', [{ code: 999, description: 'Carrier rejected' }, { code: 999 }], 999, 'Carrier rejected'],
    ['an unknown code with no description', [{ code: 999 }], 999, ''],
    ['a part that is itself a partial failure', [{ code: 830 }, { code: 4 }], 830, 'Partial message delivery failure'],
    ['a part that is itself awaiting', [{ code: 831 }, { code: 4 }], 831, 'Awaiting complete message delivery status'],
  ])('%s', (_name, parts, code, expectedDescription) => {
    expect(summarizeMultipart(parts)).toStrictEqual({ code, description: expectedDescription });
  });

  it('throws TypeError for no parts or a malformed part', () => {
    expect(() => summarizeMultipart([])).toThrow(TypeError);
    expect(() => summarizeMultipart(undefined as unknown as MultipartPart[])).toThrow(TypeError);
    expect(() => summarizeMultipart([null as unknown as MultipartPart])).toThrow(TypeError);
    expect(() => summarizeMultipart([{ code: '4' as unknown as number }])).toThrow(TypeError);
    expect(() => summarizeMultipart([{ code: -1 }])).toThrow(TypeError);
    expect(() => summarizeMultipart([{ code: 4.5 }])).toThrow(TypeError);
  });
});

describe('summarizeMultipart properties', () => {
  const knownCode = fc.constantFrom(...Object.keys(DELIVERY_STATES).map(Number));
  const code = fc.oneof(knownCode, fc.integer({ min: 0, max: 2000 }));
  const part: fc.Arbitrary<MultipartPart> = fc.oneof(
    fc.record({ code }, { noNullPrototype: true }),
    fc.record({ code, description: fc.string() }, { noNullPrototype: true }),
    fc.constant({}),
  );
  const parts = fc.array(part, { minLength: 1, maxLength: 8 });
  const failed = (p: MultipartPart): boolean => {
    if (p.code === undefined) return false;
    const state = deliveryState(p.code);
    return state === undefined || (state.final && state.outcome !== 'delivered');
  };

  it('is 830 whenever some part failed and the parts differ', () => {
    fc.assert(
      fc.property(parts, (list) => {
        const same = list.every((p) => p.code !== undefined && p.code === list[0]?.code);
        if (!same && list.some(failed)) expect(summarizeMultipart(list).code).toBe(830);
      }),
    );
  });

  it('is the shared code when every part has the same final one, 831 when they share a pending one', () => {
    fc.assert(
      fc.property(code, fc.integer({ min: 2, max: 8 }), (shared, count) => {
        const summary = summarizeMultipart(Array.from({ length: count }, () => ({ code: shared })));
        const pending = shared === 2 || shared === 3 || shared === 831;
        expect(summary.code).toBe(pending ? 831 : shared);
        expect(summary.description).toBe(description(pending ? 831 : shared));
      }),
    );
  });

  it('does not depend on the order of the parts', () => {
    fc.assert(
      fc.property(
        parts.chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }))),
        ([list, shuffled]) => {
          expect(summarizeMultipart(shuffled).code).toBe(summarizeMultipart(list).code);
        },
      ),
    );
  });

  it('is 831 when the parts differ, none failed and one is still waiting', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<MultipartPart>({}, { code: 0 }, { code: 2 }, { code: 3 }, { code: 4 }), { minLength: 1, maxLength: 6 }), (list) => {
        const same = list.every((p) => p.code !== undefined && p.code === list[0]?.code);
        const waiting = list.some((p) => p.code === undefined || p.code === 2 || p.code === 3);
        const summary = summarizeMultipart(list);
        if (!same && waiting) expect(summary.code).toBe(831);
        if (!same && !waiting) expect(summary.code).toBe(4);
      }),
    );
  });

  it('always describes a catalogue code with the catalogue description', () => {
    fc.assert(
      fc.property(parts, (list) => {
        const summary = summarizeMultipart(list);
        if (deliveryState(summary.code) !== undefined) expect(summary.description).toBe(description(summary.code));
      }),
    );
  });
});

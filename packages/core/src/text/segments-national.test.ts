import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockingOf, singleOf, STANDARD_LOCKING, STANDARD_SINGLE } from '../../test/gsm-standard.js';
import { gsmDecode, gsmEncode } from './gsm-codec.js';
import { NATIONAL_LANGUAGES, type NationalLanguage } from './gsm-national.js';
import { explain } from './explain.js';
import { estimateSegments, rankTables } from './segments.js';
import { runs } from '../../test/property-runs.js';

/** How one combination of tables fares, by brute force. */
interface BruteOutcome {
  readonly tables: { locking?: NationalLanguage; single?: NationalLanguage };
  readonly segments: number;
  readonly tableCount: number;
  readonly unitsLeft: number;
  readonly headerOctets: number;
}

/**
 * The part count by brute force, from the standard's tables: every combination of an enabled
 * locking shift table (or the default alphabet) and an enabled single shift table (or the default
 * extension table), each table 3 header octets (plus the length octet) in every part, greedy parts
 * that never split an escape pair; UCS-2 when no combination holds every character. `ranking` is
 * every combination that holds the text, in the order of the choice: fewest parts, then fewest
 * tables, then most septets left in the last part (equals in the order tried).
 */
function bruteForce(
  text: string,
  languages: readonly NationalLanguage[],
  referenceBits: 8 | 16,
): { encoding: 'GSM' | 'UCS-2'; segments: number; ranking: BruteOutcome[] } {
  const outcomes: BruteOutcome[] = [];
  for (const locking of [undefined, ...languages.filter((l) => l !== 'spanish')]) {
    for (const single of [undefined, ...languages]) {
      const lockingTable = lockingOf(locking);
      const singleTable = singleOf(single);
      const costs: number[] = [];
      for (const ch of text) {
        costs.push(lockingTable.includes(ch) ? 1 : singleTable.includes(ch) ? 2 : 0);
      }
      if (costs.includes(0)) continue;
      const tableCount = (locking === undefined ? 0 : 1) + (single === undefined ? 0 : 1);
      const header = tableCount === 0 ? 0 : 1 + 3 * tableCount;
      const total = costs.reduce((a, b) => a + b, 0);
      const singleCap = Math.floor(((140 - header) * 8) / 7);
      let segments = 1;
      let unitsLeft = singleCap - total;
      let headerOctets = header;
      if (total > singleCap) {
        headerOctets = (header === 0 ? 1 : header) + (referenceBits === 16 ? 6 : 5);
        const cap = Math.floor(((140 - headerOctets) * 8) / 7);
        let used = 0;
        for (const cost of costs) {
          if (used + cost > cap) {
            segments++;
            used = 0;
          }
          used += cost;
        }
        unitsLeft = cap - used;
      }
      const tables = { ...(locking === undefined ? {} : { locking }), ...(single === undefined ? {} : { single }) };
      outcomes.push({ tables, segments, tableCount, unitsLeft, headerOctets });
    }
  }
  // A stable sort: equals keep the order tried.
  const ranking = outcomes
    .map((o, i) => [o, i] as const)
    .sort(([a, i], [b, j]) => a.segments - b.segments || a.tableCount - b.tableCount || b.unitsLeft - a.unitsLeft || i - j)
    .map(([o]) => o);
  const best = ranking[0];
  if (best !== undefined) return { encoding: 'GSM', segments: best.segments, ranking };
  // UCS-2: 70 code units in one part, else 67 (66) a part, a surrogate pair never split.
  if (text.length <= 70) return { encoding: 'UCS-2', segments: 1, ranking };
  const cap = referenceBits === 16 ? 66 : 67;
  let segments = 0;
  let start = 0;
  while (text.length - start > cap) {
    let end = start + cap;
    if (/[\ud800-\udbff]/.test(text.charAt(end - 1)) && /[\udc00-\udfff]/.test(text.charAt(end))) end--;
    segments++;
    start = end;
  }
  return { encoding: 'UCS-2', segments: segments + 1, ranking };
}

/** What decides between two outcomes: parts, then tables, then room left. */
const rank = (o: { segments: number; tableCount: number; unitsLeft: number }): [number, number, number] => [o.segments, o.tableCount, o.unitsLeft];

const allCharacters = [...new Set([...STANDARD_LOCKING.values(), ...STANDARD_SINGLE.values()].flat().filter((c): c is string => c !== undefined))];

describe('estimateSegments with national language tables', () => {
  it('counts the parts a brute-force search over every combination of the enabled tables finds', () => {
    const languages = fc.uniqueArray(fc.constantFrom(...NATIONAL_LANGUAGES), { minLength: 1, maxLength: 13 });
    const scenario = languages.chain((enabled) => {
      const own = [...new Set(enabled.flatMap((l) => [...lockingOf(l === 'spanish' ? undefined : l), ...singleOf(l)]).filter((c): c is string => c !== undefined))];
      const unit = fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...own) },
        { weight: 2, arbitrary: fc.constantFrom(...allCharacters) },
        { weight: 1, arbitrary: fc.constantFrom('ж', '字', '😀', 'a\u0301') },
      );
      return fc.tuple(fc.constant(enabled), fc.array(unit, { maxLength: 420 }).map((u) => u.join('')), fc.constantFrom(8 as const, 16 as const));
    });
    fc.assert(
      fc.property(scenario, ([enabled, text, referenceBits]) => {
        const estimate = estimateSegments(text, { nationalLanguages: enabled, referenceBits });
        const { ranking: _, ...expected } = bruteForce(text, enabled, referenceBits);
        expect({ encoding: estimate.encoding, segments: estimate.segments }).toEqual(expected);
        expect(estimate.parts.join('')).toBe(text);
        if (estimate.encoding === 'GSM') {
          const tables = estimate.nationalTables ?? {};
          for (const l of [tables.locking, tables.single]) if (l !== undefined) expect(enabled).toContain(l);
          // The chosen tables encode the text, and it decodes back.
          expect(gsmDecode(gsmEncode(text, { nationalTables: tables }), { nationalTables: tables })).toEqual({ ok: true, value: { text, substitutions: [] } });
          expect(rankTables(text, { nationalLanguages: enabled, referenceBits })[0]?.tables).toEqual(tables);
        } else expect(rankTables(text, { nationalLanguages: enabled, referenceBits })).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  it('chooses as a brute-force ranking does: fewest parts, then fewest tables, then most room left', () => {
    const languages = fc.uniqueArray(fc.constantFrom(...NATIONAL_LANGUAGES), { minLength: 1, maxLength: 13 });
    const scenario = languages.chain((enabled) => {
      const own = [...new Set(enabled.flatMap((l) => [...lockingOf(l === 'spanish' ? undefined : l), ...singleOf(l)]).filter((c): c is string => c !== undefined))];
      const unit = fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom(...own) },
        // Characters of the default alphabet: the default tables hold them too, so ties are common.
        { weight: 10, arbitrary: fc.constantFrom(...'abc 0123.,') },
        { weight: 2, arbitrary: fc.constantFrom(...allCharacters) },
        { weight: 1, arbitrary: fc.constantFrom('ж', '😀') },
      );
      // Short and long texts: one part, and around the part boundaries where room left decides.
      const length = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 140, max: 320 }));
      return fc.tuple(fc.constant(enabled), length.chain((n) => fc.array(unit, { minLength: n, maxLength: n })).map((u) => u.join('')), fc.constantFrom(8 as const, 16 as const));
    });
    fc.assert(
      fc.property(scenario, ([enabled, text, referenceBits]) => {
        const expected = bruteForce(text, enabled, referenceBits).ranking;
        const ranking = rankTables(text, { nationalLanguages: enabled, referenceBits });
        // The same combinations, in the same order of parts, tables and room left, with the same header.
        expect(ranking.map(rank)).toEqual(expected.map(rank));
        expect(ranking.map((r) => r.headerOctets)).toEqual(expected.map((o) => o.headerOctets));
        const key = (t: { locking?: string; single?: string }): string => `${t.locking ?? '-'}/${t.single ?? '-'}`;
        expect(ranking.map((r) => key(r.tables)).sort()).toEqual(expected.map((o) => key(o.tables)).sort());
        const x = explain(text, { nationalLanguages: enabled, referenceBits });
        const best = expected[0];
        if (best === undefined) {
          expect(ranking).toEqual([]);
          expect(x.tables?.chosen).toBeUndefined();
          return;
        }
        // The choice is one of the brute force's best; past parts, tables and room left, the first tried.
        const tied = expected.filter((o) => rank(o).join() === rank(best).join()).map((o) => key(o.tables));
        expect(tied).toContain(key(ranking[0]?.tables ?? {}));
        expect(x.tables?.chosen).toEqual(ranking[0]?.tables);
        expect(x.estimate.nationalTables ?? {}).toEqual(ranking[0]?.tables);
        expect([x.estimate.segments, x.estimate.unitsLeft]).toEqual([best.segments, best.unitsLeft]);
        // Each enabled language alone costs what the brute force finds with that language only.
        for (const cost of x.tables?.languages ?? []) {
          const alone = bruteForce(text, [cost.language], referenceBits);
          expect([cost.encoding, cost.segments], cost.language).toEqual([alone.encoding, alone.segments]);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('keeps a Hindi text in GSM with the Hindi tables: one part instead of two in UCS-2', () => {
    const text = 'आपका OTP 482913 है। कृपया इसे किसी के साथ साझा न करें। यह कोड 10 मिनट में समाप्त हो जाएगा। धन्यवाद';
    const plain = estimateSegments(text);
    expect(plain).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    const hindi = estimateSegments(text, { nationalLanguages: ['hindi'] });
    expect(hindi).toMatchObject({ encoding: 'GSM', segments: 1, nationalTables: { locking: 'hindi', single: 'hindi' }, headerOctets: 7 });
    // 97 characters: the capitals and the danda are single shift characters (two septets each).
    expect(hindi.units).toBe(text.length + 3 + 3);
  });

  it('prefers fewer tables at equal parts, then more room left', () => {
    // Turkish ş is in both the Turkish locking (one septet) and single shift (two) tables: one table
    // either way, and the locking shift table leaves more room.
    expect(estimateSegments('ş', { nationalLanguages: ['turkish'] }).nationalTables).toEqual({ locking: 'turkish' });
    const ranking = rankTables('ş', { nationalLanguages: ['turkish'] });
    expect(ranking.map((r) => r.tables)).toEqual([{ locking: 'turkish' }, { single: 'turkish' }, { locking: 'turkish', single: 'turkish' }]);
    expect(ranking.map((r) => [r.segments, r.tableCount, r.unitsLeft, r.headerOctets])).toEqual([
      [1, 1, 154, 4],
      [1, 1, 153, 4],
      [1, 2, 151, 7],
    ]);
    // 156 'ş' do not fit one part with a national table (155 septets): two parts. 156 'a' fit one part with the default tables.
    const long = 'ş'.repeat(156);
    expect(rankTables(long, { nationalLanguages: ['turkish'] })[0]).toMatchObject({ tables: { locking: 'turkish' }, segments: 2 });
    expect(rankTables('a'.repeat(156), { nationalLanguages: ['turkish'] })[0]).toMatchObject({ tables: {}, segments: 1, unitsLeft: 4 });
  });
});

describe('estimateSegments and lone surrogates', () => {
  it('flags a lone surrogate instead of counting it silently', () => {
    const e = estimateSegments('ok \ud83d then \ude00 and 😀');
    expect(e.encoding).toBe('UCS-2');
    expect(e.loneSurrogates).toEqual([3, 10]);
    expect(estimateSegments('fine 😀').loneSurrogates).toBeUndefined();
    expect(estimateSegments('plain GSM').loneSurrogates).toBeUndefined();
    expect(estimateSegments('\udc00', { nationalLanguages: ['hindi'] }).loneSurrogates).toEqual([0]);
  });

  it('finds every lone surrogate of any text', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'ж', '😀', '\ud800', '\udfff'), fc.string({ maxLength: 3, unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }).map((u) => u.join('')), (text) => {
        const lone: number[] = [];
        for (let i = 0; i < text.length; i++) {
          const c = text.charCodeAt(i);
          const next = text.charCodeAt(i + 1);
          if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
          else if (c >= 0xd800 && c <= 0xdfff) lone.push(i);
        }
        expect(estimateSegments(text).loneSurrogates).toEqual(lone.length === 0 ? undefined : lone);
      }),
    );
  });
});

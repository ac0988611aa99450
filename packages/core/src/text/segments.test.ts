import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { gsmSeptetLength } from './gsm-alphabet.js';
import { candidateCosts, septetCost, septetCosts, type NationalLanguage } from './gsm-national.js';
import { decodeHex, encodeHex } from './hex.js';
import { estimateSegments, type SegmentEstimate } from './segments.js';
import { WAP_PUSH_UDH } from './udh.js';
import { runs } from '../../test/property-runs.js';

const a = (n: number): string => 'a'.repeat(n);
const zh = (n: number): string => 'ж'.repeat(n);
const unwrap = (r: ReturnType<typeof estimateSegments> | { ok: boolean; value?: SegmentEstimate }): SegmentEstimate => {
  if ('ok' in r) {
    if (!r.ok || r.value === undefined) throw new Error('expected an estimate');
    return r.value;
  }
  return r;
};
const shape = (e: SegmentEstimate): unknown => ({ encoding: e.encoding, segments: e.segments, partUnits: e.partUnits });

describe('GSM boundaries', () => {
  it('fits 160 septets in one part and splits 161 into 153 + 8', () => {
    expect(shape(estimateSegments(a(160)))).toEqual({ encoding: 'GSM', segments: 1, partUnits: [160] });
    const e = estimateSegments(a(161));
    expect(shape(e)).toEqual({ encoding: 'GSM', segments: 2, partUnits: [153, 8] });
    expect(e).toMatchObject({ units: 161, unitsPerPart: 153, unitsLeft: 145, singlePartCapacity: 160, multipartCapacity: 153, headerOctets: 6 });
  });

  it('counts an extension character as two septets: 159 + € fits, 160 + € does not', () => {
    expect(estimateSegments(a(158) + '€').segments).toBe(1);
    expect(estimateSegments(a(159) + '€').segments).toBe(2);
  });

  it.each([2, 3, 5])('fits 153×%i septets in that many parts and one more septet in one more part', (k) => {
    expect(estimateSegments(a(153 * k)).segments).toBe(k);
    expect(estimateSegments(a(153 * k - 1)).segments).toBe(k);
    expect(estimateSegments(a(153 * k + 1)).segments).toBe(k + 1);
  });

  it('never splits an escape pair: an extension character on the boundary moves to the next part', () => {
    // 152 + € + 151 = 305 septets: the € cannot straddle 153, so the parts are 152 + 153.
    const fits = estimateSegments(a(152) + '€' + a(151));
    expect(shape(fits)).toEqual({ encoding: 'GSM', segments: 2, partUnits: [152, 153] });
    expect(fits.parts).toEqual([a(152), '€' + a(151)]);
    // 306 septets would fill two parts exactly, but the pair on the boundary costs a third part.
    expect(shape(estimateSegments(a(152) + '€' + a(152)))).toEqual({ encoding: 'GSM', segments: 3, partUnits: [152, 153, 1] });
    // On the boundary of the second and third parts: 459 septets = 3 × 153, yet four parts.
    expect(estimateSegments(a(153 + 152) + '{' + a(152)).partUnits).toEqual([153, 152, 153, 1]);
  });

  it('treats an empty text as one empty part', () => {
    expect(estimateSegments('')).toMatchObject({ encoding: 'GSM', segments: 1, parts: [''], units: 0, unitsLeft: 160 });
  });
});

describe('UCS-2 boundaries', () => {
  it('fits 70 units in one part and splits 71 into 67 + 4', () => {
    expect(shape(estimateSegments(zh(70)))).toEqual({ encoding: 'UCS-2', segments: 1, partUnits: [70] });
    expect(estimateSegments(zh(71))).toMatchObject({ segments: 2, partUnits: [67, 4], unit: 'utf16-unit', multipartCapacity: 67 });
  });

  it('counts a GSM character as a full unit once the message is UCS-2', () => {
    expect(estimateSegments(a(69) + '€' + 'ж').segments).toBe(2);
    expect(estimateSegments(a(68) + '€' + 'ж').segments).toBe(1);
  });

  it.each([2, 4])('fits 67×%i units in that many parts, one more unit in one more part', (k) => {
    expect(estimateSegments(zh(67 * k)).segments).toBe(k);
    expect(estimateSegments(zh(67 * k - 1)).segments).toBe(k);
    expect(estimateSegments(zh(67 * k + 1)).segments).toBe(k + 1);
  });

  it('never splits a surrogate pair: an emoji on the boundary moves to the next part', () => {
    const fits = estimateSegments(zh(66) + '😀' + zh(65));
    expect(shape(fits)).toEqual({ encoding: 'UCS-2', segments: 2, partUnits: [66, 67] });
    expect(fits.parts).toEqual([zh(66), '😀' + zh(65)]);
    expect(shape(estimateSegments(zh(66) + '😀' + zh(66)))).toEqual({ encoding: 'UCS-2', segments: 3, partUnits: [66, 67, 1] });
    // A 70-unit message of 35 emoji fits one part; one more unit needs two.
    expect(estimateSegments('😀'.repeat(35)).segments).toBe(1);
    expect(estimateSegments('a' + '😀'.repeat(35)).partUnits).toEqual([67, 4]);
  });

  it('names the characters that forced UCS-2, once each, with the first index and the count', () => {
    expect(estimateSegments('Hi 😀 café ça 😀 ça').ucs2Characters).toEqual([
      { char: '😀', index: 3, count: 2 },
      { char: 'ç', index: 11, count: 2 },
    ]);
    expect(estimateSegments('plain GSM €').ucs2Characters).toEqual([]);
  });
});

describe('concatenation header options', () => {
  it('uses 152 septets, 66 units and 133 octets per part with a 16-bit reference (7-octet header)', () => {
    expect(estimateSegments(a(161), { referenceBits: 16 })).toMatchObject({ partUnits: [152, 9], headerOctets: 7, multipartCapacity: 152 });
    expect(estimateSegments(a(160), { referenceBits: 16 })).toMatchObject({ segments: 1, headerOctets: 0 });
    expect(estimateSegments(zh(71), { referenceBits: 16 }).partUnits).toEqual([66, 5]);
    expect(estimateSegments(zh(133), { referenceBits: 16 }).segments).toBe(3);
    expect(unwrap(estimateSegments('00'.repeat(141), { type: 'binary', referenceBits: 16 })).partUnits).toEqual([133, 8]);
  });
});

describe('national language tables', () => {
  const tr = loadFixture('text/shipping-tr.txt');
  const pt = loadFixture('text/shipping-pt.txt');
  const es = loadFixture('text/pickup-es.txt');

  it('keeps Turkish, Portuguese and Spanish texts in GSM when their tables are enabled', () => {
    expect(estimateSegments(tr)).toMatchObject({ encoding: 'UCS-2', segments: 3 });
    expect(estimateSegments(tr, { nationalLanguages: ['turkish'] })).toMatchObject({
      encoding: 'GSM',
      segments: 2,
      nationalTables: { locking: 'turkish' },
      headerOctets: 9,
      multipartCapacity: 149,
      singlePartCapacity: 155,
    });
    expect(estimateSegments(pt, { nationalLanguages: ['portuguese'] })).toMatchObject({ encoding: 'GSM', segments: 2, nationalTables: { locking: 'portuguese' } });
    expect(estimateSegments(es, { nationalLanguages: ['spanish'] })).toMatchObject({ encoding: 'GSM', segments: 2, nationalTables: { single: 'spanish' } });
  });

  it('prices one table at 4 header octets in a single part: 155 septets fit, 156 do not', () => {
    expect(estimateSegments('ş' + a(154), { nationalLanguages: ['turkish'] })).toMatchObject({ segments: 1, headerOctets: 4, unitsLeft: 0 });
    expect(estimateSegments('ş' + a(155), { nationalLanguages: ['turkish'] })).toMatchObject({ segments: 2, partUnits: [149, 7], headerOctets: 9 });
  });

  it('prices two tables at 7 header octets in a single part and 12 in a multipart one', () => {
    // Σ is only in the Portuguese single shift table once the Portuguese locking table replaces the default.
    const text = 'ã' + 'Σ' + a(10);
    const e = estimateSegments(text, { nationalLanguages: ['portuguese'] });
    expect(e.nationalTables).toEqual({ single: 'portuguese' });
    // º is only in the Portuguese locking table, Φ then only in the Portuguese single shift table.
    const both = estimateSegments('ºΦ' + a(149), { nationalLanguages: ['portuguese'] });
    expect(both).toMatchObject({ nationalTables: { locking: 'portuguese', single: 'portuguese' }, headerOctets: 7, segments: 1, units: 152, unitsLeft: 0 });
    expect(estimateSegments('ºΦ' + a(150), { nationalLanguages: ['portuguese'] }).segments).toBe(2);
    const multi = estimateSegments('ºΦ' + a(200), { nationalLanguages: ['portuguese'] });
    expect(multi).toMatchObject({ headerOctets: 12, multipartCapacity: 146, partUnits: [146, 57] });
    expect(estimateSegments('ºΦ' + a(200), { nationalLanguages: ['portuguese'], referenceBits: 16 })).toMatchObject({ headerOctets: 13, multipartCapacity: 145 });
  });

  it('does not use a table the text does not need', () => {
    expect(estimateSegments(a(20), { nationalLanguages: ['turkish', 'spanish', 'portuguese'] })).not.toHaveProperty('nationalTables');
    expect(estimateSegments(a(20), { nationalLanguages: [] }).headerOctets).toBe(0);
  });

  it('falls back to UCS-2 and names only the characters no enabled table holds', () => {
    const e = estimateSegments('Şeker 😀 ç', { nationalLanguages: ['turkish'] });
    expect(e.encoding).toBe('UCS-2');
    expect(e.ucs2Characters).toEqual([{ char: '😀', index: 6, count: 1 }]);
  });

  it('names the characters outside the default alphabet when each is in a table but no combination holds them all', () => {
    // è is only in the default alphabet, ı only in the Turkish tables, ã only in the Portuguese ones.
    const e = estimateSegments('èãı', { nationalLanguages: ['turkish', 'portuguese'] });
    expect(e.encoding).toBe('UCS-2');
    expect(e.ucs2Characters.map((c) => c.char)).toEqual(['ã', 'ı']);
  });
});

describe('operator limits and mlc', () => {
  const operator = { textLength: 160, unicodeLength: 70, binaryLength: 140, maxParts: 4 };

  it('accepts a single part under every mlc', () => {
    const e = estimateSegments(a(160), { operator });
    expect(e).toMatchObject({ fits: true, maxParts: 4 });
    expect(e.mlc).toEqual({
      reject: { accepted: true },
      truncate: { accepted: true, truncated: false, content: a(160), units: 160 },
      segment: { accepted: true, segments: 1 },
    });
  });

  it('reject refuses a multipart message, truncate keeps the first part that fits, segment sends the parts', () => {
    const text = a(150) + '€' + a(20);
    const e = estimateSegments(text, { operator });
    expect(e.fits).toBe(false);
    expect(e.mlc.reject).toEqual({ accepted: false });
    // Truncation keeps what one part holds (160 septets), never half an escape pair.
    expect(e.mlc.truncate).toEqual({ accepted: true, truncated: true, content: a(150) + '€' + a(8), units: 160 });
    expect(e.mlc.segment).toEqual({ accepted: true, segments: 2 });
    const edge = estimateSegments(a(159) + '€' + a(5), { operator });
    expect(edge.mlc.truncate).toMatchObject({ content: a(159), units: 159 });
  });

  it('segment is rejected beyond the operator maximum of parts, and beyond 255 parts anyway', () => {
    expect(estimateSegments(a(153 * 4), { operator }).mlc.segment).toEqual({ accepted: true, segments: 4 });
    expect(estimateSegments(a(153 * 4 + 1), { operator }).mlc.segment).toEqual({ accepted: false, segments: 5 });
    expect(estimateSegments(a(153 * 255 + 1)).mlc.segment).toEqual({ accepted: false, segments: 256 });
  });

  it('lowers every part by the difference when the operator length is below the standard', () => {
    const low = { textLength: 140, unicodeLength: 60 };
    expect(estimateSegments(a(140), { operator: low })).toMatchObject({ segments: 1, singlePartCapacity: 140 });
    expect(estimateSegments(a(141), { operator: low })).toMatchObject({ partUnits: [133, 8], multipartCapacity: 133 });
    expect(estimateSegments(zh(61), { operator: low })).toMatchObject({ partUnits: [57, 4] });
    expect(estimateSegments(zh(61), { operator: { textLength: 100 } }).partUnits).toEqual([61]);
    // A limit above the standard changes nothing.
    expect(estimateSegments(a(161), { operator: { textLength: 200 } }).segments).toBe(2);
    // Truncation uses the operator's single-part length.
    expect(estimateSegments(zh(61), { operator: low }).mlc.truncate).toMatchObject({ content: zh(60), units: 60 });
  });

  it('throws a TypeError on limits that are not positive integers or leave no room', () => {
    expect(() => estimateSegments('a', { operator: { textLength: 0 } })).toThrow(TypeError);
    expect(() => estimateSegments('a', { operator: { maxParts: 1.5 } })).toThrow(TypeError);
    expect(() => estimateSegments('a', { operator: { textLength: 7 } })).toThrow(TypeError);
  });
});

describe('hex content', () => {
  it('counts binary octets: 140 in one part, 134 per part', () => {
    expect(unwrap(estimateSegments('AB'.repeat(140), { type: 'binary' }))).toMatchObject({ encoding: '8-bit', unit: 'octet', segments: 1 });
    const e = unwrap(estimateSegments('AB'.repeat(141), { type: 'binary' }));
    expect(e).toMatchObject({ segments: 2, partUnits: [134, 7] });
    expect(e.parts).toEqual(['AB'.repeat(134), 'AB'.repeat(7)]);
  });

  it('repeats a user data header in every part and counts it', () => {
    const payload = 'CD'.repeat(133);
    expect(unwrap(estimateSegments(WAP_PUSH_UDH + payload, { type: 'binary', udh: true }))).toMatchObject({ segments: 1, units: 133, headerOctets: 7 });
    const e = unwrap(estimateSegments(WAP_PUSH_UDH + payload + 'CD', { type: 'binary', udh: true }));
    expect(e).toMatchObject({ segments: 2, partUnits: [128, 6], headerOctets: 12, multipartCapacity: 128 });
    expect(e.parts.join('')).toBe(WAP_PUSH_UDH + payload + 'CD');
    expect(e.parts[0]?.startsWith(WAP_PUSH_UDH)).toBe(true);
  });

  it('counts GSM hex in septets and keeps 1B pairs together', () => {
    const hex = encodeHex(a(152) + '€' + a(10), 'GSM');
    const e = unwrap(estimateSegments(hex, { type: 'hexEncodedText', charset: 'GSM' }));
    expect(e).toMatchObject({ encoding: 'GSM', unit: 'septet', segments: 2, partUnits: [152, 12] });
    expect(e.parts[1]?.startsWith('1B65')).toBe(true);
  });

  it('counts UTF-16 hex in code units and keeps surrogate pairs together', () => {
    const hex = encodeHex(zh(66) + '😀' + zh(5), 'UTF-16');
    const e = unwrap(estimateSegments(hex, { type: 'hexEncodedText', charset: 'UTF-16' }));
    expect(e).toMatchObject({ encoding: 'UCS-2', unit: 'utf16-unit', segments: 2, partUnits: [66, 7] });
    expect(e.parts[1]?.startsWith('D83DDE00')).toBe(true);
  });

  it('counts Latin-1 and UTF-8 hex in octets and keeps UTF-8 sequences together', () => {
    expect(unwrap(estimateSegments(encodeHex('é'.repeat(140), 'Latin-1'), { type: 'hexEncodedText', charset: 'Latin-1' }))).toMatchObject({ encoding: '8-bit', segments: 1 });
    const e = unwrap(estimateSegments(encodeHex(a(133) + 'é' + a(10), 'UTF-8'), { type: 'hexEncodedText', charset: 'UTF-8' }));
    expect(e.partUnits).toEqual([133, 12]);
  });

  it('returns the hex error of content that does not decode', () => {
    expect(estimateSegments('ABC', { type: 'binary' })).toMatchObject({ ok: false, error: { kind: 'odd-length' } });
    expect(estimateSegments('80', { type: 'hexEncodedText', charset: 'GSM' })).toMatchObject({ ok: false, error: { kind: 'invalid-octets' } });
    expect(estimateSegments('0605', { type: 'binary', udh: true })).toMatchObject({ ok: false, error: { kind: 'bad-udh' } });
  });
});

describe('grapheme clusters', () => {
  const family = '👨‍👩‍👧‍👦';

  it('keeps clusters whole on request and says when that costs a part', () => {
    const text = zh(57) + family + zh(46) + family;
    expect(estimateSegments(text).segments).toBe(2);
    const e = estimateSegments(text, { graphemes: true });
    expect(e.segments).toBe(3);
    expect(e.graphemes).toEqual({ segmentsWithoutGraphemes: 2, changed: true });
    expect(e.parts[1]?.startsWith(family)).toBe(true);
  });

  it('reports no change when the clusters fit', () => {
    expect(estimateSegments('hi ' + family, { graphemes: true }).graphemes).toEqual({ segmentsWithoutGraphemes: 1, changed: false });
    expect(estimateSegments('hi').graphemes).toBeUndefined();
  });

  it('keeps CR LF together in GSM and splits a cluster larger than a part', () => {
    const crlf = estimateSegments(a(152) + '\r\n' + a(10), { graphemes: true });
    expect(crlf.parts[1]?.startsWith('\r\n')).toBe(true);
    const zalgo = 'e' + '\u0301'.repeat(80);
    expect(estimateSegments(zalgo, { graphemes: true }).partUnits).toEqual([67, 14]);
  });
});

describe('misuse', () => {
  it('throws a TypeError on wrong arguments', () => {
    expect(() => estimateSegments(42 as unknown as string)).toThrow(TypeError);
    expect(() => estimateSegments('a', { type: 'wapPush' } as unknown as { type: 'text' })).toThrow(TypeError);
    expect(() => estimateSegments('00', { type: 'hexEncodedText' })).toThrow(TypeError);
    expect(() => estimateSegments('00', { type: 'hexEncodedText', charset: 'ASCII' as 'GSM' })).toThrow(TypeError);
    expect(() => estimateSegments('a', { referenceBits: 12 as 8 })).toThrow(TypeError);
    expect(() => estimateSegments('00', { type: 'binary', graphemes: true } as unknown as { type: 'binary' })).toThrow(TypeError);
    expect(() => estimateSegments('a', { nationalLanguages: 'turkish' as unknown as NationalLanguage[] })).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abc 1.,!?@£$¥èéΔ\n€{}[]~^|\\') },
  { weight: 2, arbitrary: fc.constantFrom('ж', 'ç', '’', 'ş', 'ı', 'ã', 'º', 'ñ', 'Σ') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧‍👦', 'e\u0301', '\r\n', '🇹🇷') },
);
const message = fc.array(unit, { maxLength: 400 }).map((u) => u.join(''));
const languages = fc.subarray<NationalLanguage>(['turkish', 'spanish', 'portuguese']);
const options = fc.record(
  { graphemes: fc.boolean(), referenceBits: fc.constantFrom(8 as const, 16 as const), nationalLanguages: languages },
  { requiredKeys: [] },
);

function unitsOf(part: string, e: SegmentEstimate): number {
  if (e.encoding === 'UCS-2') return part.length;
  if (e.nationalTables === undefined) return gsmSeptetLength(part);
  const costs = septetCosts(e.nationalTables);
  let n = 0;
  for (let i = 0; i < part.length; i++) n += septetCost(costs, part.charCodeAt(i));
  return n;
}

describe('estimateSegments properties', () => {
  it('parts join back to the input, each within capacity, count = parts, no pair split, greedy and exact', () => {
    fc.assert(
      fc.property(message, options, (text, opts) => {
        const e = estimateSegments(text, opts);
        expect(e.parts.join('')).toBe(text);
        expect(e.segments).toBe(e.parts.length);
        expect(e.partUnits).toHaveLength(e.segments);
        expect(e.partUnits.reduce((x, y) => x + y, 0)).toBe(e.units);
        expect(e.unitsLeft).toBe(e.unitsPerPart - (e.partUnits.at(-1) ?? 0));
        e.parts.forEach((part, i) => {
          expect(unitsOf(part, e)).toBe(e.partUnits[i]);
          expect(e.partUnits[i]).toBeLessThanOrEqual(e.unitsPerPart);
          // No surrogate pair is split.
          expect(part.isWellFormed()).toBe(true);
        });
        if (e.segments === 1) expect(e.units).toBeLessThanOrEqual(e.singlePartCapacity);
        else expect(e.units).toBeGreaterThan(e.singlePartCapacity);
        if (e.encoding === 'GSM') expect(e.ucs2Characters).toEqual([]);
        else expect(e.ucs2Characters.length).toBeGreaterThan(0);
      }),
      { numRuns: runs(400) },
    );
  });

  it('each part but the last could not take the next character (so the count is the least possible)', () => {
    fc.assert(
      fc.property(message, (text) => {
        const e = estimateSegments(text);
        for (let i = 0; i + 1 < e.segments; i++) {
          const next = e.parts[i + 1] as string;
          const first = next.codePointAt(0) as number;
          const char = String.fromCodePoint(first);
          expect((e.partUnits[i] as number) + unitsOf(char, e)).toBeGreaterThan(e.unitsPerPart);
        }
      }),
    );
  });

  it('with graphemes, parts end on cluster boundaries unless a cluster is larger than a part', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    fc.assert(
      fc.property(message, (text) => {
        const e = estimateSegments(text, { graphemes: true });
        const ends = new Set([0, ...[...segmenter.segment(text)].map((s) => s.index + s.segment.length)]);
        let at = 0;
        for (const part of e.parts) {
          at += part.length;
          if (!ends.has(at)) {
            const cluster = [...segmenter.segment(text)].find((s) => s.index < at && s.index + s.segment.length > at);
            expect(unitsOf(cluster?.segment ?? '', e)).toBeGreaterThan(e.multipartCapacity);
          }
        }
        expect(e.graphemes?.segmentsWithoutGraphemes).toBe(estimateSegments(text).segments);
      }),
      { numRuns: runs(200) },
    );
  });

  it('national tables never cost more parts than the default tables', () => {
    fc.assert(
      fc.property(message, languages, (text, langs) => {
        expect(estimateSegments(text, { nationalLanguages: langs }).segments).toBeLessThanOrEqual(estimateSegments(text).segments);
        expect(candidateCosts(langs).length).toBeGreaterThan(0);
      }),
      { numRuns: runs(200) },
    );
  });

  it('hex content: parts join back, each within capacity, pairs and sequences kept whole', () => {
    const charset = fc.constantFrom('GSM' as const, 'Latin-1' as const, 'UTF-8' as const, 'UTF-16' as const);
    fc.assert(
      fc.property(message, charset, fc.boolean(), (text, cs, udh) => {
        const source = cs === 'GSM' ? text.replace(/[^@£$¥èéΔ\n€{}[\]~^|\\abc 1.,!?]/gu, 'a') : cs === 'Latin-1' ? text.replace(/[^\0-\xff]/gu, 'é') : text;
        const hex = (udh ? '050003010101' : '') + encodeHex(source, cs);
        const e = unwrap(estimateSegments(hex, { type: 'hexEncodedText', charset: cs, udh }));
        expect(e.parts.join('')).toBe(hex);
        expect(e.segments).toBe(e.parts.length);
        for (const u of e.partUnits) expect(u).toBeLessThanOrEqual(e.unitsPerPart);
        const payloads = e.parts.map((p, i) => (i === 0 && udh ? p.slice(12) : p));
        // Each part decodes on its own: no escape pair, surrogate pair or UTF-8 sequence is split.
        for (const p of payloads) expect(decodeHex(p, cs).ok).toBe(true);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('members of an estimate', () => {
  const base = ['encoding', 'unit', 'segments', 'parts', 'partUnits', 'units', 'unitsPerPart', 'unitsLeft', 'singlePartCapacity', 'multipartCapacity', 'headerOctets', 'ucs2Characters'];
  it('come in the documented order (JSON written from an estimate keeps it), optional ones only when they apply', () => {
    expect(Object.keys(estimateSegments('hello'))).toEqual([...base, 'fits', 'mlc']);
    expect(Object.keys(estimateSegments('hello 😀'))).toEqual([...base, 'fits', 'mlc']);
    expect(Object.keys(estimateSegments('hello', { graphemes: true, operator: { maxParts: 3 } }))).toEqual([...base, 'graphemes', 'fits', 'maxParts', 'mlc']);
    expect(Object.keys(estimateSegments('ağ', { nationalLanguages: ['turkish'] }))).toEqual([...base, 'nationalTables', 'fits', 'mlc']);
    expect(Object.keys(estimateSegments('a\ud800'))).toEqual([...base, 'fits', 'mlc', 'loneSurrogates']);
    const ucs2 = estimateSegments('hello 😀');
    const written = JSON.parse(JSON.stringify(ucs2)) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual([...base, 'fits', 'mlc']);
    expect(written).toStrictEqual({ ...ucs2 });
  });

  it('list the characters that forced UCS-2 on first read as a plain member: the same array each read, also when frozen, nothing hidden shown', () => {
    const text = 'Şeker 😀 ç “x” 😀';
    const turkish = estimateSegments(text, { nationalLanguages: ['turkish'] });
    const plain = estimateSegments(text);
    const first = turkish.ucs2Characters;
    expect(first.map((c) => c.char)).toEqual(['😀', '“', '”']);
    expect(turkish.ucs2Characters).toBe(first);
    expect(first[0]).toEqual({ char: '😀', index: 6, count: 2 });
    // Without the Turkish tables, Ş and ç (only Ç is in the default alphabet) are forced too: each estimate lists against its own tables.
    expect(plain.ucs2Characters.map((c) => c.char)).toEqual(['Ş', '😀', 'ç', '“', '”']);
    const descriptor = Object.getOwnPropertyDescriptor(plain, 'ucs2Characters');
    expect(descriptor?.enumerable).toBe(true);
    expect(Object.getOwnPropertySymbols(plain).filter((s) => Object.getOwnPropertyDescriptor(plain, s)?.enumerable)).toEqual([]);
    const frozen = Object.freeze(estimateSegments(text, { nationalLanguages: ['turkish'] }));
    expect(frozen.ucs2Characters).toEqual(first);
    expect(frozen.ucs2Characters).toEqual(first);
    expect({ ...estimateSegments(text) }.ucs2Characters).toEqual(plain.ucs2Characters);
    expect(estimateSegments(text)).toEqual(plain);
  });
});

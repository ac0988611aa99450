import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lockingOf, singleOf, STANDARD_LOCKING, STANDARD_SINGLE } from '../../test/gsm-standard.js';
import { gsmDecode, gsmEncode, nationalShiftOfHeader, type GsmSubstitution } from './gsm-codec.js';
import { NATIONAL_LANGUAGES, type NationalLanguage, type NationalTables } from './gsm-national.js';
import { bytesToHex, decodeHex, decodeHexContent, encodeHex } from './hex.js';
import { runs } from '../../test/property-runs.js';

const hex2 = (b: number): string => b.toString(16).toUpperCase().padStart(2, '0');

/** Every combination of a locking shift table (default, or a language with one) and a single shift table. */
const COMBINATIONS: { readonly tables: NationalTables; readonly name: string }[] = [];
for (const locking of [undefined, ...NATIONAL_LANGUAGES.filter((l) => l !== 'spanish')]) {
  for (const single of [undefined, ...NATIONAL_LANGUAGES]) {
    COMBINATIONS.push({
      tables: { ...(locking === undefined ? {} : { locking }), ...(single === undefined ? {} : { single }) },
      name: `${locking ?? 'default'}/${single ?? 'default'}`,
    });
  }
}

describe('the fixture helper', () => {
  it('has the 14 locking and 14 single shift tables', () => {
    expect(STANDARD_LOCKING.size).toBe(13);
    expect(STANDARD_SINGLE.size).toBe(14);
    expect(COMBINATIONS).toHaveLength(13 * 14);
  });
});

describe('receiver decoding (TS 23.038 6.2.1.1) of every escape sequence, in every combination of tables', () => {
  it.each(COMBINATIONS.map((c) => [c.name, c.tables] as const))('%s', (_, tables) => {
    const locking = lockingOf(tables.locking);
    const single = singleOf(tables.single);
    for (let x = 0; x < 128; x++) {
      const pair = Uint8Array.of(0x1b, x);
      const strict = gsmDecode(pair, { nationalTables: tables });
      const receiver = gsmDecode(pair, { nationalTables: tables, mode: 'receiver' });
      const defined = single[x];
      if (defined !== undefined) {
        // A character of the single shift table: the same in both modes, nothing substituted.
        expect([x, strict]).toEqual([x, { ok: true, value: { text: defined, substitutions: [] } }]);
        expect([x, receiver]).toEqual([x, { ok: true, value: { text: defined, substitutions: [] } }]);
        continue;
      }
      // 1B 1B shows a space; any other code without a single shift character shows the locking shift table's character.
      const kind = x === 0x1b ? 'escape-escape' : 'unknown-escape';
      const shown = x === 0x1b ? ' ' : (locking[x] ?? '\ufffd');
      const substitution: GsmSubstitution = { kind, index: 0, septets: `1B${hex2(x)}`, char: shown };
      expect([x, receiver]).toEqual([x, { ok: true, value: { text: shown, substitutions: [substitution] } }]);
      expect([x, strict.ok ? undefined : strict.error.kind]).toEqual([x, kind]);
    }
  });

  it('drops a trailing escape and reports it; strict decoding refuses it', () => {
    expect(gsmDecode(Uint8Array.of(0x48, 0x69, 0x1b), { mode: 'receiver' })).toEqual({
      ok: true,
      value: { text: 'Hi', substitutions: [{ kind: 'trailing-escape', index: 2, septets: '1B', char: '' }] },
    });
    expect(gsmDecode(Uint8Array.of(0x48, 0x69, 0x1b))).toEqual({
      ok: false,
      error: { kind: 'trailing-escape', index: 2, message: 'escape 1B at index 2 ends the content' },
    });
    expect(gsmDecode(Uint8Array.of(0x1b), { mode: 'receiver' })).toEqual({
      ok: true,
      value: { text: '', substitutions: [{ kind: 'trailing-escape', index: 0, septets: '1B', char: '' }] },
    });
  });

  it('shows U+FFFD for a septet without a character in the locking shift table and reports it', () => {
    // Bengali locking 0x11 is empty in A.3.4.
    const tables = { locking: 'bengali' } as const;
    expect(gsmDecode(Uint8Array.of(0x11, 0x41), { nationalTables: tables, mode: 'receiver' })).toEqual({
      ok: true,
      value: { text: '\ufffd\u09ad', substitutions: [{ kind: 'no-character', index: 0, septets: '11', char: '\ufffd' }] },
    });
    expect(gsmDecode(Uint8Array.of(0x11), { nationalTables: tables })).toEqual({
      ok: false,
      error: { kind: 'no-character', index: 0, message: 'septet 11 at index 0 has no character in the Bengali locking shift table or the default extension table' },
    });
    for (const [language, table] of STANDARD_LOCKING) {
      const nationalTables: NationalTables = language === 'default' ? {} : { locking: language as NationalLanguage };
      for (let s = 0; s < 128; s++) {
        if (s === 0x1b || table[s] !== undefined) continue;
        const decoded = gsmDecode(Uint8Array.of(s), { nationalTables, mode: 'receiver' });
        expect(decoded.ok && decoded.value.substitutions[0]?.kind).toBe('no-character');
      }
    }
  });

  it('names the escape pair and the tables in strict errors', () => {
    expect(gsmDecode(Uint8Array.of(0x41, 0x1b, 0x41))).toEqual({
      ok: false,
      error: { kind: 'unknown-escape', index: 1, message: 'escape pair 1B 41 at index 1 has no GSM 03.38 extension character' },
    });
    expect(gsmDecode(Uint8Array.of(0x1b, 0x1b), { nationalTables: { single: 'hindi' } })).toEqual({
      ok: false,
      error: { kind: 'escape-escape', index: 0, message: 'escape pair 1B 1B at index 0 has no character in the default alphabet or the Hindi single shift table' },
    });
  });

  it('refuses an octet over 7F in both modes, after an escape too', () => {
    for (const mode of ['strict', 'receiver'] as const) {
      expect(gsmDecode(Uint8Array.of(0x41, 0x80), { mode })).toEqual({
        ok: false,
        error: { kind: 'not-a-septet', index: 1, message: 'octet 80 at index 1 is not a GSM 03.38 septet (over 7F)' },
      });
      expect(gsmDecode(Uint8Array.of(0x1b, 0xff), { mode }).ok).toBe(false);
    }
  });

  it('reports each substitution at the septets it names, and agrees with strict decoding where that succeeds', () => {
    const tables = fc.constantFrom(...COMBINATIONS.map((c) => c.tables));
    const septets = fc.uint8Array({ maxLength: 60 }).map((a) => a.map((b) => (b % 3 === 0 ? 0x1b : b & 0x7f)));
    fc.assert(
      fc.property(septets, tables, (bytes, nationalTables) => {
        const receiver = gsmDecode(bytes, { nationalTables, mode: 'receiver' });
        expect(receiver.ok).toBe(true);
        if (!receiver.ok) return;
        let last = -1;
        for (const s of receiver.value.substitutions) {
          expect(s.index).toBeGreaterThan(last);
          last = s.index;
          expect(bytesToHex(bytes.subarray(s.index, s.index + s.septets.length / 2))).toBe(s.septets);
        }
        const strict = gsmDecode(bytes, { nationalTables });
        expect(strict.ok).toBe(receiver.value.substitutions.length === 0);
        if (strict.ok) expect(strict.value.text).toBe(receiver.value.text);
      }),
      { numRuns: runs(500) },
    );
  });

  it('never throws on arbitrary octets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.constantFrom('strict', 'receiver') as fc.Arbitrary<'strict' | 'receiver'>, (bytes, mode) => {
        const decoded = gsmDecode(bytes, { mode });
        expect(decoded.ok || decoded.error.kind.length > 0).toBe(true);
      }),
    );
  });
});

/** The characters of a combination of tables, from the standard's tables. */
function charactersOf(tables: NationalTables): string[] {
  const chars = new Set<string>();
  for (const c of lockingOf(tables.locking)) if (c !== undefined) chars.add(c);
  for (const c of singleOf(tables.single)) if (c !== undefined) chars.add(c);
  return [...chars];
}

describe('encode → decode', () => {
  it('is the identity for any text of any combination of tables, as septets and as hex', () => {
    const case_ = fc.constantFrom(...COMBINATIONS).chain(({ tables }) =>
      fc.tuple(fc.constant(tables), fc.array(fc.constantFrom(...charactersOf(tables)), { maxLength: 200 }).map((a) => a.join(''))),
    );
    fc.assert(
      fc.property(case_, ([tables, text]) => {
        const septets = gsmEncode(text, { nationalTables: tables });
        expect(gsmDecode(septets, { nationalTables: tables })).toEqual({ ok: true, value: { text, substitutions: [] } });
        const hex = encodeHex(text, 'GSM', { nationalTables: tables });
        expect(hex).toBe(bytesToHex(septets));
        expect(decodeHex(hex, 'GSM', { nationalTables: tables })).toEqual({ ok: true, value: text });
      }),
      { numRuns: runs(1000) },
    );
  });

  it('writes a character of both tables with the locking shift table, and a single shift character as 1B xx', () => {
    expect([...gsmEncode('क।', { nationalTables: { locking: 'hindi', single: 'hindi' } })]).toEqual([0x15, 0x1b, 0x19]);
    // '?' is in the Hindi locking shift table (0x3F) and not in the single shift one.
    expect([...gsmEncode('?', { nationalTables: { locking: 'hindi', single: 'hindi' } })]).toEqual([0x3f]);
    // 'A' is only in the Hindi single shift table when the locking table is Hindi.
    expect([...gsmEncode('A', { nationalTables: { locking: 'hindi', single: 'hindi' } })]).toEqual([0x1b, 0x41]);
    // Kannada U+0CAA is printed at 0x24 and 0x3D: the later place is written.
    expect([...gsmEncode('\u0caa', { nationalTables: { locking: 'kannada' } })]).toEqual([0x3d]);
  });

  it('names the first character the tables cannot hold', () => {
    expect(() => gsmEncode('नमस्ते €', { nationalTables: { locking: 'hindi', single: 'telugu' } })).toThrow(
      "'€' (U+20AC) at index 7 is not in the Hindi locking shift table or the Telugu single shift table",
    );
    expect(() => encodeHex('ş', 'GSM', { nationalTables: { single: 'spanish' } })).toThrow(
      "encodeHex: 'ş' (U+015F) at index 0 cannot be represented in GSM with the default alphabet and the Spanish single shift table",
    );
    expect(() => gsmEncode('a', { nationalTables: { locking: 'klingon' as NationalLanguage } })).toThrow(TypeError);
  });
});

describe('hex content with national shift elements', () => {
  it('decodes GSM content in the tables its user data header names', () => {
    // Header: national locking shift (25 01 06: Hindi) and single shift (24 01 06: Hindi).
    const header = '06250106240106';
    const body = encodeHex('नमस्ते। A', 'GSM', { nationalTables: { locking: 'hindi', single: 'hindi' } });
    expect(decodeHexContent(header + body, 'GSM', { udh: true })).toMatchObject({ ok: true, value: { text: 'नमस्ते। A' } });
    // Without the header's tables the same septets are other characters.
    expect(decodeHex(body, 'GSM')).not.toEqual({ ok: true, value: 'नमस्ते। A' });
    // An identifier TS 23.038 does not define (0x0E) selects the default tables.
    expect(decodeHexContent('03250E0E' + '48', 'GSM', { udh: true })).toMatchObject({ ok: true, value: { text: 'H' } });
    // Turkish single shift content that the default extension table refuses.
    expect(decodeHex('1B53', 'GSM').ok).toBe(false);
    expect(decodeHexContent('032401011B53', 'GSM', { udh: true })).toMatchObject({ ok: true, value: { text: 'Ş' } });
    expect(decodeHexContent('032401011B53', 'GSM', { udh: true, nationalTables: {} }).ok).toBe(false);
  });

  it('reads the shift elements of a header, ignoring what does not fit', () => {
    expect(nationalShiftOfHeader(Uint8Array.of(0x0b, 0x00, 0x03, 0x2a, 0x02, 0x01, 0x25, 0x01, 0x0b, 0x24, 0x01, 0x0d))).toEqual({ locking: 11, single: 13 });
    expect(nationalShiftOfHeader(Uint8Array.of(0x03, 0x24, 0x05, 0x01))).toEqual({});
    expect(nationalShiftOfHeader(Uint8Array.of(0x00))).toEqual({});
  });
});

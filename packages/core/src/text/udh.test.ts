import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './hex.js';
import { buildUserDataHeader, parseUserDataHeader, splitUdh, WAP_PUSH_UDH } from './udh.js';

const bytes = (hex: string): Uint8Array => {
  const r = hexToBytes(hex);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('parseUserDataHeader', () => {
  it('reads the WAP Push port addressing header', () => {
    const r = parseUserDataHeader(bytes(WAP_PUSH_UDH));
    expect(r).toEqual({
      ok: true,
      value: { length: 7, elements: [{ iei: 5, data: bytes('0B8423F0') }], ports: { destination: 2948, source: 9200, portBits: 16 } },
    });
  });

  it('reads 8-bit and 16-bit reference concatenation and ignores the payload after the header', () => {
    expect(parseUserDataHeader(bytes('050003A70302' + '4142'))).toMatchObject({
      ok: true,
      value: { length: 6, concatenation: { reference: 0xa7, total: 3, sequence: 2, referenceBits: 8 } },
    });
    expect(parseUserDataHeader(bytes('060804BEEF0404'))).toMatchObject({
      ok: true,
      value: { length: 7, concatenation: { reference: 0xbeef, total: 4, sequence: 4, referenceBits: 16 } },
    });
  });

  it('reads 8-bit ports, national shifts and keeps unknown elements', () => {
    const r = parseUserDataHeader(bytes('0E' + '0402F0F1' + '240101' + '250103' + '7002ABCD'));
    expect(r).toMatchObject({
      ok: true,
      value: {
        length: 15,
        ports: { destination: 0xf0, source: 0xf1, portBits: 8 },
        national: { single: 1, locking: 3 },
      },
    });
    if (r.ok) expect(r.value.elements.map((e) => e.iei)).toEqual([0x04, 0x24, 0x25, 0x70]);
  });

  it('rejects headers that do not add up, at the offending offset', () => {
    const bad = (hex: string): unknown => {
      const r = parseUserDataHeader(bytes(hex));
      return r.ok ? 'ok' : [r.error.kind, r.error.offset, r.error.message];
    };
    expect(bad('')).toEqual(['bad-udh', 0, 'the user data header has no length octet']);
    expect(bad('0600030101')).toEqual(['bad-udh', 0, 'the user data header length (6) runs past the end of the content (4 octets after it)']);
    expect(bad('0400040101')).toEqual(['bad-udh', 2, 'information element 00 at offset 2 (length 4) runs past the end of the header']);
    expect(bad('0400020101')).toEqual(['bad-udh', 2, 'information element 00 at offset 2 has length 2, not 3']);
    expect(bad('050003010201')).toBe('ok');
    expect(bad('050003010301')).toBe('ok');
    expect(bad('050003010304')).toEqual(['bad-udh', 2, 'concatenation element at offset 2 has part 4 of 3']);
    expect(bad('050003010000')).toEqual(['bad-udh', 2, 'concatenation element at offset 2 has part 0 of 0']);
    expect(bad('0A' + '0003010301' + '0003010302')).toEqual(['bad-udh', 12, 'information element 00 at offset 12 repeats']);
    expect(bad('0B' + '0003010301' + '080400010302')).toEqual(['bad-udh', 12, 'a second concatenation element at offset 12']);
    expect(bad('0100')).toEqual(['bad-udh', 2, 'information element at offset 2 has no length octet inside the header']);
  });

  it('never throws on arbitrary octets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        const r = parseUserDataHeader(b);
        if (r.ok) {
          expect(r.value.length).toBe(1 + (b[0] as number));
          expect(r.value.elements.reduce((n, e) => n + 2 + e.data.length, 1)).toBe(r.value.length);
        } else expect(r.error.kind).toBe('bad-udh');
      }),
    );
  });
});

describe('buildUserDataHeader', () => {
  it('builds the WAP Push header and concatenation headers', () => {
    expect(bytesToHex(buildUserDataHeader({ ports: { destination: 2948, source: 9200 } }))).toBe(WAP_PUSH_UDH);
    expect(bytesToHex(buildUserDataHeader({ concatenation: { reference: 0xa7, total: 3, sequence: 1 } }))).toBe('050003A70301');
    expect(bytesToHex(buildUserDataHeader({ concatenation: { reference: 0xbeef, total: 3, sequence: 1, referenceBits: 16 } }))).toBe('060804BEEF0301');
    expect(bytesToHex(buildUserDataHeader({ concatenation: { reference: 1, total: 2, sequence: 2 }, national: { single: 1 } }))).toBe('080003010202240101');
  });

  it('throws a TypeError on values out of range', () => {
    expect(() => buildUserDataHeader({ concatenation: { reference: 256, total: 2, sequence: 1 } })).toThrow(TypeError);
    expect(() => buildUserDataHeader({ concatenation: { reference: 1, total: 2, sequence: 3 } })).toThrow(TypeError);
    expect(() => buildUserDataHeader({ concatenation: { reference: 1, total: 0, sequence: 0 } })).toThrow(TypeError);
    expect(() => buildUserDataHeader({ ports: { destination: 70000, source: 1 } })).toThrow(TypeError);
    expect(() => buildUserDataHeader({ elements: [{ iei: 0x70, data: new Uint8Array(140) }] })).toThrow(TypeError);
  });

  it('round-trips through parseUserDataHeader', () => {
    const spec = fc.record(
      {
        concatenation: fc.oneof(
          fc.record({ reference: fc.integer({ min: 0, max: 255 }), total: fc.integer({ min: 1, max: 255 }), referenceBits: fc.constant(8 as const) }),
          fc.record({ reference: fc.integer({ min: 0, max: 0xffff }), total: fc.integer({ min: 1, max: 255 }), referenceBits: fc.constant(16 as const) }),
        ),
        ports: fc.record({ destination: fc.integer({ min: 0, max: 0xffff }), source: fc.integer({ min: 0, max: 0xffff }), portBits: fc.constant(16 as const) }),
        national: fc.record({ single: fc.integer({ min: 0, max: 255 }), locking: fc.integer({ min: 0, max: 255 }) }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(spec, fc.nat(), (s, seq) => {
        const { concatenation: c, ...rest } = s;
        const concatenation = c === undefined ? undefined : { ...c, sequence: 1 + (seq % c.total) };
        const built = buildUserDataHeader({ ...rest, ...(concatenation === undefined ? {} : { concatenation }) });
        const parsed = parseUserDataHeader(built);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.value.length).toBe(built.length);
        expect(parsed.value.concatenation).toEqual(concatenation);
        expect(parsed.value.ports).toEqual(s.ports);
        const national = s.national !== undefined && (s.national.single !== undefined || s.national.locking !== undefined) ? s.national : undefined;
        expect(parsed.value.national).toEqual(national);
      }),
    );
  });
});

describe('splitUdh', () => {
  it('splits hex content into the header as given and the payload', () => {
    expect(splitUdh('0605040b8423f0DEAD')).toMatchObject({ ok: true, value: { udh: '0605040b8423f0', payload: 'DEAD', header: { length: 7 } } });
  });

  it('passes hex and header errors through', () => {
    expect(splitUdh('06050')).toMatchObject({ ok: false, error: { kind: 'odd-length' } });
    expect(splitUdh('0605040B84')).toMatchObject({ ok: false, error: { kind: 'bad-udh', offset: 0 } });
  });
});

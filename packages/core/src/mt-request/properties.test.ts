import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '../body/body-text.js';
import { GSM_DEFAULT_ALPHABET, GSM_EXTENSION_TABLE } from '../text/gsm-alphabet.js';
import { bytesToHex, encodeHex } from '../text/hex.js';
import { decodeMtRequest, encodeMtRequest } from './codec.js';
import { CHARSETS, INTERACTIONS, MLC_VALUES, MT_LIMITS, type MtCharset } from './members.js';
import { MtRequestSchema, type MtMessage, type MtRequest } from './schema.js';
import { acceptMtRequestFast, findMtRequestProblem, normaliseMtRequest, urlParses, validateMtRequest } from './validate.js';
import { runs } from '../../test/property-runs.js';

type Flavour = 'json' | 'xml';

const charsOf = (s: string) => fc.constantFrom(...s.split(''));
const DIGITS = '0123456789';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const digits = (minLength: number, maxLength: number) => fc.string({ unit: charsOf(DIGITS), minLength, maxLength });

/** `true` when XML 1.0 can carry every character (and the string is well-formed UTF-16). */
const xmlSafe = (s: string): boolean => s.isWellFormed() && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s);

/** Pieces that stress the codecs: markup, references, white space an XML parser normalises, non-BMP characters. */
const TRICKY = ['<', '>', '&', '"', "'", ']]>', '&amp;', '&#10;', ' ', '  ', '\t', '\n', '\r', '\r\n', '😀', '𝄞', '€', 'é', '\u00a0', '\u2028', '\ufeff'];
const C0 = ['\u0000', '\u0007', '\u000b', '\u001b', '\u001f'];

/** Free text: for XML only characters XML 1.0 can carry; for JSON also C0 controls and, outside content, lone surrogates. */
const freeText = (flavour: Flavour, maxLength: number, wellFormed = true) => {
  const pieces = [fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom(...TRICKY)];
  if (flavour === 'json') {
    pieces.push(fc.constantFrom(...C0));
    if (!wellFormed) pieces.push(fc.constantFrom('\ud800', '\udfff', '\udc00x'));
  }
  return fc
    .array(fc.oneof(...pieces), { maxLength: 16 })
    .map((a) => a.join(''))
    .filter((s) => s.length <= maxLength && (flavour === 'json' || xmlSafe(s)));
};

const url = fc
  .oneof(
    fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
    fc.constantFrom('http://192.0.2.1/x', 'https://bücher.example/dr', 'http://[2001:db8::1]:8080/', 'https://a.example:65535/?a=1&b=<2>'),
  )
  .filter((u) => u.length >= MT_LIMITS.urlMinLength && u.length <= MT_LIMITS.urlMaxLength);

/** A user data header: its length octet and that many octets. */
const udhHex = fc.uint8Array({ minLength: 0, maxLength: 12 }).map((h) => bytesToHex(new Uint8Array([h.length, ...h])));

const gsmChars = [...GSM_DEFAULT_ALPHABET].filter((_, i) => i !== 0x1b).concat([...GSM_EXTENSION_TABLE.values()]);
const textInCharset = (charset: MtCharset) => {
  switch (charset) {
    case 'GSM':
      return fc.array(fc.constantFrom(...gsmChars), { maxLength: 120 }).map((a) => a.join(''));
    case 'Latin-1':
      return fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 120 });
    default:
      return fc.string({ unit: 'binary', maxLength: 60 });
  }
};

const maybeLowerCase = (hex: fc.Arbitrary<string>) => fc.tuple(hex, fc.boolean()).map(([h, lower]) => (lower ? h.toLowerCase() : h));

/** The members of `message` for each type, with content valid for it. */
const message = (flavour: Flavour): fc.Arbitrary<MtMessage> => {
  const common = {
    validityPeriod: fc.integer({ min: 0, max: MT_LIMITS.validityPeriodMaxSeconds }),
    mlc: fc.constantFrom(...MLC_VALUES),
  };
  const textContent = freeText(flavour, 400).filter((s) => s.length > 0 && utf8ByteLength(s) <= MT_LIMITS.contentMaxBytes);
  const text = fc.record(
    { type: fc.constant('text' as const), content: textContent, charset: fc.constantFrom(...CHARSETS), url, udh: fc.boolean(), ...common },
    { requiredKeys: ['type', 'content'], noNullPrototype: true },
  );
  const wapPush = fc.record({ type: fc.constant('wapPush' as const), content: textContent, url, ...common }, { requiredKeys: ['type', 'content', 'url'], noNullPrototype: true });
  const hexText = fc
    .constantFrom(...CHARSETS)
    .chain((charset) =>
      fc.record({
        charset: fc.constant(charset),
        text: textInCharset(charset),
        header: fc.option(udhHex, { nil: undefined }),
        rest: fc.record(common, { requiredKeys: [], noNullPrototype: true }),
      }, { noNullPrototype: true }),
    )
    .filter(({ text, header }) => text.length > 0 || header !== undefined)
    .chain(({ charset, text, header, rest }) =>
      maybeLowerCase(fc.constant((header ?? '') + encodeHex(text, charset))).map(
        (content): MtMessage => ({ type: 'hexEncodedText', content, charset, ...(header === undefined ? {} : { udh: true }), ...rest }),
      ),
    );
  const binary = fc
    .record({ header: fc.option(udhHex, { nil: undefined }), body: fc.uint8Array({ minLength: 1, maxLength: 140 }), rest: fc.record(common, { requiredKeys: [], noNullPrototype: true }) }, { noNullPrototype: true })
    .chain(({ header, body, rest }) =>
      maybeLowerCase(fc.constant((header ?? '') + bytesToHex(body))).map(
        (content): MtMessage => ({ type: 'binary', content, ...(header === undefined ? {} : { udh: true }), ...rest }),
      ),
    );
  return fc.oneof(text, wapPush, hexText, binary);
};

const source = fc.oneof(
  fc.record({ address: fc.string({ unit: charsOf(ALNUM), minLength: 1, maxLength: 20 }), ton: fc.constant(5 as const) }, { requiredKeys: ['address'], noNullPrototype: true }),
  fc.record({ address: digits(1, 20), ton: fc.constantFrom(1 as const, 3 as const) }, { requiredKeys: ['address'], noNullPrototype: true }),
);

/** Valid MT requests, every optional member sometimes absent. */
const mtRequest = (flavour: Flavour): fc.Arbitrary<MtRequest> =>
  fc.record(
    {
      interaction: fc.constantFrom(...INTERACTIONS),
      promotional: fc.boolean(),
      options: fc.record(
        {
          programId: freeText(flavour, 50, false).filter((s) => s.length >= 1),
          note1: freeText(flavour, 200, false),
          note2: freeText(flavour, 200, false),
          flash: fc.boolean(),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
      destination: fc.record({ address: digits(5, 20), mobileOperatorId: fc.nat() }, { requiredKeys: ['address'], noNullPrototype: true }),
      source,
      message: message(flavour),
      delivery: fc.record({ receiptRequested: fc.constant('final' as const), url }, { requiredKeys: ['receiptRequested'], noNullPrototype: true }),
    },
    { requiredKeys: ['destination', 'message'], noNullPrototype: true },
  );

describe('MT request properties', () => {
  for (const format of ['json', 'xml'] as const) {
    it(`${format}: generated requests are valid and decode(encode(x)) equals x`, () => {
      fc.assert(
        fc.property(mtRequest(format), (x) => {
          expect(Value.Check(MtRequestSchema, x)).toBe(true);
          expect(validateMtRequest(x)).toStrictEqual({ ok: true, value: x });
          expect(decodeMtRequest(encodeMtRequest(x, format), format)).toStrictEqual({ ok: true, value: x });
        }),
        { numRuns: runs(400) },
      );
    });
  }

  it('xml: content with a C0 control character makes the encoder throw a TypeError naming hexEncodedText', () => {
    fc.assert(
      fc.property(mtRequest('xml'), fc.constantFrom(...C0), fc.nat(), (x, control, at) => {
        const content = x.message.content;
        const i = at % (content.length + 1);
        const value = { ...x, message: { ...x.message, type: 'text' as const, content: content.slice(0, i) + control + content.slice(i) } };
        expect(() => encodeMtRequest(value, 'xml')).toThrow(/hexEncodedText/);
      }),
      { numRuns: runs(100) },
    );
  });

  for (const format of ['json', 'xml'] as const) {
    it(`${format}: arbitrary strings never throw and are rejected with a 540`, () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
          const result = decodeMtRequest(s, format);
          expect(result.ok).toBe(false);
          expect(!result.ok && result.error.code).toBe('540');
        }),
        { numRuns: runs(500) },
      );
    });

    it(`${format}: arbitrary bytes never throw and are rejected with a 540`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
          const result = decodeMtRequest(bytes, format);
          expect(result.ok).toBe(false);
          expect(!result.ok && result.error.code).toBe('540');
        }),
        { numRuns: runs(500) },
      );
    });

    it(`${format}: damaged valid bodies never throw, and what decodes is valid`, () => {
      fc.assert(
        fc.property(mtRequest('xml'), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 4 }), (x, edits) => {
          let body = encodeMtRequest(x, format);
          for (const [at, remove, insert] of edits) {
            const i = at % (body.length + 1);
            body = body.slice(0, i) + insert + body.slice(i + remove);
          }
          const result = decodeMtRequest(body, format);
          if (result.ok) expect(validateMtRequest(result.value)).toStrictEqual(result);
          else expect(result.error.description).toMatch(/^Invalid request - /);
        }),
        { numRuns: runs(400) },
      );
    });
  }

  it('decoding pollutes no prototype', () => {
    fc.assert(
      fc.property(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.constantFrom('', 'options', 'destination', 'message', 'delivery'), (key, at) => {
        const inner = `{"${key}":{"polluted":1,"prototype":{"polluted":1}},"destination":{"address":"447700900123"},"message":{"type":"text","content":"x"}}`;
        const mt = at === '' ? inner : inner.replace(`"${at === 'options' ? 'destination' : at}":{`, (m) => `${m}"${key}":{"polluted":1},`);
        decodeMtRequest(`{"mobileTerminate":${mt}}`, 'json');
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
    );
  });
});

/** Values that are wrong somewhere: a valid request in wire form with members replaced by awkward values. */
const AWKWARD: readonly unknown[] = [
  undefined, null, '', ' ', 'true', 'false', 'TRUE', true, false, 0, 1, 3, 5, -1, 1.5, 2 ** 53, '0', '1', '3', '5', '01', '03', '1e3', '+1', '-1',
  '259200', '259201', 259200, 259201, 'x', 'final', 'Final', 'one-way', 'text', 'wapPush', 'hexEncodedText', 'binary', 'GSM', 'UTF-16', 'segment',
  '447700900123', 'Acme', 'Acme_1', 'A'.repeat(21), '4'.repeat(21), 'http://a.co', 'http://example.com/x', 'ftp://example.com/x', 'http://exa mple.com/',
  'http://[::1/x', 'http://1.2.3.256/', 'ZZ', '0A', '4142', 'D800', '\ud800', {}, [], { address: '447700900123' }, 'n'.repeat(201), 'a'.repeat(2681),
];
const PATHS = [
  'interaction', 'promotional', 'options', 'options.programId', 'options.note1', 'options.note2', 'options.flash', 'destination', 'destination.address',
  'destination.mobileOperatorId', 'source', 'source.address', 'source.ton', 'message', 'message.type', 'message.content', 'message.charset',
  'message.validityPeriod', 'message.url', 'message.mlc', 'message.udh', 'delivery', 'delivery.receiptRequested', 'delivery.url',
];

/** The wire form of a request with Booleans and numbers sometimes written as strings. */
const wireForm = (x: MtRequest, asStrings: boolean): Record<string, unknown> =>
  JSON.parse(JSON.stringify(x), (_, v: unknown) => (asStrings && (typeof v === 'boolean' || typeof v === 'number') ? String(v) : v)) as Record<string, unknown>;

function mutate(wire: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  const leaf = parts.pop() as string;
  let node: unknown = wire;
  for (const part of parts) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  if (value === undefined) delete (node as Record<string, unknown>)[leaf];
  else (node as Record<string, unknown>)[leaf] = value;
}

describe('the fast path and the ordered walk agree', () => {
  it('the fast path accepts only what the walk accepts, with the same value; failures are reported by the walk', () => {
    fc.assert(
      fc.property(
        mtRequest('json'),
        fc.boolean(),
        fc.array(fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...AWKWARD)), { maxLength: 3 }),
        (x, asStrings, edits) => {
          const wire = wireForm(x, asStrings);
          for (const [path, value] of edits) mutate(wire, path, value);
          const fast = acceptMtRequestFast(wire);
          const problem = findMtRequestProblem(wire);
          if (fast !== undefined) {
            expect(problem).toBeUndefined();
            expect(fast).toStrictEqual(normaliseMtRequest(wire));
          }
          const result = validateMtRequest(wire);
          if (problem === undefined) expect(result.ok).toBe(true);
          else expect(!result.ok && result.error.rule).toBe(problem);
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('valid requests take the fast path, in decoded and in wire form', () => {
    fc.assert(
      fc.property(mtRequest('json'), fc.boolean(), (x, asStrings) => {
        expect(acceptMtRequestFast(wireForm(x, asStrings))).toStrictEqual(x);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('urlParses', () => {
  const host = fc.array(fc.oneof(fc.string({ unit: charsOf('abcXYZ019-'), minLength: 0, maxLength: 6 }), fc.constantFrom('0x1f', '256', '1', '')), {
    minLength: 1,
    maxLength: 5,
  });
  const urlish = fc
    .tuple(
      fc.constantFrom('http://', 'https://'),
      host.map((labels) => labels.join('.')),
      fc.option(fc.oneof(fc.nat({ max: 99999 }).map(String), fc.constantFrom('', '0', '65536', '080')), { nil: undefined }),
      fc.string({ unit: charsOf('/?#az09%[]@:.-_~!$&\'()*+,;=\\|^`{}"<>é'), maxLength: 12 }),
    )
    .map(([scheme, h, port, rest]) => `${scheme}${h}${port === undefined ? '' : `:${port}`}${rest}`);

  const parses = (u: string): boolean => {
    try {
      new URL(u);
      return true;
    } catch {
      return false;
    }
  };

  it('agrees with the URL parser on http and https URLs', () => {
    fc.assert(
      fc.property(fc.oneof(urlish, fc.webUrl()), (u) => {
        expect(urlParses(u)).toBe(parses(u));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('accepts a valid non-ASCII URL however often it is asked', () => {
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) if (urlParses('https://bücher.example/dr')) accepted++;
    expect(accepted).toBe(20_000);
  });
});

// Properties shared by every response and callback resource: round trips in both formats, and
// decoders that never throw and never accept garbage. Values are generated from each resource's
// own TypeBox schema, so a member added to a schema is covered without touching this file.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { timestampTextArb } from '../../test/timestamp-forms.js';
import type { PayloadError } from '../codec/payload-error.js';
import type { DecodeOptions, EncodeOptions, WireFormat } from '../codec/wire-format.js';
import { DeliveryReceiptSchema, decodeDeliveryReceipt, encodeDeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { ErrorRecordSchema, decodeErrorRecord, encodeErrorRecord } from '../error-record/error-record.js';
import { InvokeErrorBodySchema, decodeInvokeErrorBody, encodeInvokeErrorBody } from '../error-record/invoke-error-body.js';
import { MobileOriginateSchema, decodeMobileOriginate, encodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { MtStatusSchema, decodeMtStatus, encodeMtStatus } from '../mt-status/mt-status.js';
import { PreviewSchema, decodePreview, encodePreview } from '../preview/preview.js';
import type { Result } from '../result.js';
import { TICKET_ID_PATTERN } from './wire-types.js';
import { runs } from '../../test/property-runs.js';

interface Codec {
  readonly name: string;
  readonly root: string;
  readonly folder: string;
  readonly schema: TSchema;
  readonly formats: readonly WireFormat[];
  readonly decode: (body: string | Uint8Array, format: WireFormat, options?: DecodeOptions) => Result<unknown, PayloadError>;
  readonly encode: (value: never, format: WireFormat, options?: EncodeOptions) => string;
}

const both = ['json', 'xml'] as const;
const CODECS: readonly Codec[] = [
  { name: 'mtStatus', root: 'mtStatus', folder: 'mt-status', schema: MtStatusSchema, formats: both, decode: decodeMtStatus, encode: encodeMtStatus },
  { name: 'deliveryReceipt', root: 'deliveryReceipt', folder: 'delivery-receipt', schema: DeliveryReceiptSchema, formats: both, decode: decodeDeliveryReceipt, encode: encodeDeliveryReceipt },
  { name: 'mobileOriginate', root: 'mobileOriginate', folder: 'mobile-originate', schema: MobileOriginateSchema, formats: both, decode: decodeMobileOriginate, encode: encodeMobileOriginate },
  { name: 'preview', root: 'preview', folder: 'preview', schema: PreviewSchema, formats: both, decode: decodePreview, encode: encodePreview },
  { name: 'error record', root: 'error', folder: 'error-record', schema: ErrorRecordSchema, formats: both, decode: decodeErrorRecord, encode: encodeErrorRecord },
  {
    name: 'Invoke Service error body',
    root: 'error',
    folder: 'error-record',
    schema: InvokeErrorBodySchema,
    formats: ['json'],
    decode: (body, _format, options) => decodeInvokeErrorBody(body, options),
    encode: (value) => encodeInvokeErrorBody(value),
  },
];

/**
 * Characters a string member may hold in a round trip: every XML 1.0 character except carriage
 * return (XML line-end handling turns it into a line feed), with the XML-special characters and
 * characters outside the Basic Multilingual Plane drawn often.
 */
const xmlChar = fc.oneof(
  fc.constantFrom('<', '>', '&', '"', "'", '\t', '\n', ' ', ']]>', '&amp;', '&#x41;'),
  fc.integer({ min: 0x20, max: 0xd7ff }).map((cp) => String.fromCharCode(cp)),
  fc.integer({ min: 0xe000, max: 0xfffd }).map((cp) => String.fromCharCode(cp)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
);

const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const ticketId = fc
  .array(fc.string({ unit: alnum, minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 5 })
  .map((groups) => groups.join('-'));
/** A value of a schema, as a decoder returns it. */
function arbitraryOf(schema: TSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'string':
      if (schema.wireTimestamp === true) return timestampTextArb;
      if (schema.pattern === TICKET_ID_PATTERN) return ticketId;
      if (schema.wireNumber === true) return fc.bigInt({ min: 0n, max: 999_999_999_999_999n }).map(String);
      if (schema.pattern !== undefined) throw new Error(`no arbitrary for pattern ${String(schema.pattern)}`);
      return fc.string({ unit: xmlChar, minLength: (schema.minLength as number | undefined) ?? 0, maxLength: 24 });
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum as number, max: 1000 }), fc.constant(Number.MAX_SAFE_INTEGER), fc.maxSafeNat().filter((n) => n >= (schema.minimum as number)));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items as TSchema), { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: 4 });
    case 'object': {
      const properties = schema.properties as Record<string, TSchema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of Object.keys(properties)) model[key] = arbitraryOf(properties[key] as TSchema);
      return fc.record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [], noNullPrototype: true });
    }
    default:
      throw new Error(`no arbitrary for schema type ${String(schema.type)}`);
  }
}

const namespaceOption = fc.constantFrom<EncodeOptions | undefined>(
  undefined,
  { namespace: null },
  { namespace: 'https://sms.openmarket.com/v4/mt' },
  { namespace: 'urn:example:other' },
);

describe.each(CODECS)('$name', (codec) => {
  const arbitrary = arbitraryOf(codec.schema);

  it('generates only values its schema accepts (sanity of the generator)', () => {
    fc.assert(fc.property(arbitrary, (value) => Value.Check(codec.schema, value)), { numRuns: runs(50) });
  });

  it.each(codec.formats)('decode(encode(x, %s)) deep-equals x', (format) => {
    fc.assert(
      fc.property(arbitrary, namespaceOption, (value, options) => {
        const decoded = codec.decode(codec.encode(value as never, format, options), format);
        expect(decoded).toStrictEqual({ ok: true, value });
      }),
      { numRuns: runs(300) },
    );
  });

  it.each(codec.formats)('round-trips through bytes as well as text (%s)', (format) => {
    fc.assert(
      fc.property(arbitrary, (value) => {
        const bytes = new TextEncoder().encode(codec.encode(value as never, format));
        expect(codec.decode(bytes, format)).toStrictEqual({ ok: true, value });
      }),
      { numRuns: runs(50) },
    );
  });

  it.each(codec.formats)('never throws on arbitrary text and refuses it (%s)', (format) => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = codec.decode(text, format);
        expect(result.ok).toBe(false);
      }),
      { numRuns: runs(300) },
    );
  });

  it.each(codec.formats)('never throws on arbitrary bytes and refuses them (%s)', (format) => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(codec.decode(bytes, format).ok).toBe(false);
      }),
      { numRuns: runs(300) },
    );
  });

  it.each(codec.formats)('never throws on mutated real payloads, and what it accepts fits the schema (%s)', (format) => {
    const samples = listFixtures(codec.folder)
      .filter((path) => path.endsWith(`.${format}`))
      .map(loadFixture)
      .filter((text) => codec.decode(text, format).ok);
    expect(samples.length).toBeGreaterThan(0);
    const mutation = fc.record({
      sample: fc.constantFrom(...samples),
      at: fc.nat(),
      cut: fc.nat({ max: 8 }),
      insert: fc.string({ unit: fc.constantFrom('<', '>', '"', "'", '&', '/', '=', ':', '{', '}', '[', ']', ',', '1', 'a', ' ', '-'), maxLength: 4 }),
    });
    fc.assert(
      fc.property(mutation, ({ sample, at, cut, insert }) => {
        const i = at % sample.length;
        const result = codec.decode(sample.slice(0, i) + insert + sample.slice(i + cut), format);
        if (result.ok) expect(Value.Check(codec.schema, result.value)).toBe(true);
        else expect(['invalid-encoding', 'invalid-json', 'invalid-xml', 'wrong-resource', 'missing-member', 'invalid-member']).toContain(result.error.code);
      }),
      { numRuns: runs(400) },
    );
  });

  it.each(codec.formats)('refuses a body over maxBytes as too-large before parsing it (%s)', (format) => {
    const huge = format === 'json' ? `{"${codec.root}": {"description": "${'x'.repeat(70_000)}"}}` : `<${codec.root} description="${'x'.repeat(70_000)}"/>`;
    expect(codec.decode(huge, format)).toStrictEqual({ ok: false, error: { code: 'too-large', description: 'Payload exceeds 65536 bytes' } });
    expect(codec.decode('{"a":1}'.padEnd(200, ' '), format, { maxBytes: 100 })).toStrictEqual({
      ok: false,
      error: { code: 'too-large', description: 'Payload exceeds 100 bytes' },
    });
  });

  it.each(codec.formats)('refuses bytes that are not UTF-8 as invalid-encoding (%s)', (format) => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`<${codec.root} code="`), 0xc3, 0x28, 0x22, 0x2f, 0x3e]);
    expect(codec.decode(bytes, format)).toStrictEqual({ ok: false, error: { code: 'invalid-encoding', description: 'Payload is not valid UTF-8 text' } });
  });

  if (codec.formats.length === 2) {
    it('throws TypeError for a format that is neither json nor xml', () => {
      expect(() => codec.decode('{}', 'yaml' as WireFormat)).toThrow(TypeError);
      expect(() => codec.encode({} as never, 'yaml' as WireFormat)).toThrow(TypeError);
    });
  }

  it('throws TypeError when asked to encode a value that breaks the schema', () => {
    expect(() => codec.encode({} as never, 'json')).toThrow(TypeError);
    expect(() => codec.encode({} as never, 'json')).toThrow(/Required member .* is missing/);
  });

  if (codec.formats.includes('json')) {
    it('refuses JSON that is not well-formed, repeats a member, nests too deeply or is not an object', () => {
      const cases: [string, string][] = [
        ['{"a": ', 'Invalid JSON in the payload'],
        [`{"${codec.root}": {"description": "a", "description": "b"}}`, 'Invalid JSON in the payload - a member is repeated'],
        [`{"${codec.root}": ${'['.repeat(100)}${']'.repeat(100)}}`, 'Invalid JSON in the payload - nested too deeply'],
        [`[{"${codec.root}": {}}]`, 'Invalid JSON in the payload - body is not a JSON object'],
        ['"text"', 'Invalid JSON in the payload - body is not a JSON object'],
      ];
      for (const [body, description] of cases) expect(codec.decode(body, 'json')).toStrictEqual({ ok: false, error: { code: 'invalid-json', description } });
    });

    it('refuses a JSON body of another resource as wrong-resource, naming what it found', () => {
      expect(codec.decode('{"somethingElse": {}}', 'json')).toStrictEqual({
        ok: false,
        error: { code: 'wrong-resource', description: `Payload root is somethingElse, not ${codec.root}` },
      });
      expect(codec.decode('{}', 'json')).toStrictEqual({ ok: false, error: { code: 'wrong-resource', description: `Payload root is not ${codec.root}` } });
    });

    it('refuses a JSON root member that is not an object', () => {
      for (const root of ['[]', '"x"', '1', 'null']) {
        expect(codec.decode(`{"${codec.root}": ${root}}`, 'json')).toStrictEqual({
          ok: false,
          error: { code: 'invalid-member', description: `Member ${codec.root} must be an object`, path: codec.root },
        });
      }
    });
  }

  if (codec.formats.includes('xml')) {
    it('refuses hostile or broken XML as invalid-xml', () => {
      const syntax = 'Invalid XML in the payload - not well-formed, or holds a DOCTYPE or an entity declaration';
      const cases: [string, string][] = [
        [`<!DOCTYPE ${codec.root} [<!ENTITY a "b">]><${codec.root} code="&a;"/>`, syntax],
        [`<${codec.root} code="&xxe;"/>`, syntax],
        [`<${codec.root}><destination></${codec.root}>`, syntax],
        [`<${codec.root}/><${codec.root}/>`, syntax],
        [`<${codec.root} code="1" code="2"/>`, syntax],
        [`<${codec.root}><constructor/></${codec.root}>`, syntax],
        [`<${codec.root}>${'<a>'.repeat(40)}${'</a>'.repeat(40)}</${codec.root}>`, 'Invalid XML in the payload - nested too deeply'],
      ];
      for (const [body, description] of cases) expect(codec.decode(body, 'xml')).toStrictEqual({ ok: false, error: { code: 'invalid-xml', description } });
    });

    it('refuses an XML document of another resource as wrong-resource', () => {
      expect(codec.decode('<?xml version="1.0"?><somethingElse/>', 'xml')).toStrictEqual({
        ok: false,
        error: { code: 'wrong-resource', description: `Payload root is somethingElse, not ${codec.root}` },
      });
    });
  }
});

import { MtStatusSchema, PreviewSchema, DeliveryReceiptSchema, MtRequestWireSchema } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { wireJsonSchema, type JsonSchema } from './wire-json-schema.js';

const props = (schema: JsonSchema): Record<string, JsonSchema> => schema.properties as Record<string, JsonSchema>;

describe('wireJsonSchema', () => {
  it('turns unions of literals into one enum, and literals of two types into an untyped enum', () => {
    const schema = wireJsonSchema(MtRequestWireSchema);
    expect(props(schema).interaction).toEqual({ type: 'string', enum: ['one-way', 'two-way'] });
    expect(props(props(schema).source as JsonSchema).ton).toEqual({ enum: [1, 3, 5, '1', '3', '5'] });
    expect(props(schema).promotional).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] });
    expect(JSON.stringify(schema)).not.toMatch(/wire|xmlItem/);
  });

  it('derives the accepted JSON forms of a decoded resource: digit strings, string Booleans', () => {
    const status = wireJsonSchema(MtStatusSchema, { lenient: true });
    expect(props(status).code).toEqual({ anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', pattern: '^[0-9]{1,16}$' }] });
    expect((props(status).totalSegments as JsonSchema).anyOf).toContainEqual({ type: 'string', pattern: '^(?=[0-9]{1,16}$)0*[1-9][0-9]*$' });
    expect(status.required).toEqual(['ticketId', 'code']);
    const preview = wireJsonSchema(PreviewSchema, { lenient: true });
    expect(props(props(preview).destination as JsonSchema).wireless).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] });
  });

  it('accepts aliases: both names as properties, one of them required', () => {
    const preview = wireJsonSchema(PreviewSchema, { lenient: true });
    expect(Object.keys(props(preview))).toEqual(['destination', 'mobileOperator', 'operator']);
    expect(preview.required).toEqual(['destination']);
    expect(preview.anyOf).toEqual([
      { type: 'object', properties: { mobileOperator: true }, required: ['mobileOperator'] },
      { type: 'object', properties: { operator: true }, required: ['operator'] },
    ]);
    expect(Object.keys(props(props(preview).destination as JsonSchema))).toContain('alpha2code');
  });

  it('puts a nested member into its sibling too (a receipt destination inside mtStatus)', () => {
    const receipt = wireJsonSchema(DeliveryReceiptSchema, { lenient: true });
    const mtStatus = props(receipt).mtStatus as JsonSchema;
    expect(props(mtStatus).destination).toEqual(props(receipt).destination);
    expect(props(mtStatus).source).toEqual(props(receipt).source);
  });

  it('keeps only the canonical form in strict mode: integers, Booleans, no aliases', () => {
    const mt = wireJsonSchema(MtRequestWireSchema, { strict: true });
    expect(props(props(mt).source as JsonSchema).ton).toEqual({ type: 'integer', enum: [1, 3, 5] });
    expect(props(mt).promotional).toEqual({ type: 'boolean' });
    expect(props(props(mt).message as JsonSchema).validityPeriod).toMatchObject({ type: 'integer', maximum: 259200 });
    expect(JSON.stringify(mt)).not.toContain('anyOf');
    const preview = wireJsonSchema(PreviewSchema, { lenient: true, strict: true });
    expect(Object.keys(props(preview))).toEqual(['destination', 'mobileOperator']);
    expect(JSON.stringify(preview)).not.toContain('anyOf');
    const status = wireJsonSchema(MtStatusSchema, { strict: true, xml: true });
    expect(props(status).segments).toMatchObject({ type: 'array', xml: { wrapped: true }, items: { xml: { name: 'segment' } } });
  });

  it('adds xml hints: scalars as attributes except the listed elements, lists wrapped with their item name', () => {
    const mt = wireJsonSchema(MtRequestWireSchema, { xml: true, xmlElements: ['message.content'] });
    const message = props(mt).message as JsonSchema;
    expect(props(message).type?.xml).toEqual({ attribute: true });
    expect(props(message).content?.xml).toBeUndefined();
    expect(message.xml).toBeUndefined();
    const status = wireJsonSchema(MtStatusSchema, { lenient: true, xml: true });
    const [list, wrapper, single] = (props(status).segments as JsonSchema).anyOf as JsonSchema[];
    expect(list).toMatchObject({ type: 'array', minItems: 1, xml: { wrapped: true }, items: { xml: { name: 'segment' } } });
    expect(wrapper).toMatchObject({ type: 'object', required: ['segment'] });
    expect(single).toMatchObject({ type: 'object', required: ['segmentNumber', 'code'] });
  });
});

import { describe, expect, it } from 'vitest';
import { createOperatorDirectory, parseOperatorTable, SAMPLE_OPERATORS } from './operators.js';

describe('operator table', () => {
  it('finds the operator of the longest matching prefix, and the country of numbers outside the table', () => {
    const directory = createOperatorDirectory(SAMPLE_OPERATORS);
    expect(directory.route('447700900123').operator?.mobileOperatorName).toBe('Sample EE');
    expect(directory.route('447711000000').operator?.mobileOperatorName).toBe('Sample Vodafone UK');
    expect(directory.route('14165550100')).toMatchObject({ countryCode: 1, alpha2Code: 'CA' });
    expect(directory.route('12135550100')).toEqual({ countryCode: 1, alpha2Code: 'US' });
    expect(directory.route('4915123456789')).toEqual({ countryCode: 49, alpha2Code: 'DE' });
    expect(directory.route('35312345678')).toEqual({ countryCode: 353, alpha2Code: 'IE' });
    expect(directory.route('0000')).toEqual({});
    expect(directory.byId(383)?.alpha2Code).toBe('US');
  });

  it('covers the four lookup countries with several operators each', () => {
    const perCountry = new Map<string, number>();
    for (const op of SAMPLE_OPERATORS.operators) perCountry.set(op.alpha2Code, (perCountry.get(op.alpha2Code) ?? 0) + 1);
    for (const country of ['US', 'CA', 'GB', 'AU']) expect(perCountry.get(country)).toBeGreaterThanOrEqual(3);
    expect(parseOperatorTable(SAMPLE_OPERATORS).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{', 'not JSON'],
    ['a missing member', { operators: [{ mobileOperatorId: 1 }] }, '/operators/0'],
    ['a repeated ID', { operators: [SAMPLE_OPERATORS.operators[0], { ...SAMPLE_OPERATORS.operators[1], mobileOperatorId: SAMPLE_OPERATORS.operators[0]?.mobileOperatorId }] }, 'appears twice'],
    ['a prefix claimed twice', { operators: [SAMPLE_OPERATORS.operators[0], { ...SAMPLE_OPERATORS.operators[1], prefixes: ['1212'] }] }, 'belongs to both'],
    ['a prefix outside the country', { operators: [{ ...SAMPLE_OPERATORS.operators[0], prefixes: ['44'] }] }, 'country code'],
    ['an unknown member', { operators: [{ ...SAMPLE_OPERATORS.operators[0], colour: 'red' }] }, '/operators/0'],
  ])('refuses %s', (_, input, mentions) => {
    const result = parseOperatorTable(typeof input === 'string' ? input : JSON.stringify(input));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.description).toContain(mentions);
  });
});

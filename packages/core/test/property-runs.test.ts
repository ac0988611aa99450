import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyProfile, runs } from './property-runs.js';

describe('the property tests’ profile', () => {
  it('is full in CI and quick elsewhere, unless SMSV4_PROPERTY_RUNS chooses', () => {
    expect(propertyProfile({})).toBe('quick');
    expect(propertyProfile({ CI: 'true' })).toBe('full');
    expect(propertyProfile({ CI: '1' })).toBe('full');
    expect(propertyProfile({ CI: 'false' })).toBe('quick');
    expect(propertyProfile({ CI: '0' })).toBe('quick');
    expect(propertyProfile({ CI: '' })).toBe('quick');
    expect(propertyProfile({ CI: 'true', SMSV4_PROPERTY_RUNS: 'quick' })).toBe('quick');
    expect(propertyProfile({ SMSV4_PROPERTY_RUNS: ' FULL ' })).toBe('full');
    expect(() => propertyProfile({ SMSV4_PROPERTY_RUNS: 'fast' })).toThrow(/SMSV4_PROPERTY_RUNS must be full or quick, not "fast"/);
  });

  it('runs every case in the full profile and a fifth of them (at least one) in the quick one', () => {
    expect(runs(2000, 'full')).toBe(2000);
    expect(runs(2000, 'quick')).toBe(400);
    expect(runs(3, 'quick')).toBe(1);
    expect(runs(1, 'quick')).toBe(1);
  });

  it('sets fast-check’s default number of cases for the properties that name none', () => {
    let cases = 0;
    fc.assert(fc.property(fc.nat(), () => void cases++));
    expect(cases).toBe(runs(100));
  });
});

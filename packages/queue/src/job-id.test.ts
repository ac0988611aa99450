import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobIdOf } from './job-id.js';

const key = fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' });

describe('jobIdOf', () => {
  it('gives BullMQ a valid custom ID: no ":" and never an integer', () => {
    fc.assert(
      fc.property(key, fc.nat(1000), (k, generation) => {
        const id = jobIdOf(k, generation);
        expect(id).not.toContain(':');
        expect(`${parseInt(id, 10)}`).not.toBe(id);
      }),
    );
    expect(jobIdOf('12', 0)).toBe('0-12');
    expect(jobIdOf('order:1', 2)).toBe('2-order%3A1');
  });

  it('gives distinct keys and generations distinct IDs', () => {
    fc.assert(
      fc.property(key, key, fc.nat(5), fc.nat(5), (a, b, g, h) => {
        fc.pre(a !== b || g !== h);
        expect(jobIdOf(a, g)).not.toBe(jobIdOf(b, h));
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

const now = Date.UTC(2026, 9, 21, 7, 28, 0);

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read and caps absurd values at a day', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '12abc']) expect(parseRetryAfter(value, now)).toBeUndefined();
    expect(parseRetryAfter('99999999999', now)).toBe(86_400_000);
  });
});

/** The suite runs against the Nest major it claims: 11 here, 10 and 12 from test-nest10/ and test-nest12/ (which set EXPECTED_NEST_MAJOR). */
import nestCore from '@nestjs/core/package.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';

describe('the Nest under test', () => {
  it(`is Nest ${process.env.EXPECTED_NEST_MAJOR ?? '11'}`, () => {
    expect((nestCore as { version: string }).version.split('.')[0]).toBe(process.env.EXPECTED_NEST_MAJOR ?? '11');
  });
});

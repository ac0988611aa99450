import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Only the rule tests: the fixture tree holds files named like tests on purpose.
    include: ['test/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 120_000,
  },
});

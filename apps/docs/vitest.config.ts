import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files run one after another in worker threads that keep the modules they imported, as in
    // the packages' suites.
    pool: 'threads',
    isolate: false,
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

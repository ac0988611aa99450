import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files run one after another in worker threads that keep the modules they imported, instead
    // of importing the packages again in a fresh process for each file.
    pool: 'threads',
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['@smsv4/testing/vitest'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['./src/vitest.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

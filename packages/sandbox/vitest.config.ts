import { defineConfig } from 'vitest/config';
import { viteEstimatorPlugin } from './scripts/estimator-bundle.mjs';

export default defineConfig({
  // The dashboard's compose form counts parts with core's estimator, bundled for the browser.
  plugins: [viteEstimatorPlugin],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});

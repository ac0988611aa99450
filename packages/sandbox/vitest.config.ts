import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { viteEstimatorPlugin } from './scripts/estimator-bundle.mjs';

// The testing kit depends on this package: the tests read the kit from its source, and the kit's
// imports of the sandbox reach this package's source too (one sandbox module in every test).
const from = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@smsv4\/testing$/, replacement: from('../testing/src/index.ts') },
      { find: /^@smsv4\/sandbox$/, replacement: from('./src/index.ts') },
    ],
  },
  // The dashboard's compose form counts parts with core's estimator, bundled for the browser.
  plugins: [viteEstimatorPlugin],
  test: {
    // Test files run one after another in worker threads that keep the modules they imported, instead
    // of importing the packages again in a fresh process for each file.
    pool: 'threads',
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});

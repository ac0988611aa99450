import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Test files run one after another in worker threads that keep the modules they imported, instead
    // of importing the packages again in a fresh process for each file.
    pool: 'threads',
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    // The type tests are checked by TypeScript 7 (smsv4-tsc), as the workspace's type check is.
    typecheck: { enabled: true, checker: 'smsv4-tsc', include: ['test/**/*.test-d.ts', 'src/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});

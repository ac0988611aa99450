import { defineConfig } from 'vitest/config';

// Tests whose module mocks or global stubs need a module graph of their own.
const ISOLATED = ['src/lazy.test.ts', 'src/codec/compile-schema.test.ts', 'src/resource-codec/compile-reader.test.ts'];

export default defineConfig({
  test: {
    // Property tests run thousands of cases; a loaded CI machine can take many times the usual time.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    // fast-check's default number of cases follows the run's profile (test/property-runs.ts).
    setupFiles: ['test/property-profile.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ISOLATED,
          // core is pure: its test files share one module graph per worker instead of importing
          // core again for each of its files.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'core-isolated',
          include: ISOLATED,
          // The type tests are checked by TypeScript 7 (smsv4-tsc), as the workspace's type check is.
          typecheck: { enabled: true, checker: 'smsv4-tsc', include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
        },
      },
    ],
  },
});

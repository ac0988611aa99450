import { defineConfig } from 'vitest/config';

// Files whose module mocks (BullMQ and ioredis swapped for their next majors) need a module graph of their own.
const ISOLATED = ['test/versions.e2e.test.ts', 'test/versions-bullmq6-ioredis5.e2e.test.ts', 'test/versions-bullmq5-ioredis6.e2e.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['@smsv4/testing/vitest'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'queue',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ISOLATED,
          // Test files run one after another in worker threads that keep the modules they imported,
          // instead of importing the packages again in a fresh process for each file.
          pool: 'threads',
          isolate: false,
        },
      },
      { extends: true, test: { name: 'queue-isolated', include: ISOLATED } },
    ],
  },
});

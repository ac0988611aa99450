import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property tests run thousands of cases; a loaded CI machine can take many times the usual time.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
  },
});

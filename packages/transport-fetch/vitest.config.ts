import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts', 'src/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

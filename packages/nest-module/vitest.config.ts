import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Legacy (experimental) decorators as Nest needs them, and no decorator metadata: like the tsup
  // build, so the tests prove that explicit @Inject tokens are all the injection needs.
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: false } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});

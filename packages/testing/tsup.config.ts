import { defineConfig } from 'tsup';

export default defineConfig({
  // The runner entries are setup files; each keeps its own copy of the kit's code in CommonJS, so
  // nothing relies on module identity across entries.
  entry: ['src/index.ts', 'src/vitest.ts', 'src/jest.ts', 'src/otel.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'node',
  external: ['vitest'],
  // import.meta.url in the CommonJS output too (the captured callbacks are found beside the module).
  shims: true,
});

import { defineConfig } from 'tsup';

export default defineConfig({
  // The runner entries are setup files; each keeps its own copy of the kit's code in CommonJS, so
  // nothing relies on module identity across entries.
  entry: ['src/index.ts', 'src/vitest.ts', 'src/jest.ts', 'src/otel.ts'],
  format: ['esm', 'cjs'],
  // Declarations: written after tsup by tooling/scripts/declarations.mjs (TypeScript 7, rolled into
  // one file per entry point, for ES modules and CommonJS).
  dts: false,
  // Source maps without the sources' text: they point into src/, which the package ships (the
  // source-map policy in the root README).
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  clean: true,
  target: 'es2022',
  platform: 'node',
  external: ['vitest'],
  // import.meta.url in the CommonJS output too (the captured callbacks are found beside the module).
  shims: true,
});

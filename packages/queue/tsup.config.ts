import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps without the sources' text: they point into src/, which the package ships (the
  // source-map policy in the root README).
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  clean: true,
  target: 'es2022',
  platform: 'node',
});

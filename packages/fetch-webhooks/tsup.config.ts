import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Declarations: written after tsup by tooling/scripts/declarations.mjs (TypeScript 7, rolled into
  // one file per entry point, for ES modules and CommonJS).
  dts: false,
  // Source maps without the sources' text: they point into src/, which the package ships (the
  // source-map policy in the root README).
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  // The CommonJS build gets the `0 && (module.exports = {...})` annotation (esbuild writes it for
  // the node platform only) through which Node's `import()` of the `.cjs` file sees named exports.
  esbuildOptions(options, { format }) {
    options.sourcesContent = false;
    if (format === 'cjs') options.platform = 'node';
  },
});

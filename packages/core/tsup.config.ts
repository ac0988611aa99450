import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Source maps without the sources' text: they point into src/, which the package ships (the
// source-map policy in the root README).
const common = {
  sourcemap: true,
  clean: false,
  target: 'es2022',
  esbuildOptions(options: { sourcesContent?: boolean }) {
    options.sourcesContent = false;
  },
};

// The two builds run at the same time, so neither cleans: the output folder is emptied once here.
export default defineConfig(() => {
  rmSync('dist', { recursive: true, force: true });
  return [
    {
      // ESM: one file per module, so that a bundler drops every module a program does not import
      // (`sideEffects: false`): a page that counts SMS parts gets the text engine, not TypeBox or
      // the XML parser. The declarations are rolled into one file per entry point.
      ...common,
      entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/**/*.bench.ts'],
      format: ['esm'],
      bundle: false,
      // Declarations: written after tsup by tooling/scripts/declarations.mjs (TypeScript 7, rolled into
      // one file per entry point, for ES modules and CommonJS).
      dts: false,
      platform: 'neutral',
    },
    {
      // CommonJS: one file. `platform: 'node'` makes esbuild write the `0 && (module.exports = {...})`
      // annotation through which Node's `import()` of a `.cjs` file sees the named exports.
      ...common,
      // Each entry point (`.` and `./segments`) is one file.
      entry: ['src/index.ts', 'src/segments.ts'],
      format: ['cjs'],
      // Its declarations (`.d.cts`) come from the same pass as the ESM build's.
      dts: false,
      platform: 'node',
    },
  ];
});

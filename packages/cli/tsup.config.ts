import { defineConfig } from 'tsup';

// No source maps: the package is a program first (the source-map policy in the root README); its
// messages name the user's files, never its own lines.

export default defineConfig([
  {
    // The library: what `import ... from 'smsv4'` loads.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: false,
    // The binary below is built beside it, at the same time: never delete it.
    clean: ['!cli.js', '!cli/**'],
    splitting: false,
    target: 'node20',
    platform: 'node',
  },
  {
    // The `smsv4` binary (ESM, its shebang kept and the file made executable). Each command's
    // module is a chunk of its own under cli/, loaded when the command runs.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: false,
    splitting: true,
    clean: ['cli.js', 'cli.js.map', 'cli/**', '*.map'],
    target: 'node20',
    platform: 'node',
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
  },
]);

import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: what `import ... from 'smsv4'` loads.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // The binary below is built beside it, at the same time: never delete it.
    clean: ['!cli.js', '!cli.js.map', '!cli/**'],
    splitting: false,
    target: 'node20',
    platform: 'node',
  },
  {
    // The `smsv4` binary (ESM, its shebang kept and the file made executable). Each command's
    // module is a chunk of its own under cli/, loaded when the command runs.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    splitting: true,
    clean: ['cli.js', 'cli.js.map', 'cli/**'],
    target: 'node20',
    platform: 'node',
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
  },
]);

import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: what `import ... from 'smsv4'` loads.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // The binary below is built beside it, at the same time: never delete it.
    clean: ['!cli.js', '!cli.js.map'],
    target: 'node20',
    platform: 'node',
  },
  {
    // The `smsv4` binary (ESM, its shebang kept and the file made executable).
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
  },
]);

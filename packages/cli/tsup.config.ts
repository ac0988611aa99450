import { defineConfig } from 'tsup';

// No source maps: the package is a program first (the source-map policy in the root README); its
// messages name the user's files, never its own lines.

export default defineConfig([
  {
    // The library: what `import ... from 'smsv4'` loads.
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    // Declarations: written after tsup by tooling/scripts/declarations.mjs (TypeScript 7, rolled into
    // one file per entry point, for ES modules and CommonJS).
    dts: false,
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
    // Core, transport-fetch and the sandbox are bundled in, with what they use of their dependencies
    // (TypeBox, fast-xml-parser, Hono): a command loads a few dozen files instead of several hundred,
    // which halves the start-up, and one copy of core serves every command (the API commands read
    // the sandbox's defaults; `smsv4 sandbox` runs it). The licences of the third-party code bundled are written beside it
    // (scripts/third-party-notices.mjs, from esbuild's metafile).
    noExternal: ['@smsv4/core', '@smsv4/transport-fetch', '@smsv4/sandbox'],
    external: ['@opentelemetry/api'],
    metafile: true,
    async onSuccess() {
      const { writeNotices } = await import('./scripts/third-party-notices.mjs');
      await writeNotices();
    },
    clean: ['cli.js', 'cli.js.map', 'cli/**', '*.map'],
    target: 'node20',
    platform: 'node',
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
  },
]);

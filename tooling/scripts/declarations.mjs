// The declaration files of a package's build, run from the package's folder after tsup (which builds
// the JavaScript): TypeScript 7 (`smsv4-tsc`, the native compiler) emits a declaration file per
// module from the package's tsconfig.json, unchecked (the workspace's type check checks the
// sources), then rollup-plugin-dts rolls them into one file per entry point, `dist/<name>.d.ts` for
// ES modules and `dist/<name>.d.cts` for CommonJS (with a shared chunk where entry points share
// declarations), packages left as imports. The same files tsup's declaration pass wrote with
// TypeScript 5.9, in about a third of the processor time: that pass parsed every library's types
// again in each package (Node's among them) to emit a few files.
//
//   node ../../tooling/scripts/declarations.mjs src/index.ts [src/other-entry.ts ...]
//
// Exits 1, saying why, when the compiler fails (or runs past its bound) or an entry point has no
// declarations.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

/** The most the compiler may take: 10 minutes, then it is stopped and the build fails. */
export const BOUND_MS = 600_000;

/** Warnings that say nothing about declarations (tsup ignores the same). */
const QUIET = new Set(['UNRESOLVED_IMPORT', 'CIRCULAR_DEPENDENCY', 'EMPTY_BUNDLE']);

/**
 * Builds the declarations of `entries` (paths under src/, from `dir`) into `dir`/dist; resolves with
 * rollup's warnings. `tsc`: the compiler (default: the package's `smsv4-tsc`).
 */
export async function buildDeclarations(dir, entries, { tsc = join(dir, 'node_modules', '.bin', 'smsv4-tsc') } = {}) {
  // Outside any node_modules folder: rollup-plugin-dts takes what it finds in one for a library's
  // types, and leaves it as an import.
  const emitted = mkdtempSync(join(tmpdir(), 'smsv4-declarations-'));
  try {
    return await rollUp(dir, entries, emitted, tsc);
  } finally {
    rmSync(emitted, { recursive: true, force: true });
  }
}

async function rollUp(dir, entries, emitted, tsc) {
  const args = ['-p', 'tsconfig.json', '--noEmit', 'false', '--declaration', '--emitDeclarationOnly', '--noCheck', '--declarationMap', 'false', '--rootDir', 'src', '--outDir', emitted, '--singleThreaded'];
  const result = spawnSync(tsc, args, { cwd: dir, encoding: 'utf8', timeout: BOUND_MS, killSignal: 'SIGKILL' });
  if (result.error !== undefined || result.status !== 0) {
    const why = result.error?.code === 'ETIMEDOUT' ? `did not end within ${BOUND_MS / 60_000} minutes` : (result.error?.message ?? `exit ${result.status}`);
    throw new Error(`smsv4-tsc ${args.join(' ')}: ${why}\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  const input = {};
  for (const entry of entries) {
    const file = join(emitted, relative('src', entry).replace(/\.ts$/, '.d.ts'));
    if (!existsSync(file)) throw new Error(`${entry}: no declarations emitted (${file})`);
    input[basename(entry, '.ts')] = file;
  }
  const warnings = [];
  const bundle = await rollup({ input, plugins: [dts()], onwarn: (warning) => void (QUIET.has(warning.code) ? undefined : warnings.push(warning.message)) });
  try {
    for (const extension of ['.d.ts', '.d.cts']) {
      // A chunk is named after its first module's declaration file (`explain.d.ts` gives `explain-<hash>`).
      await bundle.write({ dir: join(dir, 'dist'), format: 'es', entryFileNames: `[name]${extension}`, chunkFileNames: ({ name }) => `${name.replace(/\.d$/, '')}-[hash]${extension}` });
    }
  } finally {
    await bundle.close();
  }
  return warnings;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const entries = process.argv.slice(2);
  if (entries.length === 0) {
    console.error('usage: node declarations.mjs src/index.ts [src/other-entry.ts ...]');
    process.exit(1);
  }
  try {
    for (const warning of await buildDeclarations(process.cwd(), entries)) console.warn(`declarations: ${warning}`);
  } catch (error) {
    console.error(`declarations: ${error.message}`);
    process.exitCode = 1;
  }
}

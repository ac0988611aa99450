// A TypeScript script run as a child process by the multi-process tests and benchmarks, without a
// TypeScript loader in the child: the script and the sources it imports are bundled into one ES
// module once per process (esbuild, packages left as imports), and the child runs it as plain Node.
// A loader (`--import tsx`) compiles in every child at start, about 0.9 s of processor time each.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { build } from 'esbuild';

const bundles = new Map<string, Promise<string>>();

/** The folder of the package holding `file`: where the bundle goes, so that it imports the packages the script imports. */
function packageOf(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return dir;
  throw new Error(`${file} is in no package`);
}

/**
 * The path of `script` (a `.ts` file) bundled into a plain ES module, for `fork` or `node`: its
 * relative imports bundled, its package imports left as imports (resolved from the script's package,
 * as they would be from the script). Built once per process; the file, in the package's
 * `node_modules/.cache/smsv4-scripts`, is named after its content, so that processes building the
 * same script at once write the same file, and a changed source never runs an old bundle.
 */
export function compiledScript(script: URL | string): Promise<string> {
  const file = script instanceof URL ? fileURLToPath(script) : script;
  let bundle = bundles.get(file);
  if (bundle === undefined) {
    bundle = (async () => {
      const result = await build({ entryPoints: [file], bundle: true, packages: 'external', format: 'esm', platform: 'node', target: 'node20', write: false, logLevel: 'silent' });
      const code = result.outputFiles[0]?.contents ?? new Uint8Array();
      const dir = join(packageOf(file), 'node_modules', '.cache', 'smsv4-scripts');
      const out = join(dir, `${basename(file, '.ts')}.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
      if (!existsSync(out)) {
        mkdirSync(dir, { recursive: true });
        const partial = `${out}.${process.pid}.${threadId}.partial`;
        writeFileSync(partial, code);
        renameSync(partial, out);
      }
      return out;
    })();
    bundles.set(file, bundle);
    bundle.catch(() => bundles.delete(file));
  }
  return bundle;
}

// Every package of packages/ ships an ESM and a CommonJS build. Node's `import()` of the `.cjs`
// file (what an ESM program gets through `main`, a bundler's CommonJS interop or a direct path)
// sees named exports only when Node's CommonJS lexer can find them: the builds must carry the
// annotation for it, so that both builds expose the same names.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const packagesDir = new URL('../../../packages', import.meta.url).pathname;

// Prints the export names of the ESM build, of Node's import() of the CommonJS build, and of require().
const LIST_NAMES = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const [esm, cjs] = process.argv.slice(1);
const sorted = (names) => names.filter((name) => name !== 'default').sort();
const esmNames = sorted(Object.keys(await import(pathToFileURL(esm).href)));
const fromImport = sorted(Object.keys(await import(pathToFileURL(cjs).href)));
const fromRequire = sorted(Object.keys(createRequire(cjs)(cjs)));
console.log(JSON.stringify({ esmNames, fromImport, fromRequire }));
`;

interface Manifest {
  name: string;
  exports?: { '.'?: { import?: { default?: string }; require?: { default?: string } } };
}

const packages = readdirSync(packagesDir)
  .sort()
  .map((dir) => ({ dir: join(packagesDir, dir), manifest: join(packagesDir, dir, 'package.json') }))
  .filter(({ manifest }) => existsSync(manifest))
  .map(({ dir, manifest }) => ({ dir, pkg: JSON.parse(readFileSync(manifest, 'utf8')) as Manifest }))
  .filter(({ pkg }) => pkg.exports?.['.']?.require?.default !== undefined);

describe("the CommonJS builds expose their named exports to Node's import()", () => {
  it('finds the packages', () => {
    expect(packages.map(({ pkg }) => pkg.name)).toEqual(expect.arrayContaining(['@smsv4/core', '@smsv4/transport-fetch', '@smsv4/fetch-webhooks', '@smsv4/fastify-webhooks']));
  });

  it.each(packages.map(({ dir, pkg }) => [pkg.name, dir, pkg] as const))('%s', async (_name, dir, pkg) => {
    const cjs = join(dir, pkg.exports?.['.']?.require?.default as string);
    const esm = join(dir, pkg.exports?.['.']?.import?.default as string);
    if (!existsSync(cjs) || !existsSync(esm)) throw new Error(`${pkg.name} is not built (${cjs})`);
    // In a plain Node process: the test runner's own module loader would hide the problem.
    const names = spawnSync(process.execPath, ['--input-type=module', '-e', LIST_NAMES, esm, cjs], { encoding: 'utf8', timeout: 60_000 });
    if (names.status !== 0) throw new Error(`loading ${pkg.name} failed: ${names.stderr}`);
    const { esmNames, fromImport, fromRequire } = JSON.parse(names.stdout) as { esmNames: string[]; fromImport: string[]; fromRequire: string[] };
    expect(esmNames.length).toBeGreaterThan(0);
    expect(fromImport).toEqual(esmNames);
    expect(fromRequire).toEqual(esmNames);
  });
});

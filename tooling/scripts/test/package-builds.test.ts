// Every package of packages/ ships an ESM and a CommonJS build. Node's `import()` of the `.cjs`
// file (what an ESM program gets through `main`, a bundler's CommonJS interop or a direct path)
// sees named exports only when Node's CommonJS lexer can find them: the builds must carry the
// annotation for it, so that both builds expose the same names.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const packagesDir = new URL('../../../packages', import.meta.url).pathname;

// Prints, for each pair of builds, the export names of the ESM build, of Node's import() of the
// CommonJS build, and of require(); a build that fails to load is reported with its error.
const LIST_NAMES = `
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const sorted = (names) => names.filter((name) => name !== 'default').sort();
const out = {};
for (const [esm, cjs] of JSON.parse(process.argv[1])) {
  try {
    const esmNames = sorted(Object.keys(await import(pathToFileURL(esm).href)));
    const fromImport = sorted(Object.keys(await import(pathToFileURL(cjs).href)));
    const fromRequire = sorted(Object.keys(createRequire(cjs)(cjs)));
    out[cjs] = { esmNames, fromImport, fromRequire };
  } catch (error) {
    out[cjs] = { error: String(error && error.stack || error) };
  }
}
console.log(JSON.stringify(out));
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

const builds = packages.map(({ dir, pkg }) => ({
  name: pkg.name,
  cjs: join(dir, pkg.exports?.['.']?.require?.default as string),
  esm: join(dir, pkg.exports?.['.']?.import?.default as string),
}));

describe("the CommonJS builds expose their named exports to Node's import()", () => {
  let listed: Record<string, { esmNames: string[]; fromImport: string[]; fromRequire: string[]; error?: string }> = {};

  beforeAll(() => {
    for (const { name, cjs, esm } of builds) if (!existsSync(cjs) || !existsSync(esm)) throw new Error(`${name} is not built (${cjs})`);
    // Every package in one plain Node process (the test runner's own module loader would hide the problem).
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', LIST_NAMES, JSON.stringify(builds.map(({ esm, cjs }) => [esm, cjs]))], { encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) throw new Error(`listing the builds' names failed: ${run.stderr}`);
    listed = JSON.parse(run.stdout) as typeof listed;
  });

  it('finds the packages', () => {
    expect(packages.map(({ pkg }) => pkg.name)).toEqual(expect.arrayContaining(['@smsv4/core', '@smsv4/transport-fetch', '@smsv4/fetch-webhooks', '@smsv4/fastify-webhooks']));
  });

  it.each(builds.map((build) => [build.name, build] as const))('%s', (name, { cjs }) => {
    const names = listed[cjs];
    expect(names, name).toBeDefined();
    if (names?.error !== undefined) throw new Error(`loading ${name} failed: ${names.error}`);
    const { esmNames, fromImport, fromRequire } = names as { esmNames: string[]; fromImport: string[]; fromRequire: string[] };
    expect(esmNames.length).toBeGreaterThan(0);
    expect(fromImport).toEqual(esmNames);
    expect(fromRequire).toEqual(esmNames);
  });
});

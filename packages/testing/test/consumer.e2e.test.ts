/**
 * A consumer project outside the workspace: the packed tarballs of core, the sandbox, this kit and
 * the Express receiver installed with npm (the third-party packages from the registry, through a
 * cache kept between runs), and a small receiver's tests run with the kit under vitest (ESM,
 * TypeScript) and under jest (CommonJS), with the matchers' types checked for both runners, and
 * the receiver conformance suite run on the Express receiver under both.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, '..', '..');
const require = createRequire(import.meta.url);
const PACKED = ['core', 'sandbox', 'testing', 'express-webhooks'];
const VITEST_VERSION = (require('vitest/package.json') as { version: string }).version;
const JEST_VERSION = '30.5.2';
const EXPRESS_VERSION = '5.1.0';
/** npm's cache between runs: the registry is asked only for what it does not hold yet. */
const NPM_CACHE = join(tmpdir(), 'smsv4-consumer-npm-cache');
const MINUTES = 60_000;

/** The environment of the child runners: this run's own test-runner variables left out. */
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|__VITEST|TINYPOOL|NODE_ENV$|NODE_OPTIONS$)/.test(name)));

/**
 * pnpm packs the packages, in one run from the workspace's root (it turns `workspace:` ranges into
 * versions): the pnpm running the tests, else the pinned one.
 */
async function pack(names: readonly string[], destination: string): Promise<void> {
  const args = ['-r', ...names.flatMap((name) => ['--filter', `./packages/${name}`]), 'pack', '--pack-destination', destination];
  const execPath = process.env.npm_execpath;
  const options = { cwd: join(packages, '..'), env: childEnv, timeout: 3 * MINUTES };
  if (execPath !== undefined && /pnpm/.test(execPath)) await run(process.execPath, [execPath, ...args], options);
  else await run('npx', ['-y', 'pnpm@10.34.8', ...args], options);
}

let project = '';

beforeAll(async () => {
  for (const name of PACKED) {
    if (!existsSync(join(packages, name, 'dist', 'index.js'))) throw new Error(`build @smsv4/${name} first (turbo builds it before this test)`);
  }
  project = mkdtempSync(join(tmpdir(), 'smsv4-consumer-'));
  const tarballs = join(project, 'tarballs');
  mkdirSync(tarballs);
  await pack(PACKED, tarballs);
  const files = Object.fromEntries(readdirSync(tarballs).map((file) => [`@smsv4/${file.replace(/^smsv4-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, '')}`, `file:tarballs/${file}`]));
  expect(Object.keys(files).sort()).toEqual(PACKED.map((name) => `@smsv4/${name}`).sort());
  cpSync(join(here, 'consumer-project'), project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'smsv4-consumer',
        private: true,
        type: 'module',
        dependencies: { ...files, express: EXPRESS_VERSION },
        devDependencies: { vitest: VITEST_VERSION, jest: JEST_VERSION, '@jest/globals': JEST_VERSION },
        overrides: files,
      },
      null,
      2,
    ),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', '--cache', NPM_CACHE], { cwd: project, env: childEnv, timeout: 8 * MINUTES });
}, 10 * MINUTES);

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

interface Counts {
  numPassedTests: number;
  numFailedTests: number;
}

const counts = (file: string): Counts => JSON.parse(readFileSync(join(project, file), 'utf8')) as Counts;

describe('a consumer project outside the workspace', () => {
  it('installed the packed packages, not the workspace', () => {
    expect(project.startsWith(join(packages, '..'))).toBe(false);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', '@smsv4', 'testing', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(installed.dependencies['@smsv4/core']).not.toMatch(/^workspace:/);
  });

  it('runs its receiver tests with the kit under vitest', async () => {
    await run(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=json', '--outputFile=vitest.json'], { cwd: project, env: childEnv, timeout: 3 * MINUTES }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`vitest failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(counts('vitest.json')).toMatchObject({ numPassedTests: 60, numFailedTests: 0 });
  }, 4 * MINUTES);

  it('runs its receiver tests with the kit under jest (CommonJS)', async () => {
    await run(process.execPath, [join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', '--outputFile=jest.json'], { cwd: project, env: childEnv, timeout: 3 * MINUTES }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`jest failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(counts('jest.json')).toMatchObject({ numPassedTests: 60, numFailedTests: 0 });
  }, 4 * MINUTES);

  it.each(['vitest', 'jest'])('types the matchers for %s', async (runner) => {
    const tsc = require.resolve('typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', `tsconfig.${runner}.json`], { cwd: project, env: childEnv, timeout: 2 * MINUTES }).catch((error: { stdout?: string }) => {
      throw new Error(`tsc failed:\n${error.stdout ?? ''}`);
    });
  }, 3 * MINUTES);
});

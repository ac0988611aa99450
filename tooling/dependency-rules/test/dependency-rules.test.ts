/**
 * The dependency rules of `.dependency-cruiser.cjs`, run as the test command runs them: on the
 * repository (a violation fails this test, with the rule's name in its message), and on a fixture
 * tree (`test/fixtures/repo`, a miniature of the repository) where each rule has one planted
 * violation beside imports the rules allow.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const fixture = join(here, 'fixtures', 'repo');
const config = join(root, '.dependency-cruiser.cjs');
/** The CLI of the pinned dependency-cruiser (its package exports no path to it). */
const depcruise = join(here, '..', 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Run {
  readonly code: number;
  readonly output: string;
}

/** Runs depcruise with the repository's configuration in `cwd`. */
function cruise(cwd: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [depcruise, '--config', config, ...args], { cwd, maxBuffer: 64 * 1024 * 1024, timeout: 100_000 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') {
        reject(error);
        return;
      }
      resolve({ code: error === null ? 0 : (error.code as number), output: `${stdout}${stderr}` });
    });
  });
}

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

/** The violations planted in the fixture tree: one per rule (and only those). */
const PLANTED = [
  ['adapter-imports-only-core-and-transport', 'packages/fastify-webhooks/src/index.ts', '@smsv4/testing'],
  ['core-codecs-import-no-http-or-receiver', 'packages/core/src/mt-request/codec.ts', 'packages/core/src/http/requests.ts'],
  ['core-foundation-imports-no-room-above', 'packages/core/src/text/segments.ts', 'packages/core/src/mt-request/codec.ts'],
  ['core-http-imports-no-receiver', 'packages/core/src/http/requests.ts', 'packages/core/src/webhooks/handler.ts'],
  ['core-imports-no-workspace-package', 'packages/core/src/leak.ts', '@smsv4/transport-fetch'],
  ['no-circular', 'packages/queue/src/jobs.ts', 'packages/queue/src/workers.ts'],
  ['no-deep-import', 'packages/fetch-webhooks/src/index.ts', '@smsv4/core/dist/result.js'],
  ['no-deep-import', 'packages/queue/src/deep.ts', 'packages/core/src/result.ts'],
  ['no-sibling-adapter', 'packages/express-webhooks/src/sibling.ts', '@smsv4/nest-module'],
  ['sandbox-engine-below-http', 'packages/sandbox/src/engine/delivery.ts', 'packages/sandbox/src/http/routes.ts'],
  ['sandbox-only-in-tests-apps-cli-and-testing-kit', 'packages/nest-module/src/emulator.ts', '@smsv4/sandbox'],
  ['sandbox-only-in-tests-apps-cli-and-testing-kit', 'tooling/scripts/release.ts', '@smsv4/sandbox'],
  ['sandbox-state-below-engine', 'packages/sandbox/src/state/accounts.ts', 'packages/sandbox/src/engine/faults.ts'],
];

describe('dependency rules', () => {
  it('hold on the repository', async () => {
    const run = await cruise(root, ['packages', 'apps', 'tooling']);
    // On failure the message is depcruise's report: each violation with its rule's name.
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/no dependency violations found \(\d+ modules/);
  });

  it('catch the planted violation of every rule in the fixture tree, and nothing the rules allow', async () => {
    const run = await cruise(fixture, ['--output-type', 'json', 'packages', 'apps', 'tooling']);
    const result = JSON.parse(run.output) as { summary: { violations: Violation[] } };
    const found = result.summary.violations.map((v) => [v.rule.name, v.from, v.to]).sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
    expect(found).toEqual(PLANTED);
    // Every rule of the configuration has its planted violation: a new rule needs one here.
    const rules = (require(config) as { forbidden: Array<{ name: string }> }).forbidden.map((r) => r.name).sort();
    expect([...new Set(PLANTED.map(([name]) => name))].sort()).toEqual(rules);
  });

  it('fail the command with the name of each broken rule', async () => {
    const run = await cruise(fixture, ['packages', 'apps', 'tooling']);
    expect(run.code).toBe(PLANTED.length);
    for (const [name, from] of PLANTED) expect(run.output).toContain(`error ${name}: ${from} → `);
  });

  it('hold on imports resolved into built packages linked in node_modules, as in the installed repository', async () => {
    // A tree as pnpm and the build leave it: each package's dependencies linked under its node_modules,
    // each import resolved through the `exports` map into the target's dist/.
    const tree = await mkdtemp(join(tmpdir(), 'dependency-rules-'));
    const write = async (path: string, text: string): Promise<void> => {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await writeFile(join(tree, path), text);
    };
    const built = async (name: string, entries: Record<string, string> = { '.': './dist/index.js' }): Promise<void> => {
      await write(`packages/${name}/package.json`, JSON.stringify({ name: `@smsv4/${name}`, type: 'module', exports: entries }));
      for (const file of [...Object.values(entries), './dist/result.js']) await write(`packages/${name}/${file}`, 'export const x = 1;\n');
    };
    const link = async (from: string, names: readonly string[]): Promise<void> => {
      await mkdir(join(tree, 'packages', from, 'node_modules', '@smsv4'), { recursive: true });
      for (const name of names) await symlink(join('..', '..', '..', name), join(tree, 'packages', from, 'node_modules', '@smsv4', name), 'dir');
    };
    try {
      await built('core', { '.': './dist/index.js', './segments': './dist/segments.js' });
      for (const name of ['transport-fetch', 'nest-module', 'sandbox', 'testing']) await built(name);
      await write('packages/core/src/index.ts', "export const core = 1;\n");
      await write('packages/core/src/leak.ts', "export * from '@smsv4/transport-fetch';\n");
      await link('core', ['transport-fetch']);
      await write('packages/express-webhooks/src/index.ts', "export * from '@smsv4/core';\nexport * from '@smsv4/core/segments';\n");
      await write('packages/express-webhooks/src/sibling.ts', "export * from '@smsv4/nest-module';\n");
      await write('packages/express-webhooks/src/emulator.ts', "export * from '@smsv4/sandbox';\n");
      await write('packages/express-webhooks/src/kit.ts', "export * from '@smsv4/testing';\n");
      await write('packages/express-webhooks/src/deep.ts', "export * from '../../core/dist/result.js';\n");
      await link('express-webhooks', ['core', 'nest-module', 'sandbox', 'testing']);
      await write('packages/nest-module/src/index.ts', "export * from '@smsv4/core';\nexport * from '@smsv4/transport-fetch';\n");
      await link('nest-module', ['core', 'transport-fetch']);

      const run = await cruise(tree, ['--output-type', 'json', 'packages']);
      const result = JSON.parse(run.output) as { summary: { violations: Violation[] } };
      const found = result.summary.violations.map((v) => [v.rule.name, v.from, v.to]).sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
      expect(found).toEqual([
        ['adapter-imports-only-core-and-transport', 'packages/express-webhooks/src/kit.ts', 'packages/testing/dist/index.js'],
        ['core-imports-no-workspace-package', 'packages/core/src/leak.ts', 'packages/transport-fetch/dist/index.js'],
        ['no-deep-import', 'packages/express-webhooks/src/deep.ts', 'packages/core/dist/result.js'],
        ['no-sibling-adapter', 'packages/express-webhooks/src/sibling.ts', 'packages/nest-module/dist/index.js'],
        ['sandbox-only-in-tests-apps-cli-and-testing-kit', 'packages/express-webhooks/src/emulator.ts', 'packages/sandbox/dist/index.js'],
      ]);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });
});

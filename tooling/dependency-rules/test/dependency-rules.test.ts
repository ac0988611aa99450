/**
 * The dependency rules of `.dependency-cruiser.cjs`, run as the test command runs them: on the
 * repository (a violation fails this test, with the rule's name in its message), and on a fixture
 * tree (`test/fixtures/repo`, a miniature of the repository) where each rule has one planted
 * violation beside imports the rules allow.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
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
    const run = await cruise(fixture, ['--output-type', 'json', 'packages', 'apps']);
    const result = JSON.parse(run.output) as { summary: { violations: Violation[] } };
    const found = result.summary.violations.map((v) => [v.rule.name, v.from, v.to]).sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
    expect(found).toEqual(PLANTED);
    // Every rule of the configuration has its planted violation: a new rule needs one here.
    const rules = (require(config) as { forbidden: Array<{ name: string }> }).forbidden.map((r) => r.name).sort();
    expect([...new Set(PLANTED.map(([name]) => name))].sort()).toEqual(rules);
  });

  it('fail the command with the name of each broken rule', async () => {
    const run = await cruise(fixture, ['packages', 'apps']);
    expect(run.code).toBe(PLANTED.length);
    for (const [name, from] of PLANTED) expect(run.output).toContain(`error ${name}: ${from} → `);
  });
});

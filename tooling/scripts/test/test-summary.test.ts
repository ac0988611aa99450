// The closing line of the test command is honest: tests that did not run because their file or a
// hook failed are failures, files that collected nothing are failures, skips are named by group.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertyProfile as coreProfile } from '../../../packages/core/test/property-runs.js';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { WHY_LINES, failedTasks, profileLine, propertyProfile, summarisePackage, summariseReport } from '../test-summary.mjs';

const root = new URL('../../..', import.meta.url).pathname;
const file = (name: string, status: 'passed' | 'failed', tests: [string, string, string][], message = '') => ({
  name: `${root}packages/queue/${name}`,
  status,
  message,
  assertionResults: tests.map(([group, title, state]) => ({ ancestorTitles: [group], title, fullName: `${group} ${title}`, status: state })),
});

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
  skips: Map<string, number>;
}
const summarise = (testResults: unknown[]): Summary => summariseReport({ testResults }, 'packages/queue') as Summary;

describe('the test summary', () => {
  it('counts the tests of a file whose beforeAll failed as failed, not skipped, and says why', () => {
    const r = summarise([
      file('test/queue.e2e.test.ts', 'failed', [['queue', 'a', 'skipped'], ['queue', 'b', 'skipped']], 'Error: redis-server is not installed\n  at ...'),
    ]);
    expect(r).toMatchObject({ passed: 0, failed: 2, skipped: 0 });
    expect(r.failures).toEqual(['packages/queue/test/queue.e2e.test.ts: 2 tests not run (Error: redis-server is not installed)']);
  });

  it('counts a file that collected no test as one failure', () => {
    const r = summarise([file('test/broken.test.ts', 'failed', [], 'SyntaxError: Unexpected token')]);
    expect(r).toMatchObject({ passed: 0, failed: 1, skipped: 0 });
    expect(r.failures).toEqual(['packages/queue/test/broken.test.ts: no test collected (SyntaxError: Unexpected token)']);
  });

  it('names each failed test, and counts skips of passing files by group', () => {
    const r = summarise([
      file('test/a.test.ts', 'failed', [['g', 'one', 'passed'], ['g', 'two', 'failed']]),
      file('test/b.test.ts', 'passed', [['Bun (optional, skipped: no binary)', 'x', 'skipped'], ['Bun (optional, skipped: no binary)', 'y', 'pending'], ['h', 'z', 'passed']]),
    ]);
    expect(r).toMatchObject({ passed: 2, failed: 1, skipped: 2 });
    expect(r.failures).toEqual(['packages/queue/test/a.test.ts › g two']);
    expect([...r.skips]).toEqual([['packages/queue/test/b.test.ts › Bun (optional, skipped: no binary)', 2]]);
  });

  it("says why each test failed: its message's first lines, indented under its name", () => {
    const long = `Error: ${'x'.repeat(400)}`;
    const messages = ['AssertionError: expected 1 to be 2\n\n- Expected\n+ Received', long, ...Array.from({ length: 20 }, (_, i) => `    at line ${i}`)];
    const [report] = summarise([
      { name: join(root, 'packages/queue', 'test/a.test.ts'), status: 'failed', assertionResults: [{ fullName: 'g two', title: 'two', ancestorTitles: ['g'], status: 'failed', failureMessages: messages }] },
    ]).failures;
    const lines = (report ?? '').split('\n');
    expect(lines[0]).toBe('packages/queue/test/a.test.ts › g two');
    expect(lines.slice(1, 5)).toEqual(['      AssertionError: expected 1 to be 2', '      - Expected', '      + Received', `      ${long.slice(0, 300)}…`]);
    expect(lines).toHaveLength(1 + WHY_LINES);
  });
});

describe('a test task that failed', () => {
  it('counts as one failure when every test of its report passed (an unhandled error), and adds nothing to failed tests', () => {
    const report = { testResults: [{ name: `${process.cwd()}/test/a.test.ts`, status: 'passed', assertionResults: [{ status: 'passed', fullName: 'a', title: 'a' }] }] };
    const failing = { testResults: [{ name: `${process.cwd()}/test/a.test.ts`, status: 'failed', assertionResults: [{ status: 'failed', fullName: 'a', title: 'a', failureMessages: ['no'] }] }] };
    expect(summarisePackage(report, 'packages/cli', false)).toMatchObject({ passed: 1, failed: 0, failures: [] });
    expect(summarisePackage(report, 'packages/cli', true)).toMatchObject({ passed: 1, failed: 1, failures: ['packages/cli: its test run failed though every test passed (an unhandled error, say: see its output above)'] });
    expect(summarisePackage(failing, 'packages/cli', true)).toMatchObject({ passed: 0, failed: 1 });
  });
});

describe('failed tasks', () => {
  it("are read from the builds' turbo summary and the statuses of the tasks run directly, none from an earlier run", () => {
    const dir = mkdtempSync(join(tmpdir(), 'smsv4-runs-'));
    try {
      const summary = (name: string, tasks: [string, number | null][], at: number) => {
        writeFileSync(join(dir, name), JSON.stringify({ tasks: tasks.map(([taskId, exitCode]) => ({ taskId, execution: { exitCode } })) }));
        utimesSync(join(dir, name), at / 1000, at / 1000);
      };
      const start = 1_800_000_000_000;
      summary('old.json', [['@smsv4/core#lint', 1]], start - 60_000);
      summary('builds.json', [['@smsv4/core#build', 0], ['@smsv4/queue#build', 2]], start + 1_000);
      summary('long.json', [['@smsv4/docs#test', 1]], start + 2_000);
      summary('others.json', [['//#lint', 1], ['@smsv4/cli#test', 0], ['@smsv4/cli#typecheck', null]], start + 3_000);
      const none = join(dir, 'absent.json');
      expect(failedTasks(start, dir, none)).toEqual(['//#lint', '@smsv4/docs#test', '@smsv4/queue#build']);
      expect(failedTasks(start + 10_000, dir, none)).toBeUndefined();
      expect(failedTasks(start, join(dir, 'absent'), none)).toBeUndefined();
      // test-run.mjs's statuses: read when written during the run, with the builds' summary or alone.
      const statuses = join(dir, 'tasks', 'statuses.json');
      mkdirSync(join(dir, 'tasks'));
      writeFileSync(statuses, JSON.stringify({ tasks: [{ taskId: '//#typecheck:all', exitCode: 2 }, { taskId: '@smsv4/core#test', exitCode: 0 }, { taskId: '@smsv4/nest-example#lint', exitCode: 1 }] }));
      utimesSync(statuses, (start + 4_000) / 1000, (start + 4_000) / 1000);
      expect(failedTasks(start, dir, statuses)).toEqual(['//#lint', '//#typecheck:all', '@smsv4/docs#test', '@smsv4/nest-example#lint', '@smsv4/queue#build']);
      expect(failedTasks(start, join(dir, 'absent'), statuses)).toEqual(['//#typecheck:all', '@smsv4/nest-example#lint']);
      expect(failedTasks(start + 10_000, dir, statuses)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the property tests’ profile in the summary', () => {
  it('is decided as core’s tests decide it, and named only when quick', () => {
    const environments = [{}, { CI: 'true' }, { CI: '1' }, { CI: 'false' }, { CI: '0' }, { CI: '' }, { CI: 'true', SMSV4_PROPERTY_RUNS: 'quick' }, { SMSV4_PROPERTY_RUNS: ' FULL ' }, { SMSV4_PROPERTY_RUNS: 'quick' }];
    for (const env of environments) expect(propertyProfile(env), JSON.stringify(env)).toBe(coreProfile(env));
    expect(profileLine('quick')).toMatch(/^property tests: quick profile, a fifth of the cases .*SMSV4_PROPERTY_RUNS=full/);
    expect(profileLine('full')).toBeUndefined();
  });

  it('is full in CI: .ci/run chooses it before the README’s test command, and the README says how to choose', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const chosen = ci.indexOf('export SMSV4_PROPERTY_RUNS=full');
    expect(chosen).toBeGreaterThan(0);
    expect(chosen).toBeLessThan(ci.indexOf('pnpm@10.34.8 test'));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('SMSV4_PROPERTY_RUNS=full npx -y pnpm@10.34.8 test');
  });
});

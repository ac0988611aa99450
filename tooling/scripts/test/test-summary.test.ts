// The closing line of the test command is honest: tests that did not run because their file or a
// hook failed are failures, files that collected nothing are failures, skips are named by group.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { summariseReport } from '../test-summary.mjs';

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
});

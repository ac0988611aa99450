// The test command's order: builds first, then the long poles each in a turbo run of its own and
// the other packages longest first, so that no task of the workspace is left out or run twice.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { BY_DURATION, LONG_POLES, plan, workspacePackages } from '../test-run.mjs';

type Plan = { build: string[]; longPoles: string[][]; queue: string[][] };
const filterOf = (args: string[]): string => (args.find((arg) => arg.startsWith('--filter=')) ?? '').slice('--filter='.length);

describe('the test command', () => {
  const packages = workspacePackages() as { name: string; scripts: Record<string, string> }[];

  it('builds everything first, then runs the checks of every package once, with its dependencies already built', () => {
    const { build, longPoles, queue } = plan(packages) as Plan;
    expect(build.slice(0, 2)).toEqual(['run', 'build']);
    expect(build.some((arg) => arg.startsWith('--filter'))).toBe(false);
    const runs = [...longPoles, ...queue];
    for (const args of runs) expect(args).toContain('--only');
    const filters = runs.map(filterOf);
    expect(new Set(filters).size).toBe(filters.length);
    const checked = packages.filter(({ scripts }) => scripts.test !== undefined || scripts.typecheck !== undefined || scripts.lint !== undefined).map(({ name }) => name);
    expect(filters.filter((f) => f !== '//').sort()).toEqual(checked.sort());
    // The workspace lint (one ESLint process at the root).
    expect(queue.at(-1)).toEqual(expect.arrayContaining(['lint', '--filter=//']));
  });

  it('starts the long poles at once and the others longest first; a package not ranked still runs', () => {
    const { longPoles, queue } = plan([...packages, { name: '@smsv4/new-package', scripts: { test: 'vitest run' } }]) as Plan;
    expect(longPoles.map(filterOf)).toEqual(LONG_POLES);
    for (const name of LONG_POLES as string[]) expect(packages.find((p) => p.name === name)?.scripts.test, name).toBeDefined();
    const order = queue.map(filterOf);
    expect(order.slice(0, (BY_DURATION as string[]).length)).toEqual(BY_DURATION);
    expect(order).toContain('@smsv4/new-package');
  });
});

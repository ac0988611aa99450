// The test command's order: builds first (the workspace lint beside them), then the long poles each in a turbo run of its own, every
// type check in one task, and the other packages longest first, so that no task of the workspace is
// left out or run twice.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { BY_DURATION, LONG_POLES, plan, workspacePackages } from '../test-run.mjs';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { checks } from '../typecheck-all.mjs';

type Plan = { build: string[]; besideBuild: string[]; longPoles: string[][]; queue: string[][] };
const filterOf = (args: string[]): string => (args.find((arg) => arg.startsWith('--filter=')) ?? '').slice('--filter='.length);

describe('the test command', () => {
  const packages = workspacePackages() as { name: string; scripts: Record<string, string> }[];

  it('builds everything first, then runs the checks of every package once, with its dependencies already built', () => {
    const { build, besideBuild, longPoles, queue } = plan(packages) as Plan;
    expect(build.slice(0, 2)).toEqual(['run', 'build']);
    expect(build.some((arg) => arg.startsWith('--filter'))).toBe(false);
    const runs = [besideBuild, ...longPoles, ...queue];
    for (const args of runs) expect(args).toContain('--only');
    const perPackage = runs.filter((args) => filterOf(args) !== '//');
    const filters = perPackage.map(filterOf);
    expect(new Set(filters).size).toBe(filters.length);
    // Each package with tests or a lint of its own gets a run of both; no package's typecheck runs on its own.
    const checked = packages.filter(({ scripts }) => scripts.test !== undefined || scripts.lint !== undefined).map(({ name }) => name);
    expect(filters.sort()).toEqual(checked.sort());
    for (const args of perPackage) expect(args.slice(0, 3)).toEqual(['run', 'lint', 'test']);
    // Every type check in one task of the workspace, first after the long poles; the workspace lint
    // once, beside the builds (it needs none of them).
    expect(queue[0]?.slice(0, 2)).toEqual(['run', 'typecheck:all']);
    expect(besideBuild.slice(0, 2)).toEqual(['run', 'lint']);
    expect(filterOf(besideBuild)).toBe('//');
    expect(runs.filter((args) => filterOf(args) === '//' && args[1] === 'lint')).toHaveLength(1);
    const turboJson = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8')) as { tasks: Record<string, { dependsOn?: string[] }> };
    expect(turboJson.tasks['//#lint']?.dependsOn ?? []).toEqual([]);
  });

  it('checks the type of every package with a typecheck script, each with its own command', () => {
    const all = checks() as { name: string; command: string; args: string[] }[];
    const typed = packages.filter(({ scripts }) => scripts.typecheck !== undefined).map(({ name }) => name);
    expect(all.map(({ name }) => name).sort()).toEqual(typed.sort());
    expect(all.find(({ name }) => name === '@smsv4/core')).toMatchObject({ command: expect.stringMatching(/packages\/core\/node_modules\/\.bin\/smsv4-tsc$/), args: ['-p', 'tsconfig.test.json', '--singleThreaded'] });
    for (const { command } of all) expect(existsSync(command), command).toBe(true);
  });

  it('starts the long poles at once and the others longest first; a package not ranked still runs', () => {
    const { longPoles, queue } = plan([...packages, { name: '@smsv4/new-package', scripts: { test: 'vitest run' } }]) as Plan;
    expect(longPoles.map(filterOf)).toEqual(LONG_POLES);
    for (const name of LONG_POLES as string[]) expect(packages.find((p) => p.name === name)?.scripts.test, name).toBeDefined();
    const order = queue.map(filterOf);
    expect(order[0]).toBe('//'); // every type check
    const ranked = order.slice(1);
    expect(ranked.slice(0, (BY_DURATION as string[]).length)).toEqual(BY_DURATION);
    expect(order).toContain('@smsv4/new-package');
  });

  it("passes the machine's certificates and proxy settings to every task (turbo's strict mode would drop them, and the registry round trip reads the public registry through them)", () => {
    const turbo = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8')) as { globalPassThroughEnv?: string[] };
    expect(turbo.globalPassThroughEnv).toEqual(expect.arrayContaining(['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']));
  });
});

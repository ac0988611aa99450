// The test command's order: builds first (the workspace lint beside them), then the long poles, every
// type check in one task, and the other packages longest first, so that no task of the workspace is
// left out or run twice; and how a task runs without a package manager: its script in a shell, its
// lines prefixed, bounded in time.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { BY_DURATION, LONG_POLES, TASK_BOUND_MS, plan, runScript, scriptEnv, workspacePackages } from '../test-run.mjs';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { checks } from '../typecheck-all.mjs';

type Job = { name: string; dir: string; tasks: { task: string; script: string }[] };
type Plan = { build: string[]; besideBuild: Job; longPoles: Job[]; queue: Job[] };
type Package = { name: string; dir: string; scripts: Record<string, string> };
const rootScripts = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the test command', () => {
  const packages = workspacePackages() as Package[];

  it('builds everything first, then runs the checks of every package once, each its own script from its own folder', () => {
    const { build, besideBuild, longPoles, queue } = plan(packages) as Plan;
    expect(build.slice(0, 2)).toEqual(['run', 'build']);
    expect(build.some((arg) => arg.startsWith('--filter'))).toBe(false);
    const perPackage = [...longPoles, ...queue].filter(({ name }) => name !== '//');
    const names = perPackage.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    // Each package with tests or a lint of its own gets a job of both, its scripts as written; no package's typecheck runs on its own.
    const checked = packages.filter(({ scripts }) => scripts.test !== undefined || scripts.lint !== undefined);
    expect([...names].sort()).toEqual(checked.map(({ name }) => name).sort());
    for (const job of perPackage) {
      const pkg = checked.find(({ name }) => name === job.name) as Package;
      expect(job.dir).toBe(pkg.dir);
      expect(job.tasks).toEqual(['lint', 'test'].filter((task) => pkg.scripts[task] !== undefined).map((task) => ({ task, script: pkg.scripts[task] })));
    }
    // Every type check in one task of the workspace, first after the long poles; the workspace lint
    // once, beside the builds (it needs none of them).
    expect(queue[0]).toMatchObject({ name: '//', tasks: [{ task: 'typecheck:all', script: rootScripts['typecheck:all'] }] });
    expect(besideBuild).toMatchObject({ name: '//', tasks: [{ task: 'lint', script: rootScripts.lint }] });
    expect([besideBuild, ...longPoles, ...queue].filter(({ name }) => name === '//').flatMap(({ tasks }) => tasks.map(({ task }) => task))).toEqual(['lint', 'typecheck:all']);
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
    const { longPoles, queue } = plan([...packages, { name: '@smsv4/new-package', dir: '/nowhere', scripts: { test: 'vitest run' } }], rootScripts) as Plan;
    expect(longPoles.map(({ name }) => name)).toEqual(LONG_POLES);
    for (const name of LONG_POLES as string[]) expect(packages.find((p) => p.name === name)?.scripts.test, name).toBeDefined();
    const order = queue.map(({ name }) => name);
    expect(order[0]).toBe('//'); // every type check
    const ranked = order.slice(1);
    expect(ranked.slice(0, (BY_DURATION as string[]).length)).toEqual(BY_DURATION);
    expect(order).toContain('@smsv4/new-package');
  });

  it("passes the machine's certificates and proxy settings to every turbo task (turbo's strict mode would drop them)", () => {
    const turbo = JSON.parse(readFileSync(new URL('../../../turbo.json', import.meta.url), 'utf8')) as { globalPassThroughEnv?: string[] };
    expect(turbo.globalPassThroughEnv).toEqual(expect.arrayContaining(['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']));
  });
});

describe('a task run without a package manager', () => {
  const collect = () => {
    const stream = new PassThrough();
    let text = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    return { stream, text: () => text };
  };

  it("runs its script in a shell from its package's folder, every line prefixed, and resolves with its exit status", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smsv4-task-'));
    try {
      const [out, err] = [collect(), collect()];
      const script = 'echo "in $(pwd)"; echo two >&2; printf "no newline"; exit 3';
      const status = (await runScript({ name: '@smsv4/x', task: 'test', dir, script }, { stdout: out.stream, stderr: err.stream })) as number;
      expect(status).toBe(3);
      expect(out.text()).toBe(`@smsv4/x:test: in ${dir}\n@smsv4/x:test: no newline\n`);
      expect(err.text()).toBe('@smsv4/x:test: two\n');
      expect(await runScript({ name: '@smsv4/x', task: 'lint', dir, script: 'true && true' }, { yielding: true, stdout: out.stream, stderr: err.stream })).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds the package's own binaries first, then the workspace's, then the PATH's", () => {
    const dir = '/work/pkg';
    const path = (scriptEnv(dir, { PATH: '/usr/bin', HOME: '/root' }) as { PATH: string }).PATH.split(':');
    expect(path[0]).toBe('/work/pkg/node_modules/.bin');
    expect(path[1]).toMatch(/\/node_modules\/\.bin$/);
    expect(path.at(-1)).toBe('/usr/bin');
    expect(scriptEnv(dir, { PATH: '/usr/bin', HOME: '/root' })).toMatchObject({ HOME: '/root' });
  });

  it('is bounded at the 20 minutes the README states', () => {
    expect(TASK_BOUND_MS).toBe(20 * 60_000);
    expect(readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')).toContain('each task is stopped and failed past 20 minutes');
  });

  it('past its bound, kills every process the task started and fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smsv4-task-'));
    try {
      const [out, err] = [collect(), collect()];
      // A grandchild holds the output open: the task ends only once it is gone too.
      writeFileSync(join(dir, 'task.sh'), 'sleep 120 &\necho started\nwait\n');
      const status = await runScript({ name: '@smsv4/x', task: 'test', dir, script: 'sh task.sh' }, { boundMs: 300, stdout: out.stream, stderr: err.stream });
      expect(status).toBe(1);
      expect(out.text()).toBe('@smsv4/x:test: started\n');
      expect(err.text()).toBe('@smsv4/x:test: did not end within 0.3 s: stopped\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

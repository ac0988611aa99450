// The tasks of the test command, ordered so that the run ends as soon as its slowest task can.
//
// 1. Every build, in one turbo run (dependency order, turbo's cache: what every other task waits
//    for), and beside it, at a lower priority, the workspace lint (one ESLint process, about fifteen
//    seconds of processor time): it needs no build, and the builds wait on one another part of the
//    time (core's first, alone), leaving a core idle that the lint takes. It takes none of the four
//    slots below: it goes on beside them at its lower priority, on what they leave idle.
// 2. Then, through four slots: the long poles first (the registry round trip of
//    tooling/release-check, the documentation site), every package's type check in one task
//    (typecheck-all.mjs), then each other package's lint and tests, longest first, at a lower
//    priority than the long poles. A slot freed takes the next package, so that four are under way
//    until the queue is empty (many suites wait on servers and timers part of the time: four keep
//    both cores busy).
//
// Every task but the builds runs directly: its package's script in a shell, from the package's
// folder, with the package's and the workspace's node_modules/.bin first on the PATH, as a package
// manager runs a script, without starting one per task (pnpm costs about 0.6 s of processor time
// each time it starts) and without turbo's cache: every test runs, every time. Each line a task
// prints is prefixed with `<package>:<task>: `. Each task is bounded (TASK_BOUND_MS): past it, its
// processes are killed and it fails. SIGINT and SIGTERM end every task under way.
//
// The builds' turbo run writes its summary, and this script the exit status of every other task,
// with when it started and ended (TASKS_FILE); test-summary.mjs reads both. Exits 1 if any task failed.
//
//   node tooling/scripts/test-run.mjs
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { TASKS_FILE, workspacePackages as listPackages } from './test-summary.mjs';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const turboBin = join(root, 'node_modules', '.bin', 'turbo');

/** The most one task may take (a package's lint, its tests, the registry round trip): 20 minutes, then its processes are killed and it fails. */
export const TASK_BOUND_MS = 20 * 60_000;

/** Packages that start first, one slot each, longest first. */
export const LONG_POLES = ['@smsv4/release-check', '@smsv4/docs'];

/**
 * The other packages, longest first: by the time their tests take on a 2-core machine (several
 * wait on servers, timers and Redis faults more than they compute: they start early, so that
 * others fill the cores meanwhile). A package missing from the list runs after them: none is ever
 * left out.
 */
export const BY_DURATION = [
  '@smsv4/queue',
  '@smsv4/express-webhooks',
  '@smsv4/testing',
  '@smsv4/nest-module',
  'smsv4',
  '@smsv4/core',
  '@smsv4/sandbox-app',
  '@smsv4/dependency-rules',
  '@smsv4/transport-fetch',
  '@smsv4/fetch-webhooks',
  '@smsv4/fastify-webhooks',
  '@smsv4/sandbox',
  '@smsv4/scripts',
  '@smsv4/nest-example',
];

/** How many packages' tasks are under way at once (the long poles included). */
export const SLOTS = 4;

/** The workspace root as a package (its name `//`, as turbo names it). */
const ROOT_NAME = '//';

/** Every workspace package's name, folder and scripts. */
export function workspacePackages() {
  return listPackages().map(({ pkg, dir }) => ({ name: pkg.name, dir, scripts: pkg.scripts ?? {} }));
}

/**
 * The test command's plan: the turbo run of the builds, then jobs run directly. A job is a
 * package's tasks, run one after the other: `{ name, dir, tasks: [{ task, script }] }`.
 */
export function plan(packages = workspacePackages(), rootScripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts) {
  const job = (name, dir, scripts, tasks) => ({ name, dir, tasks: tasks.filter((task) => scripts[task] !== undefined).map((task) => ({ task, script: scripts[task] })) });
  // Each package's job is its lint and its tests; every type check is one task of the workspace
  // (typecheck-all.mjs: one process, no package manager started per package), right after the long poles.
  const checked = packages.filter(({ scripts }) => scripts.test !== undefined || scripts.lint !== undefined);
  const rank = (name) => (BY_DURATION.includes(name) ? BY_DURATION.indexOf(name) : BY_DURATION.length);
  const ranked = checked.filter(({ name }) => !LONG_POLES.includes(name)).sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  const own = ({ name, dir, scripts }) => job(name, dir, scripts, ['lint', 'test']);
  return {
    build: ['run', 'build', '--concurrency=2', '--continue', '--summarize', '--output-logs=full'],
    besideBuild: job(ROOT_NAME, root, rootScripts, ['lint']),
    longPoles: LONG_POLES.map((name) => checked.find((p) => p.name === name)).filter((p) => p !== undefined).map(own),
    queue: [job(ROOT_NAME, root, rootScripts, ['typecheck:all']), ...ranked.map(own)],
  };
}

/**
 * The environment of a package's script, as a package manager gives it: the package's and the
 * workspace's node_modules/.bin first on the PATH.
 */
export function scriptEnv(dir, env = process.env) {
  const bins = [...new Set([join(dir, 'node_modules', '.bin'), join(root, 'node_modules', '.bin')])];
  return { ...env, PATH: [...bins, env.PATH ?? ''].join(delimiter) };
}

/** The process groups under way (each task leads its own, so that a bound or a signal ends all its processes). */
const running = new Set();

const killGroup = (pid, signal) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
};

/** Copies each line of `stream` to `out` with `prefix`. */
const relay = (stream, out, prefix) => createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${prefix}${line}\n`));

/**
 * Runs `script` in a shell from `dir` (at nice 10 when `yielding`), its lines prefixed; resolves with
 * its exit status: a signal, a failure to start or the bound passed count as 1.
 */
export function runScript({ name, task, dir, script }, { yielding = false, boundMs = TASK_BOUND_MS, stdout = process.stdout, stderr = process.stderr } = {}) {
  return new Promise((resolve) => {
    const prefix = `${name}:${task}: `;
    const [command, args] = yielding && process.platform !== 'win32' ? ['nice', ['-n', '10', 'sh', '-c', script]] : ['sh', ['-c', script]];
    const child = spawn(command, args, { cwd: dir, env: scriptEnv(dir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child.pid);
    relay(child.stdout, stdout, prefix);
    relay(child.stderr, stderr, prefix);
    let over = false;
    const timer = setTimeout(() => {
      over = true;
      stderr.write(`${prefix}did not end within ${boundMs / 1000} s: stopped\n`);
      killGroup(child.pid, 'SIGKILL');
    }, boundMs);
    child.on('error', (error) => stderr.write(`${prefix}${error.message}\n`));
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child.pid);
      resolve(over ? 1 : (code ?? 1));
    });
  });
}

/** Runs turbo with `args`; resolves with its exit status (a signal counts as 1). */
function turbo(args) {
  return new Promise((resolve) => {
    const child = spawn(turboBin, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`turbo ${args.join(' ')}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const { build, besideBuild, longPoles, queue } = plan();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const pid of running) killGroup(pid, 'SIGTERM');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
  const tasks = [];
  const started = Date.now();
  const record = (job, task, exitCode, from) => {
    // With when it started and ended, in seconds from the start of the run (a timeline of the run).
    tasks.push({ taskId: `${job.name}#${task}`, exitCode, from: (from - started) / 1000, to: (Date.now() - started) / 1000 });
    mkdirSync(dirname(TASKS_FILE), { recursive: true });
    writeFileSync(TASKS_FILE, `${JSON.stringify({ tasks }, null, 2)}\n`);
  };
  const runJob = async (job, yielding) => {
    for (const { task, script } of job.tasks) {
      const from = Date.now();
      record(job, task, await runScript({ name: job.name, task, dir: job.dir, script }, { yielding }), from);
    }
  };
  // The lint takes no slot: at its lower priority it runs on what the others leave idle, and
  // nothing waits for it but the end of the run.
  const lint = runJob(besideBuild, true);
  const built = await turbo(build);
  const pending = [...longPoles.map((job) => ({ job, yielding: false })), ...queue.map((job) => ({ job, yielding: true }))];
  const slot = async () => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) await runJob(next.job, next.yielding);
  };
  await Promise.all(Array.from({ length: SLOTS }, slot));
  await lint;
  process.exitCode = built !== 0 || tasks.some(({ exitCode }) => exitCode !== 0) ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

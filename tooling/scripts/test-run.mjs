// The tasks of the test command, ordered so that the run ends as soon as its slowest task can.
//
// 1. Every build, in one turbo run (what every other task waits for), and beside it, at a lower
//    priority, the workspace lint (one ESLint process, about fifteen seconds of processor time):
//    it needs no build, and the builds wait on one another part of the time (core's first, alone),
//    leaving a core idle that the lint takes. It takes none of the four slots below: it goes on
//    beside them at its lower priority, on what they leave idle.
// 2. Then, through four slots: the long poles first (the registry round trip of
//    tooling/release-check, the documentation site), every package's type check in one task
//    (typecheck-all.mjs), then each other package's lint and test in a turbo run of its own,
//    longest first, at a lower priority than the long poles. A slot freed takes the next run, so
//    that four are under way until the queue is empty (many suites wait on servers and timers part
//    of the time: four keep both cores busy).
//
// Each turbo run writes its summary; test-summary.mjs reads them all. Exits 1 if any run failed.
//
//   node tooling/scripts/test-run.mjs
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workspacePackages as listPackages } from './test-summary.mjs';

const root = new URL('../..', import.meta.url).pathname;
const turboBin = join(root, 'node_modules', '.bin', 'turbo');

/** Packages that run in a turbo run of their own beside everything else, longest first. */
export const LONG_POLES = ['@smsv4/release-check', '@smsv4/docs'];

/**
 * The other packages, longest first: by the time their tests take on a 2-core machine (several
 * wait on servers, timers and Redis faults more than they compute: they start early, so that
 * others fill the cores meanwhile). A package missing from the list runs after them: none is ever
 * left out.
 */
export const BY_DURATION = [
  '@smsv4/queue',
  '@smsv4/core',
  'smsv4',
  '@smsv4/express-webhooks',
  '@smsv4/nest-module',
  '@smsv4/testing',
  '@smsv4/sandbox-app',
  '@smsv4/dependency-rules',
  '@smsv4/transport-fetch',
  '@smsv4/fetch-webhooks',
  '@smsv4/fastify-webhooks',
  '@smsv4/sandbox',
  '@smsv4/scripts',
  '@smsv4/nest-example',
];

/** How many turbo runs are under way at once (the long poles included). */
export const SLOTS = 4;

/** Every workspace package's name and scripts. */
export function workspacePackages() {
  return listPackages().map(({ pkg }) => ({ name: pkg.name, scripts: pkg.scripts ?? {} }));
}

const COMMON = ['--continue', '--summarize', '--output-logs=full'];

/** The turbo runs of the test command: the builds and the workspace lint beside them, then the long poles and the queue of the others. */
export function plan(packages = workspacePackages()) {
  // Every package's type check is one task of the workspace (typecheck-all.mjs: one process, no
  // package manager started per package), right after the long poles; each package's run is its
  // lint and its tests.
  const tasks = ['lint', 'test'];
  const checked = packages.filter(({ scripts }) => scripts.test !== undefined || scripts.lint !== undefined).map(({ name }) => name);
  const rank = (name) => (BY_DURATION.includes(name) ? BY_DURATION.indexOf(name) : BY_DURATION.length);
  const ranked = checked.filter((name) => !LONG_POLES.includes(name)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const checksOf = (name) => ['run', ...tasks, '--only', `--filter=${name}`, ...COMMON];
  return {
    build: ['run', 'build', '--concurrency=2', ...COMMON],
    besideBuild: ['run', 'lint', '--only', '--filter=//', ...COMMON],
    longPoles: LONG_POLES.filter((name) => checked.includes(name)).map(checksOf),
    queue: [['run', 'typecheck:all', '--only', '--filter=//', ...COMMON], ...ranked.map(checksOf)],
  };
}

/**
 * Runs turbo with `args`; resolves with its exit status (a signal counts as 1). `yielding` runs it
 * at a lower priority (nice 10), so that the long poles get the processor first.
 */
function turbo(args, { yielding = false } = {}) {
  return new Promise((resolve) => {
    const child = yielding && process.platform !== 'win32' ? spawn('nice', ['-n', '10', turboBin, ...args], { cwd: root, stdio: 'inherit' }) : spawn(turboBin, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`turbo ${args.join(' ')}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const { build, besideBuild, longPoles, queue } = plan();
  // The lint takes no slot: at its lower priority it runs on what the others leave idle, and
  // nothing waits for it but the end of the run.
  const lint = turbo(besideBuild, { yielding: true });
  const statuses = [await turbo(build)];
  const pending = [...longPoles.map((args) => ({ args, yielding: false })), ...queue.map((args) => ({ args, yielding: true }))];
  const slot = async () => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) statuses.push(await turbo(next.args, { yielding: next.yielding }));
  };
  await Promise.all(Array.from({ length: SLOTS }, slot));
  statuses.push(await lint);
  process.exitCode = statuses.some((s) => s !== 0) ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

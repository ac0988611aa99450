// The tasks of the test command, ordered so that the run ends as soon as the slowest task can:
// every build first (what everything else waits for), then the longest tasks (the registry round
// trip of tooling/release-check and the documentation site) each in a turbo run of its own from the
// first second, beside one turbo run of every other typecheck, lint and test. Each turbo run writes
// its summary; test-summary.mjs reads them all. Exits with the first non-zero status.
//
//   node tooling/scripts/test-run.mjs
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const turboBin = join(root, 'node_modules', '.bin', 'turbo');

/** The packages whose tasks run in a turbo run of their own, longest first. */
export const LONG_POLES = ['@smsv4/release-check', '@smsv4/docs'];

/** The turbo runs of the test command, in phases: each phase starts when the one before ended. */
export function plan() {
  const common = ['--continue', '--summarize', '--output-logs=full'];
  return [
    [['run', 'build', '--concurrency=2', ...common]],
    [
      ...LONG_POLES.map((name) => ['run', 'typecheck', 'test', '--only', `--filter=${name}`, ...common]),
      ['run', 'typecheck', 'lint', 'test', '--only', '--concurrency=2', ...LONG_POLES.map((name) => `--filter=!${name}`), ...common],
    ],
  ];
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
  let status = 0;
  for (const phase of plan()) {
    const statuses = await Promise.all(phase.map((args) => turbo(args)));
    status ||= statuses.find((s) => s !== 0) ?? 0;
  }
  process.exitCode = status;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

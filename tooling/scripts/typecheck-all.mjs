// Every workspace package's type check in one process, two at a time: each package's own
// `typecheck` script (smsv4-tsc, TypeScript 7, for most; the Nest example's own tsc), its command
// run directly from the package's node_modules/.bin, without a package manager per package.
// Prints each check's output under the package's name, and names the packages that failed.
// Exits 1 when any failed. Each check is bounded: stopped after 10 minutes, then failed.
//
//   node tooling/scripts/typecheck-all.mjs
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePackages } from './test-summary.mjs';

export const BOUND_MS = 600_000;
const AT_ONCE = 2;

/** The type checks to run: each package's folder, its command (from its node_modules/.bin) and arguments. */
export function checks(packages = workspacePackages()) {
  return packages
    .filter(({ pkg }) => typeof pkg.scripts?.typecheck === 'string')
    .map(({ folder, dir, pkg }) => {
      const [command = '', ...args] = pkg.scripts.typecheck.trim().split(/\s+/);
      // Two checks run at once: TypeScript 7's own threads would only contend for the same cores.
      if (command === 'smsv4-tsc') args.push('--singleThreaded');
      return { name: pkg.name, folder, dir, command: join(dir, 'node_modules', '.bin', command), args };
    });
}

/** Runs one check; resolves with its exit status and output (bounded at `bound` ms). */
function check({ dir, command, args }, bound = BOUND_MS) {
  return new Promise((resolve) => {
    if (!existsSync(command)) return resolve({ status: 1, output: `${command} is not installed` });
    const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\nstopped: did not end within ${bound / 60_000} minutes`;
      child.kill('SIGKILL');
    }, bound);
    child.on('error', (error) => (output += `\n${error.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? 1, output });
    });
  });
}

async function main() {
  const pending = checks();
  const failed = [];
  const slot = async () => {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      const { status, output } = await check(next);
      const text = output.trim();
      console.log(`${next.folder}: ${[next.command.split('/').pop(), ...next.args].join(' ')}: ${status === 0 ? 'ok' : `failed (exit ${status})`}${text === '' ? '' : `\n${text}`}`);
      if (status !== 0) failed.push(next.folder);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, slot));
  if (failed.length > 0) {
    console.error(`type check failed in: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// The flake hunt: runs the end-to-end and multi-process suites N times in a row while a busy loop
// runs on every core, and reports every test that failed at least once. A test that fails only
// under load is a test that depends on timing: fix the test (or the code), never the load.
//
//   node tooling/scripts/flake-hunt.mjs [--runs N] [--load K] [--filter <text>] [--timeout-min M]
//
//   --runs N         rounds (default 3)
//   --load K         busy-loop processes (default: one per core)
//   --filter <text>  only the test files whose path contains <text>
//   --timeout-min M  the most one package's run may take (default 15); a run past it is ended and counted as failed
//
// Run it after a build (`npx -y pnpm@10.34.8 build`). Exit 0 when nothing failed, 1 otherwise.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { runScript } from './test-run.mjs';
import { why } from './test-summary.mjs';

const root = new URL('../..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    load: { type: 'string', default: String(availableParallelism()) },
    filter: { type: 'string', default: '' },
    'timeout-min': { type: 'string', default: '15' },
  },
});
// The runs' output is kept to name why one failed: without colour codes.
process.env.NO_COLOR = '1';
const runs = Number(values.runs);
const load = Number(values.load);
const timeoutMs = Number(values['timeout-min']) * 60_000;
for (const [name, n] of [['--runs', runs], ['--load', load], ['--timeout-min', timeoutMs]]) {
  if (!Number.isSafeInteger(n) || n < 0 || (name !== '--load' && n === 0)) throw new TypeError(`${name} must be a positive whole number`);
}

/** The test files of the hunt: end-to-end (`*.e2e.test.ts`) and multi-process suites, by package folder. */
function suites() {
  const found = new Map();
  const walk = (dir, pkg) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'fixtures') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, pkg);
      else if (/(\.e2e\.test\.ts|multi-process.*\.test\.ts)$/.test(entry.name) && path.includes(values.filter)) {
        found.set(pkg, [...(found.get(pkg) ?? []), relative(pkg, path)]);
      }
    }
  };
  for (const group of ['packages', 'apps', 'tooling']) {
    for (const name of readdirSync(join(root, group))) {
      const pkg = join(root, group, name);
      if (existsSync(join(pkg, 'package.json'))) walk(pkg, pkg);
    }
  }
  return found;
}

/**
 * Runs vitest on `files` in `pkg` as the test command runs a task (test-run.mjs: its process group
 * killed past the bound); the failed tests' names and why (or the reason the run failed), read from
 * the JSON report every package's configuration writes (`test-results.json`).
 */
async function runPackage(pkg, files) {
  const report = join(pkg, 'test-results.json');
  rmSync(report, { force: true });
  let output = '';
  const keep = new Writable({
    write(chunk, _encoding, done) {
      output = (output + chunk).slice(-4000);
      done();
    },
  });
  const script = ['vitest', 'run', ...files.map((file) => `'${file}'`), '--reporter=dot', '--reporter=json'].join(' ');
  const status = await runScript({ name: relative(root, pkg), task: 'flake-hunt', dir: pkg, script }, { boundMs: timeoutMs, stdout: keep, stderr: keep });
  const failed = [];
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of r.testResults ?? []) {
      const where = relative(root, file.name);
      for (const t of file.assertionResults ?? []) if (t.status === 'failed') failed.push({ name: `${where} › ${t.fullName}`, why: why(t.failureMessages) });
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) failed.push({ name: `${where}: the file or a hook failed`, why: why(file.message ? [file.message] : []) });
    }
    rmSync(report, { force: true });
  }
  const errors = output.split('\n').filter((line) => /Error|FAIL|Unhandled|did not end within/.test(line)).slice(0, 5).join(' | ');
  if (failed.length === 0 && status !== 0) failed.push({ name: `${relative(root, pkg)}: vitest ended with exit ${status}: ${errors}`, why: '' });
  return failed;
}

const busy = Array.from({ length: load }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoad = () => busy.forEach((c) => c.kill('SIGKILL'));
process.on('exit', stopLoad);
process.on('SIGINT', () => process.exit(130));

const failures = new Map();
const plan = suites();
console.log(`flake hunt: ${runs} round(s), ${load} busy loop(s), ${[...plan.values()].flat().length} files in ${plan.size} packages`);
for (let round = 1; round <= runs; round++) {
  for (const [pkg, files] of plan) {
    const started = Date.now();
    const failed = await runPackage(pkg, files);
    console.log(`round ${round}: ${relative(root, pkg)}: ${failed.length === 0 ? 'passed' : `${failed.length} failed`} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    for (const { name, why: reason } of failed) {
      const seen = failures.get(name) ?? { rounds: [], why: [] };
      failures.set(name, { rounds: [...seen.rounds, round], why: [...seen.why, reason] });
    }
  }
}
stopLoad();
if (failures.size === 0) {
  console.log(`flake hunt: nothing failed in ${runs} round(s) under load`);
} else {
  console.log(`flake hunt: ${failures.size} test(s) failed at least once:`);
  for (const [name, { rounds, why: reasons }] of failures) {
    console.log(`  ${name} (round${rounds.length > 1 ? 's' : ''} ${rounds.join(', ')})`);
    for (const [i, text] of reasons.entries()) if (text !== '') console.log(`    round ${rounds[i]}:${text}`);
  }
  process.exitCode = 1;
}

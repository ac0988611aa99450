// The closing lines of the test command. Sums the vitest JSON reports of every workspace package
// and the outcome of every other task of the run (build, typecheck, lint, package checks, the
// dependency rules: from the builds' turbo run summary and from the statuses test-run.mjs writes),
// and prints one closing line:
// "tests: N passed, N failed, N skipped". Exits 1 when anything failed or no test ran.
//
// Honest by construction:
// - a test that did not run because its file or a `beforeAll` failed (a service missing, say) is
//   counted as failed, never as skipped;
// - a file that failed before any test was collected counts as one failed test;
// - a package whose test task wrote no report or failed with every test passing (an unhandled
//   error), and every other task that failed, count as one failure each and are named;
// - each skipped group is named with its file (optional groups carry their reason in their title);
// - each failed test is named with the first lines of its message, so that the closing lines alone
//   say why;
// - a run whose property tests ran the quick profile (a fifth of core's cases: a local run) says so
//   (packages/core/test/property-runs.ts).
//
//   node tooling/scripts/test-summary.mjs --reset   removes the reports of an earlier run
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const GROUPS = ['packages', 'apps', 'tooling'];

/** Every workspace package of packages/, apps/ and tooling/: its folder and manifest. */
export function workspacePackages() {
  const found = [];
  for (const group of GROUPS) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const manifest = join(dir, name, 'package.json');
      if (!existsSync(manifest)) continue;
      found.push({ folder: `${group}/${name}`, dir: join(dir, name), pkg: JSON.parse(readFileSync(manifest, 'utf8')) });
    }
  }
  return found;
}

/** How many lines of a failure's message the closing lines repeat (the whole message is in the log above). */
export const WHY_LINES = 12;

/** The first lines of a failed test's messages, indented under its name (none: ''). */
export function why(messages = []) {
  const lines = messages
    .join('\n')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, WHY_LINES)
    .map((line) => `      ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
  return lines.length === 0 ? '' : `\n${lines.join('\n')}`;
}

/** Sums one vitest JSON report. */
export function summariseReport(report, folder) {
  const out = { passed: 0, failed: 0, skipped: 0, failures: [], skips: new Map() };
  for (const file of report.testResults ?? []) {
    const where = `${folder}/${relative(join(root, folder), file.name)}`;
    const fileFailed = file.status === 'failed';
    const results = file.assertionResults ?? [];
    let notRun = 0;
    for (const test of results) {
      if (test.status === 'passed') out.passed++;
      else if (test.status === 'failed') {
        out.failed++;
        out.failures.push(`${where} › ${test.fullName}${why(test.failureMessages)}`);
      } else if (fileFailed) {
        // Not run because the file or a hook failed: a failure, not a skip.
        out.failed++;
        notRun++;
      } else {
        out.skipped++;
        const group = `${where} › ${test.ancestorTitles?.[0] ?? test.title}`;
        out.skips.set(group, (out.skips.get(group) ?? 0) + 1);
      }
    }
    if (fileFailed && results.every((t) => t.status !== 'failed')) {
      if (results.length === 0) out.failed++;
      const reason = (file.message ?? '').split('\n').find((line) => line.trim() !== '') ?? 'a hook or the file itself failed';
      out.failures.push(`${where}: ${results.length === 0 ? 'no test collected' : `${notRun} tests not run`} (${reason.trim()})`);
    }
  }
  return out;
}

/**
 * One package's report summed, knowing whether its test task failed: a task that failed with every
 * test passing (an unhandled error, say, which vitest's report does not record) counts as one failure.
 */
export function summarisePackage(report, folder, taskFailed) {
  const r = summariseReport(report, folder);
  if (taskFailed && r.failed === 0) {
    r.failed = 1;
    r.failures.push(`${folder}: its test run failed though every test passed (an unhandled error, say: see its output above)`);
  }
  return r;
}

/** Where test-run.mjs writes the exit status of every task it ran itself (all but the builds). */
export const TASKS_FILE = join(root, 'node_modules', '.cache', 'smsv4-test-tasks.json');

/**
 * The failed tasks of the run started at `since` (ms): from every turbo run summary written since
 * (the builds'), and from the statuses test-run.mjs wrote since (every other task); undefined when
 * neither holds anything of this run.
 */
export function failedTasks(since, dir = join(root, '.turbo', 'runs'), tasksFile = TASKS_FILE) {
  const lists = [];
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
      if (statSync(join(dir, f)).mtimeMs >= since) lists.push(JSON.parse(readFileSync(join(dir, f), 'utf8')).tasks?.map((t) => ({ taskId: t.taskId, exitCode: t.execution?.exitCode })));
    }
  }
  if (existsSync(tasksFile) && statSync(tasksFile).mtimeMs >= since) lists.push(JSON.parse(readFileSync(tasksFile, 'utf8')).tasks);
  if (lists.length === 0) return undefined;
  const failed = new Set();
  for (const { taskId, exitCode } of lists.flatMap((tasks) => tasks ?? [])) if (exitCode !== undefined && exitCode !== 0 && exitCode !== null) failed.add(taskId);
  return [...failed].sort();
}

const STAMP = join(root, 'node_modules', '.cache', 'smsv4-test-run');

function reset() {
  for (const { dir } of workspacePackages()) rmSync(join(dir, 'test-results.json'), { force: true });
  rmSync(STAMP, { force: true });
  rmSync(TASKS_FILE, { force: true });
  // The stamp marks the start of the run: turbo's summaries older than it are an earlier run's.
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  writeFileSync(STAMP, String(Date.now()));
}

/**
 * The profile of core's property tests in this run, as packages/core/test/property-runs.ts decides
 * it: `SMSV4_PROPERTY_RUNS` when set, else full when `CI` is set (not `false` or `0`), else quick.
 */
export function propertyProfile(env = process.env) {
  const chosen = env.SMSV4_PROPERTY_RUNS?.trim().toLowerCase();
  if (chosen === 'full' || chosen === 'quick') return chosen;
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0' ? 'full' : 'quick';
}

/** The line that names a quick profile (none for the full one). */
export function profileLine(profile = propertyProfile()) {
  return profile === 'quick' ? 'property tests: quick profile, a fifth of the cases of core\'s properties (SMSV4_PROPERTY_RUNS=full runs them all, as CI does)' : undefined;
}

function main() {
  if (process.argv.includes('--reset')) return reset();
  const since = existsSync(STAMP) ? Number(readFileSync(STAMP, 'utf8')) : 0;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const lines = [];
  const failures = [];
  const skips = [];
  const tasks = failedTasks(since) ?? [];
  for (const { folder, dir, pkg } of workspacePackages()) {
    if (pkg.scripts?.test === undefined) continue;
    const file = join(dir, 'test-results.json');
    if (!existsSync(file) || statSync(file).mtimeMs < since) {
      failed++;
      failures.push(`${folder}: no test report (its test task did not run to the end)`);
      lines.push(`  ${folder}: no report`);
      continue;
    }
    const r = summarisePackage(JSON.parse(readFileSync(file, 'utf8')), folder, tasks.includes(`${pkg.name}#test`));
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    failures.push(...r.failures);
    for (const [group, count] of r.skips) skips.push(`${group} (${count})`);
    lines.push(`  ${folder}: ${r.passed} passed, ${r.failed} failed${r.skipped > 0 ? `, ${r.skipped} skipped` : ''}`);
  }
  // A failed test task is already counted by its tests (or above); every other failed task counts once.
  for (const task of tasks.filter((t) => !t.endsWith('#test'))) {
    failed++;
    failures.push(`task ${task} failed`);
  }
  console.log(lines.join('\n'));
  if (skips.length > 0) console.log(`skipped groups:\n${skips.map((s) => `  ${s}`).join('\n')}`);
  if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  const profile = profileLine();
  if (profile !== undefined) console.log(profile);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main();

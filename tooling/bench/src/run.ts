/**
 * Runs every benchmark suite and prints the results; with `--write`, also rewrites BENCHMARKS.md at
 * the repository root. Usage: `npx -y pnpm@10.34.8 --filter @smsv4/bench bench:write` (after a build).
 * `--only <id>` runs one suite.
 */
import { cpus } from 'node:os';
import { runSuite, type SuiteResult } from './harness.js';
import { writeReportBlock } from './report-file.js';
import { suites } from './suites.js';

const COMMAND = 'npx -y pnpm@10.34.8 build && npx -y pnpm@10.34.8 --filter @smsv4/bench bench:write';
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const write = args.includes('--write');

const fmt = (n: number, digits = 2): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function section(r: SuiteResult): string {
  const { suite } = r;
  const wanted = suite.target.kind === 'max-time-ratio' ? `at most ${suite.target.value}× the baseline's time` : `at least ${suite.target.value}× the baseline's speed`;
  const rows = [r.baseline, ...r.subjects].map(
    (t, i) => `| ${i === 0 ? `${t.name} (baseline)` : t.name} | ${fmt(t.msPerCall * 1000, 1)} µs | ${fmt(t.itemsPerSecond, 0)} ${suite.itemName}/s | ${fmt(t.msPerCall / r.baseline.msPerCall)}× |`,
  );
  return [
    `## ${suite.title}`,
    '',
    `Target: ${suite.target.subject} ${wanted}. Measured: **${fmt(r.ratio)}×**: ${r.met ? 'met' : '**not met**'}.`,
    '',
    `| task | median per call (${suite.items} ${suite.itemName}) | rate | time vs baseline |`,
    '|---|---|---|---|',
    ...rows,
    ...(r.notes.length ? ['', ...r.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}

const selected = suites.filter((s) => !only || s.id === only);
const results: SuiteResult[] = [];
for (const suite of selected) {
  const r = await runSuite(suite);
  results.push(r);
  console.log(section(r));
}

if (write) {
  const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}`;
  for (const r of results) {
    writeReportBlock(r.suite.id, `${section(r)}\nCommand: \`${COMMAND} --only ${r.suite.id}\` (all suites: without \`--only\`). ${machine}.\n`);
  }
  console.log('BENCHMARKS.md updated');
}
if (results.some((r) => !r.met)) process.exitCode = 1;

/**
 * Runs every benchmark suite and prints the results; with `--write`, also rewrites the suites'
 * sections and summary rows in BENCHMARKS.md at the repository root. Usage:
 * `npx -y pnpm@10.34.8 --filter @smsv4/bench bench:write` (after a build). `--only <id>[,<id>...]`
 * runs some suites; `--rounds <n>` and `--round-ms <ms>` change the measurement (default 10 × 300 ms).
 */
import { cpus, loadavg } from 'node:os';
import { runSuite, type SuiteResult } from './harness.js';
import { writeReportBlock, writeSummaryRow } from './report-file.js';
import { suites } from './suites.js';

const COMMAND = 'npx -y pnpm@10.34.8 build && npx -y pnpm@10.34.8 --filter @smsv4/bench bench:write';
const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option('--only')?.split(',');
const rounds = Number(option('--rounds') ?? 10);
const roundMs = Number(option('--round-ms') ?? 300);
const write = args.includes('--write');

const fmt = (n: number, digits = 2): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function wanted(r: SuiteResult): string {
  const { target } = r.suite;
  return target.kind === 'max-time-ratio' ? `≤ ${target.value}× the baseline's time` : `≥ ${target.value}× the baseline's speed`;
}

function section(r: SuiteResult, command: string): string {
  const { suite } = r;
  const rows = [r.baseline, ...r.subjects].map((t, i) =>
    i === 0
      ? `| ${t.name} (baseline) | ${fmt(t.msPerCall * 1000, 1)} µs | ${fmt(t.itemsPerSecond, 0)} ${suite.itemName}/s | 1.00× | |`
      : `| ${t.name} | ${fmt(t.msPerCall * 1000, 1)} µs | ${fmt(t.itemsPerSecond, 0)} ${suite.itemName}/s | ${fmt(t.timeRatio)}× | ${fmt(t.timeRatioMin)}–${fmt(t.timeRatioMax)}× |`,
  );
  const speed = suite.target.kind === 'min-speed-ratio' ? ` (speed; time ratio ${fmt(1 / r.ratio)}×)` : '';
  return [
    `## ${suite.title}`,
    '',
    `Target: ${suite.target.subject} ${wanted(r)}. Measured: **${fmt(r.ratio)}×**${speed}, rounds from ${fmt(r.ratioWorst)}× to ${fmt(r.ratioBest)}×: ${r.met ? 'met' : '**not met**'}.`,
    '',
    `| task | median per call (${suite.items} ${suite.itemName}) | rate | time vs baseline (median of ${r.rounds} rounds) | range over rounds |`,
    '|---|---|---|---|---|',
    ...rows,
    ...(r.notes.length ? ['', ...r.notes.map((n) => `- ${n}`)] : []),
    '',
    `Command: \`${command}\`. Baseline and subjects are called in turn, one batch each, for ${r.rounds} rounds of ${roundMs} ms after a warm-up; each round gives a ratio of medians, the figure is the median of the rounds.`,
  ].join('\n');
}

const selected = suites.filter((s) => !only || only.includes(s.id));
const results: SuiteResult[] = [];
const load = loadavg()[0] ?? 0;
for (const suite of selected) {
  const r = await runSuite(suite, { rounds, roundMs });
  results.push(r);
  console.log(`${section(r, `${COMMAND} --only ${suite.id}`)}\n`);
}

if (write) {
  const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average ${fmt(load, 1)} at start, ${new Date().toISOString().slice(0, 10)}`;
  for (const r of results) {
    const command = `${COMMAND} --only ${r.suite.id}${rounds === 10 ? '' : ` --rounds ${rounds}`}${roundMs === 300 ? '' : ` --round-ms ${roundMs}`}`;
    writeReportBlock(r.suite.id, `${section(r, command)} ${machine}.\n`);
    writeSummaryRow({
      path: r.suite.path,
      baseline: r.suite.baseline.name,
      ratio: `${fmt(r.ratio)}×${r.suite.target.kind === 'min-speed-ratio' ? ' speed' : ' time'}`,
      target: r.suite.target.kind === 'max-time-ratio' ? `≤ ${r.suite.target.value}× time` : `≥ ${r.suite.target.value}× speed`,
      met: r.met,
      command,
    });
  }
  console.log('BENCHMARKS.md updated');
}
if (results.some((r) => !r.met)) process.exitCode = 1;

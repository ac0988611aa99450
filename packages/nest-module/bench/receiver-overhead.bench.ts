/**
 * Benchmark of the webhook controller: sustained receipts per second over keep-alive HTTP on
 * loopback, against two baselines measured in the same run, in the same Nest 11 application:
 * a bare Nest controller that only answers 200 (what any Nest route costs), and
 * @smsv4/express-webhooks' middleware mounted with `app.use` (the same core receiver without Nest's
 * routing, guards and controller). The server runs in a child process, the client (undici) in this
 * one. Paths alternate in every round; each run is bounded in time and count. Every receipt is
 * unique (ticket ID and part), 1 in 20 is sent twice: each receiver must handle each unique receipt
 * exactly once and answer every request 200.
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/nest-module bench
 *   npx -y pnpm@10.34.8 --filter @smsv4/nest-module bench -- --seconds 1 --rounds 2 --dry-run
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { callbackHeaders, createReceiptLoad, type ReceiptLoad } from '@smsv4/testing';
import { Pool } from 'undici';
import { writeReportBlock, writeSummaryRow } from '../../../tooling/bench/src/report-file.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    'max-requests': { type: 'string', default: '200000' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const maxRequests = Number(values['max-requests']);
if (!(seconds > 0 && rounds > 0 && connections > 0 && maxRequests > 0)) throw new TypeError('--seconds, --rounds, --connections and --max-requests must be positive');

const here = dirname(fileURLToPath(import.meta.url));
const headers = callbackHeaders('xml', { userAgent: 'smsv4-bench' });

type Receiver = 'nest' | 'express';
interface Stats {
  readonly handled: Record<Receiver, number>;
  readonly doubles: Record<Receiver, number>;
  readonly duplicates: Record<Receiver, number>;
  readonly cpuMicros: number;
}
interface Round {
  readonly requests: number;
  readonly failed: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuPerRequest: number;
}

// tsconfig.test.json covers bench/: tsx then compiles the server's decorators as Nest needs them (legacy).
const worker = fork(join(here, 'receiver-server.ts'), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, TSX_TSCONFIG_PATH: join(here, '..', 'tsconfig.test.json') } });
const url = await new Promise<string>((resolve, reject) => {
  worker.once('error', reject);
  worker.once('message', (m) => resolve((m as { url: string }).url));
});
const stats = (): Promise<Stats> =>
  new Promise((resolve) => {
    worker.once('message', (m) => resolve(m as Stats));
    worker.send({ kind: 'stats' });
  });
const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });

/** Sends for `seconds` (at most `maxRequests`) from `connections` concurrent loops. */
async function load(path: string, body: (i: number) => string): Promise<Round> {
  const cpuBefore = (await stats()).cpuMicros;
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let failed = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline && next < maxRequests) {
      const i = next++;
      const t0 = performance.now();
      try {
        const response = await pool.request({ method: 'POST', path, headers, body: body(i) });
        await response.body.dump();
        if (response.statusCode !== 200) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = (await stats()).cpuMicros;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: next, failed, perSecond: next / elapsed, p50: at(0.5), p99: at(0.99), cpuPerRequest: (cpuAfter - cpuBefore) / next };
}

/** The receipts of a run (9 parts a ticket): request i is a fresh receipt, or (i % 20 === 1) request i-1's again. */
const loads = new Map<string, ReceiptLoad>();
const receipts = (run: string): ReceiptLoad => {
  let receiptLoad = loads.get(run);
  if (receiptLoad === undefined) loads.set(run, (receiptLoad = createReceiptLoad({ run: `${run}NEST`, deliveredAt: Date.UTC(2024, 2, 31, 10, 15, 2, 114) })));
  return receiptLoad;
};
const receipt = (run: string, i: number): string => receipts(run).body(i);
const sentTwice = (requests: number): number => receipts('any').repeats(requests);

const PATHS = { bare: '/bare', nest: '/sms/callbacks', express: '/express' } as const;
type Path = keyof typeof PATHS;
const measured: Record<Path, Round[]> = { bare: [], nest: [], express: [] };
const expected = { nest: { unique: 0, twice: 0 }, express: { unique: 0, twice: 0 } };
const record = (receiver: Receiver, round: Round): void => {
  expected[receiver].unique += round.requests - sentTwice(round.requests);
  expected[receiver].twice += sentTwice(round.requests);
};

// Warm-up (not reported; its receipts are counted in the checks).
await load(PATHS.bare, (i) => receipt('WBARE', i));
record('nest', await load(PATHS.nest, (i) => receipt('WNEST', i)));
record('express', await load(PATHS.express, (i) => receipt('WEXPR', i)));
for (let round = 1; round <= rounds; round++) {
  // The order turns each round, so that no path always follows the same one.
  const order: Path[] = (['bare', 'nest', 'express'] as const).map((_, k, all) => all[(k + round) % 3] as Path);
  for (const path of order) {
    const r = await load(PATHS[path], (i) => receipt(`R${round}${path.slice(0, 2).toUpperCase()}`, i));
    measured[path].push(r);
    if (path !== 'bare') record(path, r);
  }
}
const final = await stats();
await pool.close();
await new Promise<void>((resolve) => {
  worker.once('exit', () => resolve());
  worker.send({ kind: 'close' });
});

const median = (list: number[]): number => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const best = (list: Round[]): Round => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const ratio = (path: Path, base: Path): number => median(measured[path].map((r, k) => r.perSecond / (measured[base][k]?.perSecond ?? 1)));
const cpu = (path: Path): number => median(measured[path].map((r) => r.cpuPerRequest));

let failedChecks = 0;
const checks = (['nest', 'express'] as const).map((receiver) => {
  const lost = expected[receiver].unique - final.handled[receiver];
  const refused = [...measured[receiver]].reduce((sum, r) => sum + r.failed, 0);
  if (lost !== 0 || final.doubles[receiver] !== 0 || refused !== 0 || final.duplicates[receiver] !== expected[receiver].twice) failedChecks++;
  return `| ${receiver === 'nest' ? 'webhook controller' : 'express-webhooks middleware'} | ${fmt(expected[receiver].unique)} | ${lost} | ${final.doubles[receiver]} | ${fmt(final.duplicates[receiver])} of ${fmt(expected[receiver].twice)} | ${refused} |`;
});

const row = (label: string, path: Path): string => {
  const b = best(measured[path]);
  const r = path === 'bare' ? '100 %' : `**${(ratio(path, 'bare') * 100).toFixed(0)} %**`;
  return `| ${label} | ${fmt(b.perSecond)} | ${r} | ${cpu(path).toFixed(0)} | ${median(measured[path].map((x) => x.p50)).toFixed(2)} / ${median(measured[path].map((x) => x.p99)).toFixed(2)} |`;
};

const report = `## Nest webhook controller: sustained receipts per second

\`npx -y pnpm@10.34.8 --filter @smsv4/nest-module bench\` (${rounds} rounds of ${seconds} s per path, ${connections} keep-alive
connections, undici client in one process, the Nest 11 application (Express platform, default body
parsers) in another; ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}). Each request is a unique XML delivery receipt
(ticket ID and part), 1 in 20 sent twice. Three routes of the same application, measured in turn in
every round: a bare Nest controller that only answers 200 (the baseline: what any Nest route costs),
this package's webhook controller, and @smsv4/express-webhooks' middleware mounted with \`app.use\`
(the same core receiver, without Nest's router, guard and controller). Ratios are medians over the
rounds of the rates measured back to back; CPU is the server process's CPU time per request. The
machine is shared (2 cores, other work running), so single rounds vary. The target: the webhook
controller at least 85 % of the bare route's rate.

| route | best round (req/s) | rate / bare Nest route, median | server CPU per request (µs, median) | p50 / p99 (ms, median) |
|---|---:|---:|---:|---:|
${row('bare Nest controller (baseline)', 'bare')}
${row('webhook controller (this package)', 'nest')}
${row('express-webhooks middleware in the same app', 'express')}

Webhook controller / express-webhooks middleware, median of rounds: **${(median(measured.nest.map((r, k) => r.perSecond / (measured.express[k]?.perSecond ?? 1))) * 100).toFixed(0)} %** of the rate.

| receiver | unique receipts | lost | double-handled | duplicates answered 200 | refused |
|---|---:|---:|---:|---:|---:|
${checks.join('\n')}
`;

console.log(report);
const TARGET = 0.85;
if (!values['dry-run']) {
  writeReportBlock('nest-module-receiver', report);
  const nestRatio = ratio('nest', 'bare');
  writeSummaryRow({
    path: 'Nest webhook controller, sustained receipts',
    baseline: 'bare Nest route (same app), interleaved',
    ratio: `${(nestRatio * 100).toFixed(0)} % of the rate; CPU per request ${cpu('bare').toFixed(0)} / ${cpu('nest').toFixed(0)} µs (${((cpu('bare') / cpu('nest')) * 100).toFixed(0)} %)`,
    target: `≥ ${TARGET * 100} % of the rate`,
    met: nestRatio >= TARGET,
    command: 'npx -y pnpm@10.34.8 --filter @smsv4/nest-module... build && npx -y pnpm@10.34.8 --filter @smsv4/nest-module bench',
  });
}
if (failedChecks > 0) {
  console.error('receipts were lost, handled twice or refused');
  process.exit(1);
}

/**
 * Load test of the receiver: sustained receipts per second over keep-alive HTTP on loopback,
 * against a bare Express handler that only answers 200, measured in the same run on the same app.
 * The server runs in a child process (one core), the client (undici) in this one (the other).
 * Runs alternate bare / receiver, several rounds, each bounded in time and count; the best round of
 * each counts. Every receipt is unique (ticket ID and part), and 1 in 20 is sent twice: the
 * receiver must handle each unique receipt exactly once (zero lost, zero double-handled) and answer
 * every request 200.
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench
 *   npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench -- --seconds 2 --rounds 2 --dry-run
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fork, type ChildProcess } from 'node:child_process';
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
const headers = callbackHeaders('xml', { userAgent: 'smsv4-load' });

interface Stats {
  readonly handled: number;
  readonly doubles: number;
  readonly duplicates: number;
  /** CPU time the server process has used so far, in microseconds. */
  readonly cpuMicros: number;
}

interface Round {
  readonly requests: number;
  readonly ok: number;
  readonly failed: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Server CPU time per request, microseconds. */
  readonly cpuPerRequest: number;
}

function startServer(major: 4 | 5): Promise<{ url: string; worker: ChildProcess; stats(): Promise<Stats>; close(): Promise<void> }> {
  const worker = fork(join(here, 'receiver-server.ts'), [String(major)], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m) => {
      const message = m as { kind: string; url: string };
      resolve({
        url: message.url,
        worker,
        stats: () =>
          new Promise((res) => {
            worker.once('message', (m) => res(m as Stats));
            worker.send({ kind: 'stats' });
          }),
        close: () =>
          new Promise((res) => {
            worker.once('exit', () => res());
            worker.send({ kind: 'close' });
          }),
      });
    });
  });
}

/** Sends for `seconds` (at most `maxRequests`) from `connections` concurrent loops; `body(i)` gives request i's body. */
async function load(pool: Pool, server: { stats(): Promise<Stats> }, path: string, body: (i: number) => string): Promise<Round> {
  const cpuBefore = (await server.stats()).cpuMicros;
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let ok = 0;
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
        if (response.statusCode === 200) ok++;
        else failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = (await server.stats()).cpuMicros;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: next, ok, failed, perSecond: next / elapsed, p50: at(0.5), p99: at(0.99), cpuPerRequest: (cpuAfter - cpuBefore) / next };
}

const best = (list: Round[]): Round => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

interface Measured {
  readonly bare: Round;
  readonly receiver: Round;
  /** Median over the rounds of receiver rate / bare rate, each pair measured back to back. */
  readonly medianRatio: number;
  readonly bareCpu: number;
  readonly receiverCpu: number;
  readonly stats: Stats;
  readonly unique: number;
  readonly sentTwice: number;
  readonly lines: string[];
}

async function measure(major: 4 | 5): Promise<Measured> {
  const server = await startServer(major);
  const pool = new Pool(server.url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  // Each round of the receiver gets fresh ticket IDs (9 parts each); request i repeats request i-1's receipt when i % 20 === 1.
  const loads = new Map<number, ReceiptLoad>();
  const receipts = (round: number): ReceiptLoad => {
    let receiptLoad = loads.get(round);
    if (receiptLoad === undefined) loads.set(round, (receiptLoad = createReceiptLoad({ run: `LOAD${round}M${major}`, deliveredAt: Date.UTC(2024, 2, 31, 10, 15, 2, 114) })));
    return receiptLoad;
  };
  // Warm-up (not counted).
  await load(pool, server, '/bare', (i) => receipts(0).body(i));
  const warm = await load(pool, server, '/receiver', (i) => receipts(0).body(i));
  let unique = receipts(0).unique(warm.requests);
  let sentTwice = receipts(0).repeats(warm.requests);
  const bare: Round[] = [];
  const receiver: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    bare.push(await load(pool, server, '/bare', (i) => receipts(1000 + round).body(i)));
    const r = await load(pool, server, '/receiver', (i) => receipts(round).body(i));
    receiver.push(r);
    unique += receipts(round).unique(r.requests);
    sentTwice += receipts(round).repeats(r.requests);
  }
  const stats = await server.stats();
  await pool.close();
  await server.close();
  const lines = receiver.map((r, k) => `| ${major} | ${k + 1} | ${fmt(bare[k]?.perSecond ?? 0)} | ${fmt(r.perSecond)} | ${((r.perSecond / (bare[k]?.perSecond ?? 1)) * 100).toFixed(0)} % | ${(bare[k]?.cpuPerRequest ?? 0).toFixed(0)} / ${r.cpuPerRequest.toFixed(0)} |`);
  return {
    bare: best(bare),
    receiver: best(receiver),
    medianRatio: median(receiver.map((r, k) => r.perSecond / (bare[k]?.perSecond ?? 1))),
    bareCpu: median(bare.map((r) => r.cpuPerRequest)),
    receiverCpu: median(receiver.map((r) => r.cpuPerRequest)),
    stats,
    unique,
    sentTwice,
    lines,
  };
}

const results = [];
for (const major of [4, 5] as const) results.push({ major, ...(await measure(major)) });

let failedChecks = 0;
const rows: string[] = [];
for (const { major, bare, receiver, medianRatio, bareCpu, receiverCpu, stats, unique, sentTwice } of results) {
  const lost = unique - stats.handled;
  if (lost !== 0 || stats.doubles !== 0 || receiver.failed !== 0 || stats.duplicates !== sentTwice) failedChecks++;
  rows.push(
    `| Express ${major} | ${fmt(bare.perSecond)} | ${fmt(receiver.perSecond)} | **${(medianRatio * 100).toFixed(0)} %** | ${bareCpu.toFixed(0)} / ${receiverCpu.toFixed(0)} (${((bareCpu / receiverCpu) * 100).toFixed(0)} %) | ${receiver.p50.toFixed(2)} / ${receiver.p99.toFixed(2)} | ${fmt(unique)} | ${lost} | ${stats.doubles} | ${fmt(stats.duplicates)} of ${fmt(sentTwice)} |`,
  );
}

const report = `## Express receiver: sustained receipts per second

\`npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench\` (${rounds} rounds of ${seconds} s per path, ${connections} keep-alive
connections, undici client in one process, the Express app in another; ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}).
Each request is a unique XML delivery receipt (ticket ID and part), 1 in 20 sent twice. The baseline is
\`app.post('/bare', (req, res) => res.sendStatus(200))\` on the same app, and the receiver is mounted the same
way (\`app.post('/receiver', receiver)\`), measured in alternation with it; the ratio is the median over the
rounds of the two rates measured back to back, and the CPU column the server process's CPU time per
request (the rate it allows when the server is CPU-bound). The target is at least 90 % of the baseline's rate. The machine is shared (2 cores, other work running),
so single rounds vary; the per-round table shows how much.

| app | bare handler, best round (req/s) | receiver, best round (req/s) | receiver / bare, median of rounds | server CPU per request, bare / receiver (µs, median) | receiver p50 / p99 (ms) | unique receipts | lost | double-handled | duplicates answered 200 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Per round:

| Express | round | bare (req/s) | receiver (req/s) | ratio | CPU per request, bare / receiver (µs) |
|---|---:|---:|---:|---:|---:|
${results.flatMap((r) => r.lines).join('\n')}
`;

console.log(report);
const TARGET = 0.9;
if (!values['dry-run']) {
  writeReportBlock('express-webhooks-load', report);
  for (const { major, medianRatio, bareCpu, receiverCpu } of results) {
    writeSummaryRow({
      path: `Express ${major} receiver, sustained receipts`,
      baseline: 'bare handler (same app), interleaved',
      ratio: `${(medianRatio * 100).toFixed(0)} % of the rate; CPU per request ${bareCpu.toFixed(0)} / ${receiverCpu.toFixed(0)} µs (${((bareCpu / receiverCpu) * 100).toFixed(0)} %)`,
      target: `≥ ${TARGET * 100} % of the rate`,
      met: medianRatio >= TARGET,
      command: 'npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks... build && npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench',
    });
  }
}
if (failedChecks > 0) {
  console.error('receipts were lost, handled twice or refused');
  process.exit(1);
}

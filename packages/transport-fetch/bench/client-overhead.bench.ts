/**
 * Client overhead per send: `client.send(mt)` (validation, building, timeout, body reading, parsing
 * of the answer, all of core's work included) against a bare `fetch` of the same request prepared
 * once, both over loopback to the same server in another process. Calls of the two alternate one by
 * one, so both meet the same machine load; the figures are medians over every call.
 *
 * Two servers: the sandbox (authenticates, validates and stores each send, as a service does), on
 * which the target is judged, and an instant server answering 202 at once, which shows the client's
 * whole cost as a share of the bare round trip.
 *
 * Run (after building core, the sandbox and this package, since the built client is measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch bench` (`bench:write` also rewrites the block in BENCHMARKS.md).
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { buildSendRequest, type MtRequest } from '@smsv4/core';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import { createClient } from '../dist/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 6000);
const WARMUP = 1500;
const TARGET = 1.1;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch... build && npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch bench:write';

const mt: MtRequest = {
  destination: { address: '14155550100' },
  source: { address: '14155550199', ton: 1 },
  message: { type: 'text', content: 'Your order 1234 has shipped. Reply STOP to opt out.' },
  delivery: { receiptRequested: 'final' },
};
const credentials = { accountId: 'sandbox', password: 'sandbox-password' };

const child = fork(new URL('./loopback-servers.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
const urls = await new Promise<{ instant: string; sandbox: string }>((resolve, reject) => {
  child.once('message', (m) => resolve(m as { instant: string; sandbox: string }));
  child.once('error', reject);
});

interface Measured {
  readonly server: string;
  readonly bareUs: number;
  readonly timeoutUs: number;
  readonly clientUs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function measure(server: string, baseUrl: string): Promise<Measured> {
  const client = createClient({ baseUrl, ...credentials });
  const prepared = buildSendRequest({ endpoints: { baseUrl }, credentials }, mt, 'json');
  const bare = async (): Promise<void> => {
    const res = await fetch(prepared.url, { method: prepared.method, headers: prepared.headers, body: prepared.body });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`unexpected ${res.status}`);
  };
  // What a careful hand-written call adds: a timeout that cancels the request.
  const bareWithTimeout = async (): Promise<void> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    const res = await fetch(prepared.url, { method: prepared.method, headers: prepared.headers, body: prepared.body, signal: controller.signal });
    await res.arrayBuffer();
    clearTimeout(timer);
    if (res.status !== 202) throw new Error(`unexpected ${res.status}`);
  };
  const viaClient = async (): Promise<void> => {
    const sent = await client.send(mt);
    if (sent.ticketId === '') throw new Error('no ticket');
  };
  const tasks = [bare, bareWithTimeout, viaClient];
  for (let i = 0; i < WARMUP; i++) for (const task of tasks) await task();
  const samples: number[][] = tasks.map(() => []);
  for (let i = 0; i < CALLS; i++) {
    // Rotate the order so that no task always follows the same one.
    for (let k = 0; k < tasks.length; k++) {
      const index = (i + k) % tasks.length;
      const started = performance.now();
      await (tasks[index] as () => Promise<void>)();
      (samples[index] as number[]).push((performance.now() - started) * 1000);
    }
  }
  const [bareUs, timeoutUs, clientUs] = samples.map(median) as [number, number, number];
  return { server, bareUs, timeoutUs, clientUs };
}

const results = [await measure('sandbox', urls.sandbox), await measure('instant 202', urls.instant)];
child.disconnect();

const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const judged = results[0] as Measured;
const ratio = judged.clientUs / judged.bareUs;
const met = ratio <= TARGET;
const rows = results.flatMap((r) => [
  `| ${r.server} | bare \`fetch\` of the prepared request (baseline) | ${fmt(r.bareUs)} µs | 1.00× |`,
  `| ${r.server} | bare \`fetch\` + a cancelling timeout (\`AbortController\`) | ${fmt(r.timeoutUs)} µs | ${fmt(r.timeoutUs / r.bareUs, 3)}× |`,
  `| ${r.server} | \`client.send(mt)\` | ${fmt(r.clientUs)} µs | ${fmt(r.clientUs / r.bareUs, 3)}× (+${fmt(r.clientUs - r.bareUs)} µs) |`,
]);
const instantResult = results[1] as Measured;
const markdown = [
  '## transport-fetch: client overhead per send',
  '',
  `Target: \`client.send(mt)\` at most ${TARGET}× the time of a bare \`fetch\` of the same request prepared once, against the sandbox over loopback. Measured: **${fmt(ratio, 3)}×**: ${met ? 'met' : '**not met**'}.`,
  '',
  '| server | task | median per send | time vs baseline |',
  '|---|---|---|---|',
  ...rows,
  '',
  `- The client's work per send: validation, building (Basic authorization, URL, JSON body), a timeout that cancels the request, bounded body reading, parsing of the answer (ticket ID from \`Location\`), the retry bookkeeping. It costs ${fmt(instantResult.clientUs - instantResult.bareUs)} µs per send, ${fmt(instantResult.timeoutUs - instantResult.bareUs)} µs of which is the cancelling timeout alone (an \`AbortSignal\` handed to Node's \`fetch\`); against the instant server, whose answer costs nothing, that is ${fmt((instantResult.clientUs / instantResult.bareUs - 1) * 100, 0)} % of the bare round trip.`,
  `- Sequential sends over keep-alive loopback connections to servers in a child process; ${CALLS} calls of each task per server, interleaved one by one, after ${WARMUP} warm-up calls of each; medians over all calls.`,
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('transport-fetch-overhead', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;

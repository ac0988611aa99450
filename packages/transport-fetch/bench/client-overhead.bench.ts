/**
 * Client overhead per send: `client.send(mt)` (validation, building, timeout, body reading, parsing
 * of the answer, all of core's work included) against a bare `fetch` of the same request prepared
 * once, both over loopback to the same server in another process. Calls of the two alternate one by
 * one, so both meet the same machine load; the figures are medians over every call.
 *
 * Two servers: an instant server answering 202 at once (nothing hides the client's cost) and the
 * sandbox (authenticates, validates and stores each send, as a service does). The target holds when
 * it holds on both. A second pair of rows compares the client with a timeout against a bare `fetch`
 * with a cancelling timeout.
 *
 * Run (after building core, the sandbox and this package, since the built client is measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/transport-fetch bench` (`bench:write` also rewrites the block in BENCHMARKS.md).
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import * as otelApi from '@opentelemetry/api';
import { buildSendRequest, createTelemetry, type MtRequest } from '@smsv4/core';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import type * as Sources from '../src/index.js';

// The built client is measured (what users run); its types are those of the sources.
const { createClient } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

const CALLS = Number(process.env.BENCH_CALLS ?? 5000);
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
  readonly clientTimeoutUs: number;
  readonly clientTelemetryUs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function measure(server: string, baseUrl: string): Promise<Measured> {
  const client = createClient({ baseUrl, ...credentials });
  const clientWithTimeout = createClient({ baseUrl, ...credentials, timeoutMs: 30_000 });
  // The OpenTelemetry API is installed but no SDK registered: its providers are no-ops.
  const clientWithTelemetry = createClient({ baseUrl, ...credentials, telemetry: createTelemetry({ api: otelApi }) });
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
  const viaClientWithTimeout = async (): Promise<void> => {
    const sent = await clientWithTimeout.send(mt);
    if (sent.ticketId === '') throw new Error('no ticket');
  };
  const viaClientWithTelemetry = async (): Promise<void> => {
    const sent = await clientWithTelemetry.send(mt);
    if (sent.ticketId === '') throw new Error('no ticket');
  };
  const tasks = [bare, bareWithTimeout, viaClient, viaClientWithTimeout, viaClientWithTelemetry];
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
  const [bareUs, timeoutUs, clientUs, clientTimeoutUs, clientTelemetryUs] = samples.map(median) as [number, number, number, number, number];
  return { server, bareUs, timeoutUs, clientUs, clientTimeoutUs, clientTelemetryUs };
}

const results = [await measure('instant 202', urls.instant), await measure('sandbox', urls.sandbox)];
child.disconnect();

const fmt = (n: number, digits = 1): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const versus = (us: number, baseUs: number): string => `${fmt(us / baseUs, 3)}× (+${fmt(us - baseUs)} µs)`;
// The target holds on every server: the instant one is the strictest (its answer costs nothing).
const verdicts = results.map((r) => ({ server: r.server, ratio: r.clientUs / r.bareUs }));
const met = verdicts.every((v) => v.ratio <= TARGET);
const rows = results.flatMap((r) => [
  `| ${r.server} | bare \`fetch\` of the prepared request (baseline) | ${fmt(r.bareUs)} µs | 1.00× |`,
  `| ${r.server} | \`client.send(mt)\` (defaults) | ${fmt(r.clientUs)} µs | ${versus(r.clientUs, r.bareUs)} |`,
  `| ${r.server} | bare \`fetch\` + a cancelling timeout (\`AbortController\`) | ${fmt(r.timeoutUs)} µs | ${versus(r.timeoutUs, r.bareUs)} |`,
  `| ${r.server} | \`client.send(mt)\` with \`timeoutMs\` | ${fmt(r.clientTimeoutUs)} µs | ${versus(r.clientTimeoutUs, r.bareUs)}; ${fmt(r.clientTimeoutUs / r.timeoutUs, 3)}× the bare \`fetch\` with a timeout |`,
  `| ${r.server} | \`client.send(mt)\` with \`telemetry\` (the OpenTelemetry API, no SDK) | ${fmt(r.clientTelemetryUs)} µs | ${versus(r.clientTelemetryUs, r.bareUs)}; ${fmt(r.clientTelemetryUs / r.clientUs, 3)}× the defaults |`,
]);
const markdown = [
  '## transport-fetch: client overhead per send',
  '',
  `Target: \`client.send(mt)\` at most ${TARGET}× the time of a bare \`fetch\` of the same request prepared once, over loopback. Measured: ${verdicts.map((v) => `**${fmt(v.ratio, 3)}×** (${v.server})`).join(', ')}: ${met ? 'met' : '**not met**'}.`,
  '',
  '| server | task | median per send | time vs baseline |',
  '|---|---|---|---|',
  ...rows,
  '',
  "- `client.send(mt)` does on every send: validation (core), building the request (core: JSON body; the Authorization header and URL are prepared once per client), bounded body reading, parsing of the answer (core: ticket ID from `Location`), the retry and hook bookkeeping. A send has no timeout by default (a timeout leaves its outcome unknown); with `timeoutMs` the client also pays for a cancelling timeout, an `AbortSignal` handed to `fetch`, as hand-written code with a timeout does (third row of each server).",
  '- Servers run in a child process: an instant server that answers 202 with `Location` at once, where nothing hides the client\'s cost, and the sandbox, which authenticates, validates and stores each send as a service does.',
  `- Sequential sends over keep-alive loopback connections; ${CALLS} calls of each task per server, interleaved one by one so that every task meets the same machine load, after ${WARMUP} warm-up calls of each; medians over all calls.`,
  `- Telemetry: without the \`telemetry\` option the client does no telemetry work (one check per call). With core's \`createTelemetry({ api })\` and the OpenTelemetry API installed but no SDK registered, spans and instruments are the API's no-ops: ${results.map((r) => `${fmt(r.clientTelemetryUs / r.clientUs, 3)}× the defaults (${r.server})`).join(', ')}.`,
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('transport-fetch-overhead', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;

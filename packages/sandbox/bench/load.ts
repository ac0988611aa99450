/**
 * Load test of the sandbox over real HTTP: a few workers send over keep-alive connections for at
 * most ~8 seconds (or until N sends), every send asking for a receipt that a local receiver takes.
 * Reports sends per second, p50/p99 latency of the send, receipts delivered and lost, and writes
 * its block into BENCHMARKS.md.
 *
 *   pnpm --filter @smsv4/sandbox bench                       # 20 000 sends, 8 workers
 *   pnpm --filter @smsv4/sandbox bench --sends 5000 --workers 4 --seconds 5 --dry-run
 */
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { basicAuthorization, encodeMtRequest } from '@smsv4/core';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import { createSandbox } from '../src/index.js';

const args = process.argv.slice(2);
const { values } = parseArgs({
  // `pnpm bench -- --sends 5000` passes the `--` along.
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    sends: { type: 'string', default: '20000' },
    workers: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '8' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const total = Number(values.sends);
const workers = Number(values.workers);
const budgetMs = Number(values.seconds) * 1000;
if (!(total > 0 && workers > 0 && budgetMs > 0)) throw new TypeError('--sends, --workers and --seconds must be positive numbers');

// The receiver: counts receipts by ticket ID.
const receipts = new Map<string, number>();
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    const ticketId = /"ticketId":"([^"]+)"/.exec(body)?.[1] ?? 'unknown';
    receipts.set(ticketId, (receipts.get(ticketId) ?? 0) + 1);
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/receipts`;

// One simulated second per real millisecond: a receipt is due 1 ms after its send.
const sandbox = createSandbox({ timeScale: 1000, maxMessages: total + 1 });
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
const target = new URL('/sms/v4/mt', server.url);
const agent = new Agent({ keepAlive: true, maxSockets: workers });
const authorization = basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' });
const body = encodeMtRequest(
  { destination: { address: '14155550100' }, message: { type: 'text', content: 'Load test message' }, delivery: { receiptRequested: 'final', url: receiverUrl } },
  'json',
);

function send(): Promise<{ status: number; ticketId?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      target,
      { method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          const location = res.headers.location;
          resolve({ status: res.statusCode ?? 0, ...(location ? { ticketId: location.split('/').pop() as string } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const latencies: number[] = [];
const accepted = new Set<string>();
let issued = 0;
let failed = 0;
const loadAtStart = loadavg()[0] ?? 0;
const started = performance.now();
const deadline = started + budgetMs;
await Promise.all(
  Array.from({ length: workers }, async () => {
    while (issued < total && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      const res = await send();
      latencies.push(performance.now() - t0);
      if (res.status === 202 && res.ticketId !== undefined) accepted.add(res.ticketId);
      else failed++;
    }
  }),
);
const elapsedMs = performance.now() - started;

// Wait for the last receipts (at most 10 s more).
const waitUntil = performance.now() + 10_000;
while (receipts.size < accepted.size && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
const delivered = [...accepted].filter((id) => receipts.has(id)).length;
const duplicates = [...receipts.values()].filter((n) => n > 1).length;
const lost = accepted.size - delivered;

latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const rate = (latencies.length / elapsedMs) * 1000;

agent.destroy();
await server.close();
await sandbox.close();
await new Promise<void>((resolve) => receiver.close(() => resolve()));

const lines = [
  '## Sandbox load test',
  '',
  `Command: \`npx -y pnpm@10.34.8 --filter @smsv4/sandbox bench --sends ${total} --workers ${workers}\` (Node ${process.version}, ${cpus().length} CPUs, load average ${loadAtStart.toFixed(1)} at start).`,
  'JSON sends over keep-alive HTTP on loopback, each asking for a receipt posted to a local receiver; the sandbox runs',
  'at `timeScale: 1000`, so every receipt is due 1 ms after its send. Client, sandbox and receiver share one process.',
  '',
  '| sends | workers | duration | sends/s | p50 latency | p99 latency | rejected | receipts delivered | lost | duplicates |',
  '|---|---|---|---|---|---|---|---|---|---|',
  `| ${latencies.length} | ${workers} | ${(elapsedMs / 1000).toFixed(2)} s | ${rate.toFixed(0)} | ${pct(50).toFixed(2)} ms | ${pct(99).toFixed(2)} ms | ${failed} | ${delivered} | ${lost} | ${duplicates} |`,
];
const report = lines.join('\n');
console.log(report);
if (!values['dry-run']) writeReportBlock('sandbox-load', report);
if (lost > 0 || failed > 0) process.exitCode = 1;

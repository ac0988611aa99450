/**
 * Load test of the sandbox over real HTTP, every send asking for a receipt that a local receiver
 * takes (client, sandbox and receiver in one process, keep-alive connections on loopback).
 *
 * Throughput (default): rounds alternate the sandbox and a bare baseline server (Node's HTTP server
 * answering 202 with a Location and posting a fixed receipt 1 ms later with Node's HTTP client: the
 * least a service emulator can do), the same client and receiver against both, so that machine load
 * meets both alike. Per round: sends per second, the process's CPU time per send, receipts
 * delivered, lost and doubled. Writes the `sandbox-load` block of BENCHMARKS.md and its summary row.
 *
 * Memory (`--rss <messages>`): sends that many messages to one sandbox with its default retention
 * (10 000 messages), sampling the process's RSS and heap twenty times, and writes the
 * `sandbox-memory` block.
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/sandbox bench                    # 5 rounds of 3 s each
 *   npx -y pnpm@10.34.8 --filter @smsv4/sandbox bench --rss 200000
 *   ... --rounds 3 --seconds 2 --workers 8 --dry-run
 */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { basicAuthorization, encodeMtRequest } from '@smsv4/core';
import { writeReportBlock, writeSummaryRow } from '../../../tooling/bench/src/report-file.js';
import { createSandbox } from '../src/index.js';

const args = process.argv.slice(2);
const { values } = parseArgs({
  // `pnpm bench -- --rounds 3` passes the `--` along.
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '8' },
    rss: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const roundMs = Number(values.seconds) * 1000;
const workers = Number(values.workers);
const rssMessages = values.rss === undefined ? undefined : Number(values.rss);
if (!(rounds > 0 && roundMs > 0 && workers > 0) || (rssMessages !== undefined && !(rssMessages > 0))) {
  throw new TypeError('--rounds, --seconds, --workers and --rss must be positive numbers');
}
const TARGET = 3000;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/sandbox... build && npx -y pnpm@10.34.8 --filter @smsv4/sandbox bench';

/**
 * What the receipts of a run came to, in memory bounded by the messages in flight (not by the run):
 * the tickets accepted and not yet receipted, the receipts that came before their 202 was read.
 */
const tally = { pending: new Set<string>(), early: new Set<string>(), delivered: 0, duplicates: 0 };
const seen = (ticketId: string): void => {
  if (tally.pending.delete(ticketId)) tally.delivered++;
  else if (tally.early.has(ticketId)) tally.duplicates++;
  else tally.early.add(ticketId);
};
const accepted = (ticketId: string): void => {
  if (tally.early.delete(ticketId)) tally.delivered++;
  else tally.pending.add(ticketId);
};

// The receiver: takes every receipt and counts it by ticket ID.
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    seen(/"ticketId":"([^"]+)"/.exec(body)?.[1] ?? 'unknown');
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/receipts`;

const authorization = basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' });
const body = encodeMtRequest(
  { destination: { address: '14155550100' }, message: { type: 'text', content: 'Load test message' }, delivery: { receiptRequested: 'final', url: receiverUrl } },
  'json',
);

/** The baseline: answers 202 with a Location at once and posts a fixed receipt 1 ms later. */
async function startBare(): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  let sequence = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const ticketId = `BARE-${++sequence}`;
      res.writeHead(202, { location: `/sms/v4/mt/${ticketId}`, 'x-request-id': `bare-${sequence}` }).end();
      setTimeout(() => {
        const receipt = JSON.stringify({ deliveryReceipt: { type: 'final', mtStatus: { ticketId, code: 4, description: 'Message delivered' } } });
        const post = httpRequest(receiverUrl, { method: 'POST', agent, headers: { 'content-type': 'application/json; charset=UTF-8', 'x-api-version': '4', 'content-length': Buffer.byteLength(receipt) } }, (r) => r.resume());
        post.on('error', () => undefined);
        post.end(receipt);
      }, 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Run {
  readonly sends: number;
  readonly ms: number;
  readonly cpuUsPerSend: number;
  readonly latencies: number[];
  readonly rejected: number;
  readonly delivered: number;
  readonly lost: number;
  readonly duplicates: number;
}

/** Sends for `ms` with `workers` concurrent clients, then waits for the receipts (10 s at most). */
async function load(base: string, ms: number, limit = Number.POSITIVE_INFINITY, onProgress?: (sent: number) => Promise<void>): Promise<Run> {
  const target = new URL('/sms/v4/mt', base);
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  const send = (): Promise<{ status: number; ticketId?: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(target, { method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          const location = res.headers.location;
          resolve({ status: res.statusCode ?? 0, ...(location ? { ticketId: location.split('/').pop() as string } : {}) });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  tally.pending.clear();
  tally.early.clear();
  tally.delivered = 0;
  tally.duplicates = 0;
  const latencies: number[] = [];
  let issued = 0;
  let rejected = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (issued < limit && performance.now() < deadline) {
        issued++;
        const t0 = performance.now();
        const res = await send();
        latencies.push(performance.now() - t0);
        if (res.status === 202 && res.ticketId !== undefined) accepted(res.ticketId);
        else rejected++;
        if (onProgress !== undefined && latencies.length % 1000 === 0) await onProgress(latencies.length);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const waitUntil = performance.now() + 10_000;
  while (tally.pending.size > 0 && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return {
    sends: latencies.length,
    ms: elapsed,
    // The receipts' CPU time counts too: it was spent before the wait ended.
    cpuUsPerSend: (used.user + used.system) / Math.max(1, latencies.length),
    latencies,
    rejected,
    delivered: tally.delivered,
    lost: tally.pending.size,
    duplicates: tally.duplicates + tally.early.size,
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const rate = (run: Run): number => (run.sends / run.ms) * 1000;
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const machine = (load: number): string => `Node ${process.version}, ${cpus().length} CPUs, load average ${load.toFixed(1)} at start, ${new Date().toISOString().slice(0, 10)}`;

if (rssMessages === undefined) {
  const loadAtStart = loadavg()[0] ?? 0;
  // One simulated second per real millisecond: a receipt is due 1 ms after its send.
  const sandbox = createSandbox({ timeScale: 1000 });
  const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const bare = await startBare();
  // Warm-up of both, long enough for the optimising compiler to finish with the sandbox's code even on a busy machine.
  for (let i = 0; i < 3; i++) {
    await load(server.url, 2000);
    await load(bare.url, 1000);
  }
  const rows: { sandbox: Run; bare: Run }[] = [];
  for (let round = 0; round < rounds; round++) {
    // The order alternates, so neither side always runs after the other.
    const first = round % 2 === 0 ? server.url : bare.url;
    const a = await load(first, roundMs);
    const b = await load(first === server.url ? bare.url : server.url, roundMs);
    rows.push(first === server.url ? { sandbox: a, bare: b } : { sandbox: b, bare: a });
  }
  await bare.close();
  await server.close();
  await sandbox.close();

  const ratios = rows.map((r) => rate(r.sandbox) / rate(r.bare));
  const sandboxRate = median(rows.map((r) => rate(r.sandbox)));
  const sandboxCpu = median(rows.map((r) => r.sandbox.cpuUsPerSend));
  const bareCpu = median(rows.map((r) => r.bare.cpuUsPerSend));
  const capacity = 1e6 / sandboxCpu;
  const lost = rows.reduce((n, r) => n + r.sandbox.lost, 0);
  const rejected = rows.reduce((n, r) => n + r.sandbox.rejected, 0);
  const duplicates = rows.reduce((n, r) => n + r.sandbox.duplicates, 0);
  const all = rows.flatMap((r) => r.sandbox.latencies).sort((a, b) => a - b);
  const pct = (p: number): number => all[Math.min(all.length - 1, Math.floor((p / 100) * all.length))] ?? 0;
  const met = sandboxRate >= TARGET;
  const lines = [
    '## Sandbox load test: sends with receipts flowing',
    '',
    `Command: \`${COMMAND}\` (${rounds} rounds of ${roundMs / 1000} s per server, ${workers} keep-alive client connections; ${machine(loadAtStart)}).`,
    'JSON sends over loopback, each asking for a receipt that a local receiver takes; the sandbox runs at `timeScale: 1000`, so every',
    'receipt is due 1 ms after its send. Client, server and receiver share one process. The baseline is a bare Node HTTP server that',
    'answers 202 with a Location and posts a fixed receipt 1 ms later (the least an emulator can do), measured in alternation with the',
    'sandbox. CPU per send is the process\'s CPU time (client, server and receiver together) over the sends of a round, receipts included;',
    '1 / CPU per send is the rate one core sustains, whatever else the machine runs.',
    '',
    `Target: at least ${fmt(TARGET)} sends/s with receipts flowing. Measured: **${fmt(sandboxRate)} sends/s** (median of rounds): ${met ? 'met' : '**not met**'}; CPU per send ${fmt(sandboxCpu)} µs, so ${fmt(capacity)} sends/s on one free core; **${fmt(median(ratios) * 100)} %** of the bare baseline's rate.`,
    '',
    '| round | sandbox sends/s | bare sends/s | sandbox / bare | CPU per send, sandbox / bare (µs) | receipts delivered | lost | duplicates |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${fmt(rate(r.sandbox))} | ${fmt(rate(r.bare))} | ${fmt((ratios[i] as number) * 100)} % | ${fmt(r.sandbox.cpuUsPerSend)} / ${fmt(r.bare.cpuUsPerSend)} | ${fmt(r.sandbox.delivered)} of ${fmt(r.sandbox.sends - r.sandbox.rejected)} | ${r.sandbox.lost} | ${r.sandbox.duplicates} |`,
    ),
    '',
    `Sandbox send latency over all rounds: p50 ${pct(50).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms; rejected ${rejected}, lost ${lost}, duplicates ${duplicates}. Bare CPU per send (median): ${fmt(bareCpu)} µs.`,
  ];
  const report = lines.join('\n');
  console.log(report);
  if (!values['dry-run']) {
    writeReportBlock('sandbox-load', report);
    writeSummaryRow({
      path: 'Sandbox sends with receipts flowing',
      baseline: 'bare Node server (202 + receipt), interleaved',
      ratio: `${fmt(sandboxRate)} sends/s (${fmt(median(ratios) * 100)} % of bare; ${fmt(capacity)}/s per free core)`,
      target: `≥ ${fmt(TARGET)} sends/s`,
      met,
      command: COMMAND,
    });
  }
  if (lost > 0 || rejected > 0 || duplicates > 0) process.exitCode = 1;
} else {
  const loadAtStart = loadavg()[0] ?? 0;
  const sandbox = createSandbox({ timeScale: 1000 });
  const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  // A full collection before each sample, so that the heap shows what is kept, not what awaits collection.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const samples: { sent: number; rss: number; heap: number }[] = [];
  const every = Math.max(1000, Math.round(rssMessages / 20 / 1000) * 1000);
  const sample = async (sent: number): Promise<void> => {
    if (sent % every !== 0) return;
    collect();
    const { rss, heapUsed } = process.memoryUsage();
    samples.push({ sent, rss, heap: heapUsed });
  };
  const started = performance.now();
  const run = await load(server.url, Number.POSITIVE_INFINITY, rssMessages, sample);
  const elapsed = performance.now() - started;
  await server.close();
  await sandbox.close();
  const mb = (bytes: number): string => fmt(bytes / 1024 / 1024, 1);
  const first = samples[0];
  const last = samples[samples.length - 1];
  const secondHalf = samples.slice(Math.floor(samples.length / 2));
  const growth = secondHalf.length > 1 ? ((secondHalf[secondHalf.length - 1] as (typeof samples)[number]).rss - (secondHalf[0] as (typeof samples)[number]).rss) / 1024 / 1024 : 0;
  const lines = [
    '## Sandbox memory over 200,000 messages',
    '',
    `Command: \`${COMMAND} --rss ${rssMessages}\` (${machine(loadAtStart)}). ${fmt(run.sends)} sends with receipts to one sandbox with its default retention`,
    `(the newest 10 000 messages, callback attempts and inbound messages, none older than five simulated days), ${workers} keep-alive client connections,`,
    `client, sandbox and receiver in one process (the bench keeps only the tickets in flight); ${fmt((run.sends / elapsed) * 1000)} sends/s on average, ${fmt(run.delivered)} receipts delivered, ${run.lost} lost, ${run.duplicates} doubled.`,
    `RSS and V8 heap of the whole process every ${fmt(every)} sends, each after a full garbage collection. RSS from the first sample to the last: ${mb(first?.rss ?? 0)} → ${mb(last?.rss ?? 0)} MB; over the second half: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB; heap kept: ${mb(first?.heap ?? 0)} → ${mb(last?.heap ?? 0)} MB.`,
    '',
    '| messages sent | RSS (MB) | heap kept (MB) |',
    '|---:|---:|---:|',
    ...samples.map((s) => `| ${fmt(s.sent)} | ${mb(s.rss)} | ${mb(s.heap)} |`),
  ];
  const report = lines.join('\n');
  console.log(report);
  // Flat: the heap kept over the second half of the run grows by less than a tenth.
  const half = secondHalf[0];
  const heapGrowth = half !== undefined && last !== undefined ? last.heap / half.heap - 1 : 0;
  if (!values['dry-run']) {
    writeReportBlock('sandbox-memory', report);
    writeSummaryRow({
      path: `Sandbox memory over ${fmt(rssMessages)} messages`,
      baseline: 'the same process halfway through',
      ratio: `heap kept ${mb(half?.heap ?? 0)} → ${mb(last?.heap ?? 0)} MB (${heapGrowth >= 0 ? '+' : ''}${(heapGrowth * 100).toFixed(0)} %), RSS ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB over the second half`,
      target: 'flat (heap kept +10 % at most over the second half)',
      met: heapGrowth <= 0.1,
      command: `${COMMAND} --rss ${rssMessages}`,
    });
  }
  if (run.lost > 0 || run.rejected > 0) process.exitCode = 1;
}

await new Promise<void>((resolve) => receiver.close(() => resolve()));

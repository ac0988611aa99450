/**
 * Benchmark of the Fastify receiver, and of core's receiver on Node's own `http` server, against
 * their decode floor: sustained receipts per second over keep-alive HTTP on loopback. Each server
 * (in a child process; the client, undici, in this one) has three routes measured in turn in every
 * round (the order turns each round): the read floor (core's bounded reader, then 200), the decode
 * floor (the reader and `decodeCallback`, then 200: what no receiver can avoid) and the receiver.
 * Target: the receiver at least 90 % of its decode floor's rate. Every receipt is unique (ticket ID
 * and part), 1 in 20 is sent twice: the receiver must handle each unique receipt exactly once and
 * answer every request 200.
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench -- --seconds 1 --rounds 5
 *   npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench -- --seconds 1 --rounds 2 --dry-run
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { best, createLoadPool, fmt, median, parseLoadArgs, percentRange, ratios, runRound, startLoadServer, type Round } from '@smsv4/bench/receiver-load';
import { writeReportBlock, writeSummaryRow } from '@smsv4/bench/report-file';
import { callbackHeaders, createReceiptLoad, type ReceiptLoad } from '@smsv4/testing';

const options = parseLoadArgs();
const { seconds, rounds, connections } = options;
const here = dirname(fileURLToPath(import.meta.url));
const flags = process.argv.slice(2).filter((arg) => arg !== '--' && arg !== '--dry-run');
const COMMAND = `npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks... build && npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench${flags.length === 0 ? '' : ` -- ${flags.join(' ')}`}`;
const headers = callbackHeaders('xml', { userAgent: 'smsv4-bench' });
const TARGET = 0.9;

const PATHS = ['read', 'decode', 'receiver'] as const;
type Path = (typeof PATHS)[number];
type Platform = 'fastify' | 'node';
const NAMES: Record<Platform, string> = { fastify: 'Fastify receiver (@smsv4/fastify-webhooks)', node: "core's receiver on node:http" };
interface Counts {
  readonly handled: number;
  readonly doubles: number;
  readonly duplicates: number;
}

async function measure(platform: Platform): Promise<{ measured: Record<Path, Round[]>; final: Counts; unique: number; twice: number }> {
  const server = await startLoadServer<Counts>(join(here, 'receiver-server.ts'), { args: [platform] });
  const pool = createLoadPool(server.url, { connections });
  const measured: Record<Path, Round[]> = { read: [], decode: [], receiver: [] };
  let unique = 0;
  let twice = 0;
  try {
    // Rounds -1 (a warm-up, not kept) to rounds - 1; each round's receipts have tickets of their own.
    for (let round = -1; round < rounds; round++) {
      for (let k = 0; k < PATHS.length; k++) {
        const path = PATHS[(k + Math.max(round, 0)) % PATHS.length] as Path;
        const load: ReceiptLoad = createReceiptLoad({ run: `F${platform === 'node' ? 'N' : 'F'}${path.slice(0, 3).toUpperCase()}${round + 1}`, deliveredAt: Date.UTC(2024, 2, 31, 10, 15, 2, 114) });
        const r = await runRound(pool, server, { path: `/${path}`, headers, body: (i) => load.body(i) }, { ...options, seconds: round < 0 ? Math.min(seconds, 0.5) : seconds });
        if (path === 'receiver') {
          unique += load.unique(r.requests);
          twice += load.repeats(r.requests);
        }
        if (round >= 0) measured[path].push(r);
      }
    }
    return { measured, final: await server.stats(), unique, twice };
  } finally {
    await pool.close();
    await server.close();
  }
}

const loadAtStart = loadavg()[0] ?? 0;
const results: { platform: Platform; measured: Record<Path, Round[]>; final: Counts; unique: number; twice: number }[] = [];
for (const platform of ['fastify', 'node'] as const) results.push({ platform, ...(await measure(platform)) });
const loadAtEnd = loadavg()[0] ?? 0;

const cpu = (rs: readonly Round[]): number => median(rs.map((r) => r.cpuPerRequest));
const pct = (values: readonly number[]): string => `${(median(values) * 100).toFixed(0)} %`;
const lines: string[] = [
  '## Fastify and node:http receivers against the decode floor',
  '',
  `\`${COMMAND}\` (${rounds} rounds of ${seconds} s per route, ${connections} keep-alive connections, undici client in one process, the server in another; ${new Date().toISOString().slice(0, 10)}, Node ${process.version.slice(1)}, load average ${loadAtStart.toFixed(1)} at start and ${loadAtEnd.toFixed(1)} at the end on ${cpus().length} cores).`,
  'Each request is a unique XML delivery receipt (ticket ID and part), 1 in 20 sent twice. Three POST routes of one server, measured in turn in every round (the order turns each round):',
  "the read floor (core's bounded reader, then 200), the decode floor (the same reader and `decodeCallback`, then 200: what no receiver can avoid) and the receiver, whose async handler counts each receipt, with the default in-memory duplicate store.",
  "On Fastify the floors are routes whose content-type parser leaves the body unread, as the plugin's does; on node:http the receiver is core's `createWebhookHandler` fed with `createNodeRequestBodyReader`. Ratios are medians over the rounds of the rates measured back to back (the range in brackets); CPU is the server's CPU time per request (median). Target: the receiver at least 90 % of its decode floor's rate.",
  '',
  '| server | route | best round (req/s) | server CPU per request (µs, median) | p50 / p99 (ms, median) | receiver\'s rate against it, median (range) |',
  '|---|---|---:|---:|---:|---:|',
];
for (const { platform, measured: m } of results) {
  for (const path of PATHS) {
    const rs = m[path];
    const against = path === 'receiver' ? '—' : `${pct(ratios(m.receiver, rs))} (${percentRange(ratios(m.receiver, rs))})`;
    lines.push(`| ${NAMES[platform]} | ${path === 'receiver' ? 'receiver' : `${path} floor`} | ${fmt(best(rs).perSecond)} | ${cpu(rs).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(2)} / ${median(rs.map((r) => r.p99)).toFixed(2)} | ${against} |`);
  }
}
lines.push('', '| server | unique receipts | lost | double-handled | duplicates answered 200 | refused |', '|---|---:|---:|---:|---:|---:|');
for (const { platform, measured: m, final, unique, twice } of results) {
  const refused = PATHS.reduce((n, p) => n + m[p].reduce((s, r) => s + r.failed, 0), 0);
  lines.push(`| ${NAMES[platform]} | ${fmt(unique)} | ${fmt(unique - final.handled)} | ${fmt(final.doubles)} | ${fmt(final.duplicates)} of ${fmt(twice)} | ${fmt(refused)} |`);
}
const report = lines.join('\n');
console.log(report);
for (const { platform, final, unique } of results) {
  if (final.handled !== unique || final.doubles !== 0) throw new Error(`${platform}: ${unique - final.handled} receipts lost, ${final.doubles} handled twice`);
}
if (!options.dryRun) {
  writeReportBlock('fastify-node-floor-load', report);
  for (const { platform, measured: m } of results) {
    const vsDecode = ratios(m.receiver, m.decode);
    writeSummaryRow({
      path: `${platform === 'fastify' ? 'Fastify receiver' : "Core's receiver on node:http"} against the decode floor`,
      baseline: "route that reads the body with core's reader and calls decodeCallback, then 200 (same server), interleaved",
      ratio: `${pct(vsDecode)} of the rate (rounds ${percentRange(vsDecode)}); CPU per request ${cpu(m.decode).toFixed(0)} / ${cpu(m.receiver).toFixed(0)} µs; async handler, in-memory duplicate store; load average ${loadAtStart.toFixed(1)} at start, ${loadAtEnd.toFixed(1)} at the end`,
      target: `≥ ${TARGET * 100} % of the rate`,
      met: median(vsDecode) >= TARGET,
      command: COMMAND,
    });
  }
}

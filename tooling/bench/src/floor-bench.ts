/**
 * The receivers' floor benchmark, shared by the adapters that have one (Fastify and core on
 * node:http, Fetch on Node): each server, in a child process, has three POST routes that take the
 * same XML receipts, measured in turn in every round (the order turns each round):
 * - `/read`, the read floor: the body read with core's bounded reader, then 200;
 * - `/decode`, the decode floor: the same reader and `decodeCallback`, then 200 (what no receiver
 *   can avoid);
 * - `/store`, the store floor: the decode floor, then the callback's key reserved and committed in
 *   the default in-memory duplicate store ({@link createStoreFloor}), as the receiver does;
 * - `/receiver`, the receiver, whose async handler takes each receipt, with the default in-memory
 *   duplicate store.
 * Target: the receiver at least 90 % of its decode floor's rate. Every receipt is unique (ticket ID
 * and part), 1 in 20 is sent twice: the receiver must handle each unique receipt exactly once and
 * answer every request 200 (the run fails otherwise).
 */
import { cpus, loadavg } from 'node:os';
import { createMemoryDuplicateStore, decodeCallback } from '@smsv4/core';
import { best, createLoadPool, fmt, median, percentRange, ratios, runRound, startLoadServer, type LoadOptions, type Round } from './receiver-load.js';
import { writeReportBlock, writeSummaryRow } from './report-file.js';

const PATHS = ['read', 'decode', 'store', 'receiver'] as const;
type Path = (typeof PATHS)[number];
const TARGET = 0.9;

/**
 * The store floor's work for a body: `decodeCallback`, then the key reserved and committed in an
 * in-memory duplicate store with its defaults (a repeat is found seen). `true` when it decoded.
 */
export function createStoreFloor(): (body: string | Uint8Array) => boolean {
  const store = createMemoryDuplicateStore();
  return (body) => {
    const decoded = decodeCallback(body, 'xml');
    if (!decoded.ok) return false;
    if (store.reserve(decoded.value.key, 60_000) === 'reserved') store.commit(decoded.value.key, 86_400_000);
    return true;
  };
}

/** The counts a floor server reports (see `createTakenReceipts` and `serveLoad`). */
interface Counts {
  readonly handled: number;
  readonly doubles: number;
  readonly duplicates: number;
}

/** The receipts of one round: the body of the i-th request, and how many unique and repeated receipts n requests carried. */
export interface FloorLoad {
  body(i: number): string;
  unique(requests: number): number;
  repeats(requests: number): number;
}

/** One server measured: its script (run with `args`), its name in the report, and its row in the summary. */
export interface FloorServer {
  readonly name: string;
  readonly script: string;
  readonly args?: readonly string[];
  /** The summary row's name, "… against the decode floor". */
  readonly summaryName: string;
  /** Letters that make this server's tickets its own. */
  readonly tag: string;
}

/** What {@link runFloorBench} measures and how it reports it. */
export interface FloorBench {
  /** The block of BENCHMARKS.md the report replaces. */
  readonly id: string;
  readonly title: string;
  readonly command: string;
  readonly options: LoadOptions;
  readonly servers: readonly FloorServer[];
  readonly headers: Readonly<Record<string, string>>;
  /** The receipts of a round named `run` (its tickets are its own). */
  load(run: string): FloorLoad;
  /** What the report says of the servers (how each route reads the body). */
  readonly about: string;
}

interface Measured {
  readonly server: FloorServer;
  readonly rounds: Record<Path, Round[]>;
  readonly final: Counts;
  readonly unique: number;
  readonly twice: number;
}

async function measure(bench: FloorBench, server: FloorServer): Promise<Measured> {
  const { options } = bench;
  const child = await startLoadServer<Counts>(server.script, { args: [...(server.args ?? [])] });
  const pool = createLoadPool(child.url, options);
  const rounds: Record<Path, Round[]> = { read: [], decode: [], store: [], receiver: [] };
  let unique = 0;
  let twice = 0;
  try {
    // Rounds -1 (a warm-up, not kept) to rounds - 1; each round's receipts have tickets of their own.
    for (let round = -1; round < options.rounds; round++) {
      for (let k = 0; k < PATHS.length; k++) {
        const path = PATHS[(k + Math.max(round, 0)) % PATHS.length] as Path;
        const load = bench.load(`${server.tag}${path.slice(0, 3).toUpperCase()}${round + 1}`);
        const seconds = round < 0 ? Math.min(options.seconds, 0.5) : options.seconds;
        const r = await runRound(pool, child, { path: `/${path}`, headers: bench.headers, body: (i) => load.body(i) }, { ...options, seconds });
        if (path === 'receiver') {
          unique += load.unique(r.requests);
          twice += load.repeats(r.requests);
        }
        if (round >= 0) rounds[path].push(r);
      }
    }
    return { server, rounds, final: await child.stats(), unique, twice };
  } finally {
    await pool.close();
    await child.close();
  }
}

/** Measures every server of `bench` in turn, prints the report, checks exactly-once, and writes BENCHMARKS.md unless `--dry-run`. */
export async function runFloorBench(bench: FloorBench): Promise<void> {
  const { options } = bench;
  const loadAtStart = loadavg()[0] ?? 0;
  const results: Measured[] = [];
  for (const server of bench.servers) results.push(await measure(bench, server));
  const loadAtEnd = loadavg()[0] ?? 0;

  const cpu = (rs: readonly Round[]): number => median(rs.map((r) => r.cpuPerRequest));
  const pct = (values: readonly number[]): string => `${(median(values) * 100).toFixed(0)} %`;
  const lines: string[] = [
    `## ${bench.title}`,
    '',
    `\`${bench.command}\` (${options.rounds} rounds of ${options.seconds} s per route, ${options.connections} keep-alive connections, undici client in one process, the server in another; ${new Date().toISOString().slice(0, 10)}, Node ${process.version.slice(1)}, load average ${loadAtStart.toFixed(1)} at start and ${loadAtEnd.toFixed(1)} at the end on ${cpus().length} cores).`,
    'Each request is a unique XML delivery receipt (ticket ID and part), 1 in 20 sent twice. Four POST routes of one server, measured in turn in every round (the order turns each round):',
    "the read floor (core's bounded reader, then 200), the decode floor (the same reader and `decodeCallback`, then 200: what no receiver can avoid), the store floor (the decode floor, then the callback's key reserved and committed in the default in-memory duplicate store, as the receiver does) and the receiver, whose async handler takes each receipt, with the default in-memory duplicate store.",
    `${bench.about} Ratios are medians over the rounds of the rates measured back to back (the range in brackets); CPU is the server's CPU time per request (median). Target: the receiver at least 90 % of its decode floor's rate.`,
    '',
    "| server | route | best round (req/s) | server CPU per request (µs, median) | p50 / p99 (ms, median) | receiver's rate against it, median (range) |",
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const { server, rounds: m } of results) {
    for (const path of PATHS) {
      const rs = m[path];
      const against = path === 'receiver' ? '—' : `${pct(ratios(m.receiver, rs))} (${percentRange(ratios(m.receiver, rs))})`;
      lines.push(`| ${server.name} | ${path === 'receiver' ? 'receiver' : `${path} floor`} | ${fmt(best(rs).perSecond)} | ${cpu(rs).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(2)} / ${median(rs.map((r) => r.p99)).toFixed(2)} | ${against} |`);
    }
  }
  lines.push('', '| server | unique receipts | lost | double-handled | duplicates answered 200 | refused |', '|---|---:|---:|---:|---:|---:|');
  for (const { server, rounds: m, final, unique, twice } of results) {
    const refused = PATHS.reduce((n, p) => n + m[p].reduce((s, r) => s + r.failed, 0), 0);
    lines.push(`| ${server.name} | ${fmt(unique)} | ${fmt(unique - final.handled)} | ${fmt(final.doubles)} | ${fmt(final.duplicates)} of ${fmt(twice)} | ${fmt(refused)} |`);
  }
  const report = lines.join('\n');
  console.log(report);
  for (const { server, final, unique } of results) {
    if (final.handled !== unique || final.doubles !== 0) throw new Error(`${server.name}: ${unique - final.handled} receipts lost, ${final.doubles} handled twice`);
  }
  if (options.dryRun) return;
  writeReportBlock(bench.id, report);
  for (const { server, rounds: m } of results) {
    const vsStore = ratios(m.receiver, m.store);
    writeSummaryRow({
      path: `${server.summaryName} against the store floor`,
      baseline: "route that reads the body with core's reader, calls decodeCallback and records the key in the default in-memory duplicate store, then 200 (same server), interleaved",
      ratio: `${pct(vsStore)} of the rate (rounds ${percentRange(vsStore)}); CPU per request ${cpu(m.store).toFixed(0)} / ${cpu(m.receiver).toFixed(0)} µs`,
      target: 'none: shows what the receiver adds besides the store (the target is against the decode floor)',
      met: undefined,
      command: bench.command,
    });
    const vsDecode = ratios(m.receiver, m.decode);
    writeSummaryRow({
      path: `${server.summaryName} against the decode floor`,
      baseline: "route that reads the body with core's reader and calls decodeCallback, then 200 (same server), interleaved",
      ratio: `${pct(vsDecode)} of the rate (rounds ${percentRange(vsDecode)}); CPU per request ${cpu(m.decode).toFixed(0)} / ${cpu(m.receiver).toFixed(0)} µs; async handler, in-memory duplicate store; load average ${loadAtStart.toFixed(1)} at start, ${loadAtEnd.toFixed(1)} at the end`,
      target: `≥ ${TARGET * 100} % of the rate`,
      met: median(vsDecode) >= TARGET,
      command: bench.command,
    });
  }
}

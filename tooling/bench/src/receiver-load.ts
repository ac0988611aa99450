/**
 * The load generator and measurements shared by the receivers' load benchmarks
 * (packages/express-webhooks/bench, packages/nest-module/bench): the server runs in a child process
 * (its own core), the client (undici, keep-alive) in the benchmark's process, and each round sends
 * for a bounded time and count from a fixed number of concurrent loops. Each round reports the rate,
 * the latencies, and the CPU time per request of both processes: the server's is the cost of a route
 * (the rate it allows when the server is the bottleneck), the client's shows whether the load
 * generator itself was the bottleneck.
 *
 * The child process calls {@link serveLoad} once its server listens; the benchmark calls
 * {@link startLoadServer}, then {@link runRound} for each path of each round.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

/** The options every receiver load benchmark takes on its command line. */
export interface LoadOptions {
  /**
   * Length of one round of one path, in seconds (`--seconds`, default 1). Short rounds, many of them:
   * on a shared machine the load of other work changes within seconds, and the median of many pairs
   * measured back to back holds better than that of a few long ones.
   */
  readonly seconds: number;
  /** Measured rounds, each path once a round (`--rounds`, default 10). */
  readonly rounds: number;
  /** Concurrent keep-alive connections (`--connections`, default 32). */
  readonly connections: number;
  /** Most requests of one round (`--max-requests`, default 200 000). */
  readonly maxRequests: number;
  /** Print the report without writing BENCHMARKS.md (`--dry-run`). */
  readonly dryRun: boolean;
}

/** Reads {@link LoadOptions} from the command line (`process.argv`; a `--` that pnpm passes on is skipped). */
export function parseLoadArgs(args: readonly string[] = process.argv.slice(2)): LoadOptions {
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : [...args],
    options: {
      seconds: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '32' },
      'max-requests': { type: 'string', default: '200000' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const options = {
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
    maxRequests: Number(values['max-requests']),
    dryRun: values['dry-run'] === true,
  };
  if (!(options.seconds > 0 && options.rounds > 0 && options.connections > 0 && options.maxRequests > 0)) {
    throw new TypeError('--seconds, --rounds, --connections and --max-requests must be positive');
  }
  return options;
}

/** What a server process reports: its CPU time so far (microseconds), and the benchmark's own counts. */
export type ServerStats<T extends object = Record<never, never>> = T & { readonly cpuMicros: number };

/** A server process started by {@link startLoadServer}. */
export interface LoadServer<T extends object> {
  readonly url: string;
  readonly worker: ChildProcess;
  /** Asks the process for its counts and CPU time. */
  stats(): Promise<ServerStats<T>>;
  /** Asks the process to close its server and exit; resolves once it exited. */
  close(): Promise<void>;
}

/** Options of {@link startLoadServer}. */
export interface StartLoadServerOptions {
  /** Arguments of the script. */
  readonly args?: readonly string[];
  /** Environment of the process (default this one's). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts `script` (TypeScript, run by tsx) in a child process and waits until its server listens. */
export function startLoadServer<T extends object>(script: string, { args = [], env = process.env }: StartLoadServerOptions = {}): Promise<LoadServer<T>> {
  const worker = fork(script, [...args], { execArgv: ['--import', 'tsx'], env });
  const ask = <R>(kind: string): Promise<R> =>
    new Promise((resolve) => {
      worker.once('message', (m) => resolve(m as R));
      worker.send({ kind });
    });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the server process exited (${String(code)}) before it listened`)));
    worker.once('message', (m) => {
      worker.removeAllListeners('exit');
      resolve({
        url: (m as { url: string }).url,
        worker,
        stats: () => ask<ServerStats<T>>('stats'),
        close: () =>
          new Promise((res) => {
            worker.once('exit', () => res());
            worker.send({ kind: 'close' });
          }),
      });
    });
  });
}

/**
 * The child process's side: tells the parent the server's URL, answers `stats` with `counts()` and
 * the process's CPU time, and on `close` ends the server's connections, runs `close` and exits.
 * The CPU time reported leaves out what `counts()` itself took (the benchmark's checks, not a route's work).
 */
export function serveLoad(server: Server, { counts, close }: { counts: () => object; close?: () => unknown }): void {
  const { port } = server.address() as AddressInfo;
  const cpuMicros = (): number => {
    const cpu = process.cpuUsage();
    return cpu.user + cpu.system;
  };
  let counting = 0;
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${port}` });
  process.on('message', (message: { kind: string }) => {
    if (message.kind === 'stats') {
      const before = cpuMicros();
      const counted = counts();
      const reported = before - counting;
      counting += cpuMicros() - before;
      process.send?.({ kind: 'stats', ...counted, cpuMicros: reported });
    } else if (message.kind === 'close') {
      void (async () => {
        server.closeAllConnections();
        await close?.();
        server.close(() => process.exit(0));
      })();
    }
  });
}

/** One round of one path. */
export interface Round {
  readonly requests: number;
  readonly ok: number;
  readonly failed: number;
  readonly perSecond: number;
  /** Latencies, milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Server CPU time per request, microseconds. */
  readonly cpuPerRequest: number;
  /** Client (load generator) CPU time per request, microseconds. */
  readonly clientCpuPerRequest: number;
}

/** A keep-alive connection pool to a server, `connections` wide, one request at a time on each. */
export function createLoadPool(url: string, { connections }: Pick<LoadOptions, 'connections'>): Pool {
  return new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
}

/** What {@link runRound} sends. */
export interface RoundPlan {
  readonly path: string;
  readonly headers: Record<string, string>;
  /** The body of request `i` of the round. */
  readonly body: (i: number) => string;
}

/**
 * Sends `plan` for `seconds` (at most `maxRequests` requests) from `connections` concurrent loops;
 * a request counts as ok when answered 200.
 */
export async function runRound(
  pool: Pool,
  server: Pick<LoadServer<object>, 'stats'>,
  { path, headers, body }: RoundPlan,
  { seconds, connections, maxRequests }: Pick<LoadOptions, 'seconds' | 'connections' | 'maxRequests'>,
): Promise<Round> {
  const cpuBefore = (await server.stats()).cpuMicros;
  const clientBefore = process.cpuUsage();
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
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = (await server.stats()).cpuMicros;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: next,
    ok,
    failed,
    perSecond: next / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    cpuPerRequest: (cpuAfter - cpuBefore) / next,
    clientCpuPerRequest: (client.user + client.system) / next,
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The round with the highest rate. */
export const best = <R extends Pick<Round, 'perSecond'>>(rounds: readonly R[]): R => rounds.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));

/** The ratios of `rounds` to `baseline`'s, round by round (each pair measured back to back). */
export const ratios = (rounds: readonly Round[], baseline: readonly Round[]): number[] => rounds.map((r, k) => r.perSecond / (baseline[k]?.perSecond ?? Number.NaN));

/** `min–max` of a list of ratios, as percentages. */
export const percentRange = (values: readonly number[]): string => `${(Math.min(...values) * 100).toFixed(0)}–${(Math.max(...values) * 100).toFixed(0)} %`;

/** A whole number with thousands separators. */
export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * The receipts a benchmark's handler took, counted for the exactly-once check: the handler only
 * appends the receipt's ticket and part (a copy of its own, so that no body is kept alive), and the
 * keys are tallied when the counts are asked for (outside the rounds' CPU time, see {@link serveLoad}).
 */
export function createTakenReceipts(): { take(receipt: { readonly mtStatus: { readonly ticketId: string; readonly segmentNumber?: number } }): void; counts(): { handled: number; doubles: number } } {
  const taken: string[] = [];
  const times = new Map<string, number>();
  let doubles = 0;
  return {
    take(receipt) {
      // Joined, then sliced: a string of its own (a ticket ID read from XML is a slice of its body).
      taken.push(` ${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`.slice(1));
    },
    counts() {
      for (const key of taken) {
        const n = (times.get(key) ?? 0) + 1;
        times.set(key, n);
        if (n === 2) doubles++;
      }
      taken.length = 0;
      return { handled: times.size, doubles };
    },
  };
}

/**
 * Sustained sends per second through the queue (one worker process, then two) against the bare
 * client in a loop (the plain loop, one send after the other, and `CONCURRENCY` loops at once, as
 * many sends in flight as a worker has), all to the sandbox over loopback HTTP in a process of its
 * own, and Redis in its own. Each mode sends `BENCH_SENDS` messages; the rate is read from the
 * sandbox's count of stored messages, sampled every 10 ms, between 10 % and 90 % of the sends (the
 * sustained part: no start-up, no tail). Modes alternate within each round, in a rotating order.
 * `BENCH_ROUNDS` (default 5) and `BENCH_SENDS` (default 2000) set the rounds and the sends per mode
 * and round. The target (1 worker at least 60 % of the plain loop) is met only when both the median
 * of the per-round ratios and the ratio of the median rates reach it.
 *
 * Run (after building the queue and its dependencies, since the built queue is measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/queue bench` (`bench:write` also rewrites the block in BENCHMARKS.md).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MessagePage } from '@smsv4/sandbox';
import { startRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import type * as Sources from '../src/index.js';

const { createSendQueue } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

/** A positive whole number from the environment (`BENCH_ROUNDS`, `BENCH_SENDS`), or its default. */
const fromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${String(process.env[name])}`);
  return value;
};
const ROUNDS = fromEnv('BENCH_ROUNDS', 5);
const SENDS = fromEnv('BENCH_SENDS', 2000);
if (SENDS < 50) throw new TypeError(`BENCH_SENDS must be at least 50 (the rate is read between 10 % and 90 % of the sends), got ${SENDS}`);
const CONCURRENCY = 16;
const TARGET = 0.6;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/queue... build && npx -y pnpm@10.34.8 --filter @smsv4/queue bench:write';
const load = loadavg()[0] ?? 0;

const child = (script: string, config?: object): ChildProcess =>
  fork(new URL(script, import.meta.url), config === undefined ? [] : [JSON.stringify(config)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
interface Reply {
  readonly type: 'ready' | 'done' | 'cpu';
  readonly url?: string;
  readonly cpu?: number;
}
/** The next message of `type` from a child. */
const message = (process: ChildProcess, type: Reply['type']): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const onMessage = (reply: Reply): void => {
      if (reply?.type !== type) return;
      process.off('message', onMessage);
      resolve(reply);
    };
    process.on('message', onMessage);
    process.once('exit', (code) => reject(new Error(`a benchmark process exited with ${String(code)} before "${type}"`)));
  });
/** CPU time a child used so far, µs. */
const cpuOf = async (process: ChildProcess): Promise<number> => {
  const reply = message(process, 'cpu');
  process.send('cpu');
  return (await reply).cpu ?? 0;
};

const redis = await startRedis({ teardown: 'manual' });
const sandboxProcess = child('./sandbox-server.ts');
const { url: sandboxUrl } = (await message(sandboxProcess, 'ready')) as { url: string };
const redisInfo = new Redis(redis.connection);
/** CPU time of redis-server so far, µs. */
const redisCpu = async (): Promise<number> => {
  const info = await redisInfo.info('cpu');
  const seconds = (name: string): number => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
};
const clientOptions = { baseUrl: sandboxUrl, accountId: 'sandbox', password: 'sandbox-password' };

const stored = async (): Promise<number> => ((await (await fetch(`${sandboxUrl}/__sandbox/api/messages?limit=1&offset=999999999`)).json()) as MessagePage).total;

/** What one mode measured between 10 % and 90 % of its sends. */
interface Measured {
  /** Sends per second. */
  readonly rate: number;
  /** CPU time per send of every process involved (senders, sandbox, Redis), µs. */
  readonly cpuUs: number;
}

/** A started mode: its sending processes, and how to stop them. */
interface Started {
  readonly senders: readonly ChildProcess[];
  stop(): Promise<void>;
}

/**
 * Runs `start`, samples the sandbox's count until `SENDS` messages are stored; the rate and the
 * CPU time per send between 10 % and 90 %.
 */
async function measure(start: () => Promise<Started>): Promise<Measured> {
  const reset = await fetch(`${sandboxUrl}/__sandbox/api/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
  if (reset.status !== 204) throw new Error('could not reset the sandbox');
  const started = await start();
  const cpu = async (): Promise<number> => (await Promise.all([...started.senders, sandboxProcess].map(cpuOf))).reduce((a, b) => a + b, 0) + (await redisCpu());
  const marks: { at: number; count: number; cpu: number }[] = [];
  const deadline = Date.now() + 180_000;
  for (;;) {
    const count = await stored();
    const share = marks.length === 0 ? 0.1 : 0.9;
    if (marks.length < 2 && count >= SENDS * share) marks.push({ at: performance.now(), count, cpu: await cpu() });
    if (count >= SENDS) break;
    if (Date.now() > deadline) throw new Error(`only ${count} of ${SENDS} sends in 3 minutes`);
    await sleep(10);
  }
  await started.stop();
  const [first, last] = marks as [{ at: number; count: number; cpu: number }, { at: number; count: number; cpu: number }];
  return { rate: ((last.count - first.count) * 1000) / (last.at - first.at), cpuUs: (last.cpu - first.cpu) / (last.count - first.count) };
}

const bare = (concurrency: number) => async (): Promise<Started> => {
  const sender = child('./sender.ts', { mode: 'bare', sandboxUrl, concurrency, count: SENDS });
  const done = message(sender, 'done');
  return {
    senders: [sender],
    async stop() {
      await done;
    },
  };
};

let queues = 0;
const queue = (workers: number) => async (): Promise<Started> => {
  const name = `bench-${++queues}`;
  const producer = createSendQueue({ connection: redis.connection, name, clientOptions });
  for (let i = 0; i < SENDS; i += 1000) {
    const keys = Array.from({ length: Math.min(1000, SENDS - i) }, (_, k) => `q-${i + k}`);
    const results = await producer.enqueueMany(keys.map((key) => ({ key, request: { destination: { address: '14155550100' }, message: { type: 'text', content: `Campaign message [${key}]` } } })));
    if (!results.every((r) => r.ok && r.value.created)) throw new Error('enqueue failed');
  }
  const senders = Array.from({ length: workers }, () => child('./sender.ts', { mode: 'worker', sandboxUrl, concurrency: CONCURRENCY, redisPort: redis.port, name }));
  await Promise.all(senders.map((sender) => message(sender, 'ready')));
  return {
    senders,
    async stop() {
      for (const sender of senders) sender.send('stop');
      await Promise.all(senders.map((sender) => new Promise((resolve) => (sender.exitCode === null ? sender.once('exit', resolve) : resolve(undefined)))));
      await producer.close();
    },
  };
};

const modes = [
  { id: 'loop', label: 'bare client, plain loop (one send at a time)', run: bare(1) },
  { id: 'concurrent', label: `bare client, ${CONCURRENCY} loops at once`, run: bare(CONCURRENCY) },
  { id: 'queue1', label: `queue, 1 worker process (concurrency ${CONCURRENCY})`, run: queue(1) },
  { id: 'queue2', label: `queue, 2 worker processes (concurrency ${CONCURRENCY} each)`, run: queue(2) },
] as const;

const rates = new Map<string, number[]>(modes.map((m) => [m.id, []]));
const cpuTimes = new Map<string, number[]>(modes.map((m) => [m.id, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(round + k) % modes.length] as (typeof modes)[number];
    const { rate, cpuUs } = await measure(mode.run);
    rates.get(mode.id)?.push(rate);
    cpuTimes.get(mode.id)?.push(cpuUs);
    console.log(`round ${round + 1}: ${mode.label}: ${rate.toFixed(0)} sends/s, ${cpuUs.toFixed(0)} µs of CPU per send`);
  }
}
sandboxProcess.disconnect();
redisInfo.disconnect();
await redis.stop();

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (n: number): string => `${Math.round(n * 100)} %`;
const of = (id: string): number[] => rates.get(id) ?? [];
const cpuMedian = (id: string): number => median(cpuTimes.get(id) ?? []);
// Ratios per round (the modes of a round met the same machine), then their median.
const ratio = (a: string, b: string): number => median(of(a).map((rate, i) => rate / (of(b)[i] as number)));
// The ratio of the medians: the typical rate of each mode, each over all rounds.
const ratioOfMedians = (a: string, b: string): number => median(of(a)) / median(of(b));
const versusLoop = ratio('queue1', 'loop');
const versusLoopOfMedians = ratioOfMedians('queue1', 'loop');
const perRound = (a: string, b: string): string => of(a).map((rate, i) => pct(rate / (of(b)[i] as number))).join(', ');
// Met only when both readings reach the target: a few lucky rounds cannot carry it.
const met = versusLoop >= TARGET && versusLoopOfMedians >= TARGET;

const markdown = [
  '## Queue: sustained sends per second through BullMQ vs the bare client',
  '',
  `Target: the queue with 1 worker at least ${pct(TARGET)} of the bare client's rate in a loop, both as the median of the per-round ratios and as the ratio of the medians. Measured: **${pct(versusLoop)}** of the plain loop (median of the ratios), **${pct(versusLoopOfMedians)}** (ratio of the medians): ${met ? 'met' : '**not met**'}; ${pct(ratio('queue1', 'concurrent'))} (${pct(ratioOfMedians('queue1', 'concurrent'))}) of ${CONCURRENCY} loops at once; 2 workers: ${pct(ratio('queue2', 'loop'))} (${pct(ratioOfMedians('queue2', 'loop'))}) of the plain loop, ${pct(ratio('queue2', 'queue1'))} (${pct(ratioOfMedians('queue2', 'queue1'))}) of 1 worker.`,
  '',
  '| sender | sends/s, median of rounds | best round | each round | CPU per send, all processes (µs, median) | sends/s one core allows |',
  '|---|---:|---:|---|---:|---:|',
  ...modes.map(
    (m) => `| ${m.label} | ${fmt(median(of(m.id)))} | ${fmt(Math.max(...of(m.id)))} | ${of(m.id).map(fmt).join(', ')} | ${fmt(cpuMedian(m.id))} | ${fmt(1e6 / cpuMedian(m.id))} |`,
  ),
  '',
  `Queue with 1 worker / plain loop, each round: ${perRound('queue1', 'loop')}. Queue with 1 worker / ${CONCURRENCY} loops at once, each round: ${perRound('queue1', 'concurrent')}. By CPU cost (less sensitive to the machine's other work): a send through the queue costs ${pct(cpuMedian('queue1') / cpuMedian('loop'))} of the CPU of a send of the plain loop, so where the CPU is the limit the queue sends at ${pct(cpuMedian('loop') / cpuMedian('queue1'))} of its rate.`,
  '',
  `- Every send goes to the sandbox over keep-alive loopback HTTP (JSON, authenticated, validated and stored; a manual clock, so no delivery timers) in a process of its own; Redis (\`redis-server\`, no persistence) in its own; each sender in its own process. ${SENDS} sends per mode and round, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, the modes in a rotating order; the rate is the sandbox's count of stored messages between 10 % and 90 % of the sends, sampled every 10 ms; the CPU per send is the CPU time every process of the mode used over the same span (senders, sandbox, Redis), divided by the sends.`,
  '- Through the queue each send also costs: the in-flight marker before the request (one script, which also checks the account\'s `Retry-After` pause when no rate limit is set, as here) and the outcome after it (one script), and BullMQ moving the job to active and to completed; the messages were enqueued (`enqueueMany`) before the workers started.',
  '- The machine has 2 cores shared by the sandbox, Redis and the senders, and by other work (load average ' + load.toFixed(1) + ' at the start): a second worker process competes for the same cores, and single rounds vary widely; the ratios are given as the median of the ratios of each round (modes measured back to back) and, in brackets or second, as the ratio of the median rates; the target counts as met only when both reach it.',
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('queue-throughput', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;

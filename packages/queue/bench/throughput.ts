/**
 * Sustained sends per second through the queue (one worker process, then two) against the bare
 * client in a loop (the plain loop, one send after the other, and `CONCURRENCY` loops at once, as
 * many sends in flight as a worker has), all to the sandbox over loopback HTTP in a process of its
 * own, and Redis in its own. Each mode sends `BENCH_SENDS` messages; the rate is read from the
 * sandbox's count of stored messages, sampled every 10 ms, between 10 % and 90 % of the sends (the
 * sustained part: no start-up, no tail). Modes alternate within each round, in a rotating order.
 *
 * Run (after building the queue and its dependencies, since the built queue is measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/queue bench` (`bench:write` also rewrites the block in BENCHMARKS.md).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MessagePage } from '@smsv4/sandbox';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import { startRedis } from '../test/helpers.js';
import type * as Sources from '../src/index.js';

const { createSendQueue } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SENDS = Number(process.env.BENCH_SENDS ?? 3000);
const CONCURRENCY = 16;
const TARGET = 0.6;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/queue... build && npx -y pnpm@10.34.8 --filter @smsv4/queue bench:write';
const load = loadavg()[0] ?? 0;

const child = (script: string, config?: object): ChildProcess =>
  fork(new URL(script, import.meta.url), config === undefined ? [] : [JSON.stringify(config)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const message = (process: ChildProcess): Promise<unknown> =>
  new Promise((resolve, reject) => {
    process.once('message', resolve);
    process.once('exit', (code) => reject(new Error(`a benchmark process exited with ${String(code)}`)));
  });

const redis = await startRedis();
const sandboxProcess = child('./sandbox-server.ts');
const { url: sandboxUrl } = (await message(sandboxProcess)) as { url: string };
const clientOptions = { baseUrl: sandboxUrl, accountId: 'sandbox', password: 'sandbox-password' };

const stored = async (): Promise<number> => ((await (await fetch(`${sandboxUrl}/__sandbox/api/messages?limit=1&offset=999999999`)).json()) as MessagePage).total;

/** Runs `start`, samples the sandbox's count until `SENDS` messages are stored; the rate between 10 % and 90 %. */
async function measure(start: () => Promise<() => Promise<void>>): Promise<number> {
  const reset = await fetch(`${sandboxUrl}/__sandbox/api/reset`, { method: 'POST' });
  if (reset.status !== 204) throw new Error('could not reset the sandbox');
  const stop = await start();
  const samples: [number, number][] = [];
  const deadline = Date.now() + 180_000;
  for (;;) {
    const count = await stored();
    samples.push([performance.now(), count]);
    if (count >= SENDS) break;
    if (Date.now() > deadline) throw new Error(`only ${count} of ${SENDS} sends in 3 minutes`);
    await sleep(10);
  }
  await stop();
  const at = (share: number): [number, number] => samples.find(([, count]) => count >= SENDS * share) as [number, number];
  const [t1, c1] = at(0.1);
  const [t2, c2] = at(0.9);
  return ((c2 - c1) * 1000) / (t2 - t1);
}

const bare = (concurrency: number) => async () => {
  const sender = child('./sender.ts', { mode: 'bare', sandboxUrl, concurrency, count: SENDS });
  const done = message(sender);
  return async () => {
    await done;
  };
};

let queues = 0;
const queue = (workers: number) => async () => {
  const name = `bench-${++queues}`;
  const producer = createSendQueue({ connection: redis.connection, name, clientOptions });
  for (let i = 0; i < SENDS; i += 1000) {
    const keys = Array.from({ length: Math.min(1000, SENDS - i) }, (_, k) => `q-${i + k}`);
    const results = await producer.enqueueMany(keys.map((key) => ({ key, request: { destination: { address: '14155550100' }, message: { type: 'text', content: `Campaign message [${key}]` } } })));
    if (!results.every((r) => r.ok && r.value.created)) throw new Error('enqueue failed');
  }
  const senders = Array.from({ length: workers }, () => child('./sender.ts', { mode: 'worker', sandboxUrl, concurrency: CONCURRENCY, redisPort: redis.port, name }));
  await Promise.all(senders.map(message));
  return async () => {
    for (const sender of senders) sender.send('stop');
    await Promise.all(senders.map((sender) => new Promise((resolve) => (sender.exitCode === null ? sender.once('exit', resolve) : resolve(undefined)))));
    await producer.close();
  };
};

const modes = [
  { id: 'loop', label: 'bare client, plain loop (one send at a time)', run: bare(1) },
  { id: 'concurrent', label: `bare client, ${CONCURRENCY} loops at once`, run: bare(CONCURRENCY) },
  { id: 'queue1', label: `queue, 1 worker process (concurrency ${CONCURRENCY})`, run: queue(1) },
  { id: 'queue2', label: `queue, 2 worker processes (concurrency ${CONCURRENCY} each)`, run: queue(2) },
] as const;

const rates = new Map<string, number[]>(modes.map((m) => [m.id, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(round + k) % modes.length] as (typeof modes)[number];
    const rate = await measure(mode.run);
    rates.get(mode.id)?.push(rate);
    console.log(`round ${round + 1}: ${mode.label}: ${rate.toFixed(0)} sends/s`);
  }
}
sandboxProcess.disconnect();
await redis.stop();

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (n: number): string => `${Math.round(n * 100)} %`;
const of = (id: string): number[] => rates.get(id) ?? [];
// Ratios per round (the modes of a round met the same machine), then their median.
const ratio = (a: string, b: string): number => median(of(a).map((rate, i) => rate / (of(b)[i] as number)));
const versusLoop = ratio('queue1', 'loop');
const met = versusLoop >= TARGET;

const markdown = [
  '## Queue: sustained sends per second through BullMQ vs the bare client',
  '',
  `Target: the queue with 1 worker at least ${pct(TARGET)} of the bare client's rate in a loop. Measured: **${pct(versusLoop)}** of the plain loop (${met ? 'met' : '**not met**'}); ${pct(ratio('queue1', 'concurrent'))} of ${CONCURRENCY} loops at once; 2 workers: ${pct(ratio('queue2', 'loop'))} of the plain loop, ${pct(ratio('queue2', 'queue1'))} of 1 worker.`,
  '',
  '| sender | sends/s, median of rounds | best round | each round |',
  '|---|---:|---:|---|',
  ...modes.map((m) => `| ${m.label} | ${fmt(median(of(m.id)))} | ${fmt(Math.max(...of(m.id)))} | ${of(m.id).map(fmt).join(', ')} |`),
  '',
  `- Every send goes to the sandbox over keep-alive loopback HTTP (JSON, authenticated, validated and stored; a manual clock, so no delivery timers) in a process of its own; Redis (\`redis-server\`, no persistence) in its own; each sender in its own process. ${SENDS} sends per mode and round, ${ROUNDS} rounds, the modes in a rotating order; the rate is the sandbox's count of stored messages between 10 % and 90 % of the sends, sampled every 10 ms.`,
  '- Through the queue each send also costs: the account gate (one script), the in-flight marker before the request and the outcome after it (one script each), and BullMQ moving the job to active and to completed; the messages were enqueued (`enqueueMany`) before the workers started.',
  '- The machine has 2 cores shared by the sandbox, Redis and the senders (and by other work: load average ' + load.toFixed(1) + ' at the start), so a second worker process competes for the same cores.',
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('queue-throughput', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;

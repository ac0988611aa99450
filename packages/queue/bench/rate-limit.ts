/**
 * How closely two worker processes sending for one account keep to its rate limit: the rate they
 * reach under the limit (target: within 5 % of it) and the busiest second (target: at most the
 * limit). Figures of the machine, not promises a test can hold on a loaded one: the tests check that
 * the limit holds (never faster than it allows), this measures how well.
 *
 * Each round enqueues `BENCH_SENDS` messages (default 500) on a queue with `rateLimit.perSecond`
 * `BENCH_RATE` (default 50), starts two worker processes (concurrency 32 each, deep enough that the
 * slots, not the machine, set the pace) and samples the sandbox's count of stored messages every
 * 10 ms: the rate is read between 10 % and 90 % of the sends, the busiest second is the largest
 * count over any one-second span of the samples. `BENCH_ROUNDS` (default 3) rounds.
 *
 * Run (after building the queue and its dependencies, since the built queue is measured):
 * `npx -y pnpm@10.34.8 --filter @smsv4/queue bench:rate` (`bench:rate:write` also rewrites the block in BENCHMARKS.md).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MessagePage } from '@smsv4/sandbox';
import { startRedis } from '@smsv4/testing';
import { writeReportBlock } from '../../../tooling/bench/src/report-file.js';
import type * as Sources from '../src/index.js';

const { createSendQueue } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

const fromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${String(process.env[name])}`);
  return value;
};
const ROUNDS = fromEnv('BENCH_ROUNDS', 3);
const SENDS = fromEnv('BENCH_SENDS', 500);
const RATE = fromEnv('BENCH_RATE', 50);
if (SENDS < RATE * 3) throw new TypeError(`BENCH_SENDS must be at least three seconds of sends (${RATE * 3}), got ${SENDS}`);
const WORKERS = 2;
const CONCURRENCY = 32;
const TOLERANCE = 0.05;
const COMMAND = 'npx -y pnpm@10.34.8 --filter @smsv4/queue... build && npx -y pnpm@10.34.8 --filter @smsv4/queue bench:rate:write';
const load = loadavg()[0] ?? 0;

const child = (script: string, config?: object): ChildProcess =>
  fork(new URL(script, import.meta.url), config === undefined ? [] : [JSON.stringify(config)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const message = (process: ChildProcess, type: string): Promise<{ url?: string }> =>
  new Promise((resolve, reject) => {
    const onMessage = (reply: { type?: string; url?: string }): void => {
      if (reply?.type !== type) return;
      process.off('message', onMessage);
      resolve(reply);
    };
    process.on('message', onMessage);
    process.once('exit', (code) => reject(new Error(`a benchmark process exited with ${String(code)} before "${type}"`)));
  });

const redis = await startRedis({ teardown: 'manual' });
const sandboxProcess = child('./sandbox-server.ts');
const { url: sandboxUrl } = (await message(sandboxProcess, 'ready')) as { url: string };
const clientOptions = { baseUrl: sandboxUrl, accountId: 'sandbox', password: 'sandbox-password' };
const stored = async (): Promise<number> => ((await (await fetch(`${sandboxUrl}/__sandbox/api/messages?limit=1&offset=999999999`)).json()) as MessagePage).total;

interface Round {
  readonly rate: number;
  readonly busiest: number;
}

async function round(index: number): Promise<Round> {
  const name = `rate-${index}`;
  const before = await stored();
  const producer = createSendQueue({ connection: redis.connection, name, clientOptions });
  const keys = Array.from({ length: SENDS }, (_, i) => `r${index}-${i}`);
  await producer.enqueueMany(keys.map((key) => ({ key, request: { destination: { address: '14155550100' }, message: { type: 'text', content: `Limited message [${key}]` } } })));
  const senders = Array.from({ length: WORKERS }, () =>
    child('./sender.ts', { mode: 'worker', sandboxUrl, concurrency: CONCURRENCY, redisPort: redis.port, name, rateLimit: { perSecond: RATE } }),
  );
  await Promise.all(senders.map((sender) => message(sender, 'ready')));
  // Samples of [ms, count], until every send is stored (at most three times the time the limit implies).
  const samples: [number, number][] = [];
  const deadline = performance.now() + (3 * SENDS * 1000) / RATE;
  for (;;) {
    const count = (await stored()) - before;
    samples.push([performance.now(), count]);
    if (count >= SENDS || performance.now() > deadline) break;
    await sleep(10);
  }
  for (const sender of senders) sender.send('stop');
  await Promise.all(senders.map((sender) => new Promise((resolve) => (sender.exitCode === null ? sender.once('exit', resolve) : resolve(undefined)))));
  await producer.close();
  const at = (share: number): [number, number] => samples.find(([, c]) => c >= SENDS * share) as [number, number];
  const [t0, c0] = at(0.1);
  const [t1, c1] = at(0.9);
  let busiest = 0;
  for (let i = 0, j = 0; j < samples.length; j++) {
    while ((samples[j]?.[0] as number) - (samples[i]?.[0] as number) > 1000) i++;
    busiest = Math.max(busiest, (samples[j]?.[1] as number) - (samples[Math.max(0, i - 1)]?.[1] as number));
  }
  return { rate: ((c1 - c0) * 1000) / (t1 - t0), busiest };
}

const rounds: Round[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const r = await round(i);
  rounds.push(r);
  console.log(`round ${i + 1}: ${r.rate.toFixed(1)} sends/s for a limit of ${RATE}, busiest second ${r.busiest}`);
}
sandboxProcess.disconnect();
await redis.stop();

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const rate = median(rounds.map((r) => r.rate));
const busiest = Math.max(...rounds.map((r) => r.busiest));
const within = Math.abs(rate - RATE) / RATE <= TOLERANCE;
const met = within && busiest <= RATE;

const markdown = [
  '## Queue: keeping to the account\'s rate limit from two worker processes',
  '',
  `Target: two worker processes sending for one account with \`rateLimit: { perSecond: ${RATE} }\` reach the limit within ${Math.round(TOLERANCE * 100)} % (median of rounds) and never send more than ${RATE} in a second. Measured: **${rate.toFixed(1)} sends/s** (${((rate / RATE - 1) * 100).toFixed(1)} %), busiest second **${busiest}**: ${met ? 'met' : '**not met**'}.`,
  '',
  '| round | sends/s (10 % to 90 % of the sends) | busiest second |',
  '|---:|---:|---:|',
  ...rounds.map((r, i) => `| ${i + 1} | ${r.rate.toFixed(1)} | ${r.busiest} |`),
  '',
  `- ${SENDS} sends per round, enqueued before two worker processes start (concurrency ${CONCURRENCY} each); the sandbox (manual clock, keep-alive loopback HTTP) and Redis in processes of their own; the sandbox's count of stored messages sampled every 10 ms. The busiest second is the largest count over any one-second span of the samples, so it reads arrivals at the sandbox: a process stalled by the machine's other work (load average ${load.toFixed(1)} at the start) between its slot and its request can bunch sends there, whatever the gate decided.`,
  '',
  `Command: \`${COMMAND}\`. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}.`,
].join('\n');
console.log(markdown);
if (process.argv.includes('--write')) {
  writeReportBlock('queue-rate-limit', markdown);
  console.log('BENCHMARKS.md updated');
}
if (!met) process.exitCode = 1;

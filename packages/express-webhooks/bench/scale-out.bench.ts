/**
 * Load test of receivers that scale out: sustained callbacks per second over three receiver
 * processes sharing one Redis (duplicate store and reassembly store), against the same three
 * processes with their in-memory stores, measured in alternating rounds in the same run.
 *
 * The traffic: unique XML delivery receipts and the parts of multipart inbound messages (2 or 3
 * parts, 8- and 16-bit references, parts out of order), 1 request in 20 a repeat of the one
 * before. With Redis the client spreads requests round robin over the instances, as a load
 * balancer does; with in-memory stores it must route by sender and ticket (sticky), or the parts
 * of a message and the repeats would land on instances that know nothing of each other. Each
 * unique receipt and each complete inbound message must be handled exactly once (zero lost, zero
 * handled twice) and every request answered 200.
 *
 * It prints a verdict against the target (Redis at least 70 % of the in-memory rate, median of the
 * rounds) and exits 1 when the target is missed, or when an event was lost, handled twice or
 * refused. The report goes into BENCHMARKS.md (not with --dry-run) whenever no event was lost,
 * handled twice or refused, the verdict included, met or not.
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench:scale-out
 *   npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench:scale-out -- --seconds 2 --rounds 2 --dry-run
 *   npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench:scale-out -- --seconds 30 --rounds 6   (longer rounds)
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { best, fmt, median } from '@smsv4/bench/receiver-load';
import { writeReportBlock } from '@smsv4/bench/report-file';
import { buildDeliveryReceipt, buildMultipartInbound, startRedis } from '@smsv4/testing';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { startReceiver, type ReceiverInstance } from '../test/scale-out/receiver-instances.js';
import type { ReceiverConfig } from '../test/scale-out/receiver-process.js';

const { values } = parseArgs({
  // pnpm passes a `--` separator through: it is not an argument.
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    seconds: { type: 'string', default: '1.5' },
    rounds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '36' },
    'inbound-share': { type: 'string', default: '0.3' },
    // Default: enough for the round's seconds at any rate this machine reaches (50 000 a second).
    'max-requests': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const inboundShare = Number(values['inbound-share']);
const maxRequests = values['max-requests'] === undefined ? Math.max(100_000, Math.ceil(seconds * 50_000)) : Number(values['max-requests']);
/** Redis against in memory, median of the rounds: the target. */
const TARGET = 0.7;
if (!(seconds > 0 && rounds > 0 && connections >= 3 && maxRequests > 0 && inboundShare >= 0 && inboundShare < 1)) {
  throw new TypeError('--seconds, --rounds, --max-requests must be positive, --connections at least 3, --inbound-share in [0, 1)');
}

type Mode = 'redis' | 'memory';
const XML = { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4', 'user-agent': 'smsv4-load' };
const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8', 'x-api-version': '4', 'user-agent': 'smsv4-load' };

/** One request of the traffic: its body, headers, the key it routes by, and what it makes. */
interface Event {
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Sticky routing: the ticket and part of a receipt, the sender of an inbound part. */
  readonly route: string;
  /** `r:<ticket>:<segment>` or `i:<ticket,...>` (the whole message) for the last part sent of a message. */
  readonly receipt?: string;
  readonly message?: { readonly key: string; readonly parts: number; readonly part: number };
}

/**
 * The traffic of one round, made on demand, in order (request i may repeat request i-1; only the
 * last one is kept, so a long round holds no more than its keys). A block of 10 slots holds 7
 * receipts and 3 inbound parts at the default share; parts of a message go out in reverse order.
 */
function traffic(tag: string, round: number): () => Event {
  let last: Event | undefined;
  let made = 0;
  let receipts = 0;
  let message = 0;
  let pending: Event[] = [];
  const inboundSlots = Math.round(inboundShare * 10);
  const fresh = (i: number): Event => {
    if (i % 10 < inboundSlots) {
      if (pending.length === 0) {
        const m = message++;
        const total = m % 2 === 0 ? 2 : 3;
        const referenceBits = m % 4 < 2 ? 8 : 16;
        const reference = referenceBits === 8 ? m % 256 : m % 65536;
        // A sender per message and round: two messages never share a reference (as they could on a real handset).
        const from = `14${String(round).padStart(3, '0')}${String(m).padStart(7, '0')}`;
        const tickets = Array.from({ length: total }, (_, k) => `${tag}M${m}-${k + 1}X`);
        const key = `i:${tickets.join(',')}`;
        const format = m % 2 === 0 ? 'xml' : 'json';
        // 153 GSM characters a part: 2 or 3 parts.
        const text = `Message ${m} from a handset, long enough for ${total} parts. `.padEnd(total === 2 ? 200 : 400, 'abcdefghij');
        const { parts } = buildMultipartInbound({ text, referenceBits, reference, from, to: '24273', ticketIds: tickets, format });
        if (parts.length !== total) throw new Error(`expected ${total} parts, the kit made ${parts.length}`);
        pending = parts
          .map((p, k) => ({ body: p.body, headers: format === 'xml' ? XML : JSON_HEADERS, route: from, message: { key, parts: total, part: k + 1 } }))
          .reverse();
      }
      return pending.shift() as Event;
    }
    const n = receipts++;
    const ticket = `${tag}R${Math.floor(n / 9)}-X`;
    const segment = (n % 9) + 1;
    const { body } = buildDeliveryReceipt({ ticketId: ticket, segmentNumber: segment, totalSegments: 9, code: 4, deliveredAt: '2026-01-01T00:00:00Z' });
    // Routed by the receipt's key: its repeats meet on one instance, and the parts of a message spread.
    return { body, headers: XML, route: `${ticket}:${segment}`, receipt: `r:${ticket}:${segment}` };
  };
  return () => {
    const j = made++;
    last = j % 20 === 1 && last !== undefined ? last : fresh(j);
    return last;
  };
}

const hash = (text: string): number => {
  let h = 2166136261;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 16777619);
  return h >>> 0;
};

interface Round {
  readonly mode: Mode;
  readonly requests: number;
  /** The round stopped at --max-requests before its time was up. */
  readonly capped: boolean;
  readonly failed: number;
  /** Requests sent again after a 409 or a 5xx. */
  readonly retried: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly receipts: Set<string>;
  /** Inbound messages whose every part was sent, with how many parts were sent. */
  readonly messages: Map<string, Set<number>>;
  readonly totals: Map<string, number>;
  readonly cpuMicros: number;
  readonly redisCpuMicros: number;
}

interface Cluster {
  readonly mode: Mode;
  readonly instances: ReceiverInstance[];
  readonly pools: Pool[];
}

async function cpuOf(cluster: Cluster): Promise<number> {
  let total = 0;
  for (const instance of cluster.instances) total += (await instance.stats()).cpuMicros;
  return total;
}

async function redisCpu(redis: Redis | undefined): Promise<number> {
  if (redis === undefined) return 0;
  const info = await redis.info('cpu');
  const read = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (read('used_cpu_sys') + read('used_cpu_user')) * 1e6;
}

async function load(cluster: Cluster, tag: string, round: number, redis: Redis | undefined): Promise<Round> {
  const event = traffic(tag, round);
  // What was sent, recorded as it goes out: unique receipts, and the parts sent of each message.
  const receipts = new Set<string>();
  const messages = new Map<string, Set<number>>();
  const totals = new Map<string, number>();
  const cpuBefore = await cpuOf(cluster);
  const redisBefore = await redisCpu(redis);
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  let failed = 0;
  let retried = 0;
  const latencies: number[] = [];
  const started = performance.now();
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline && next < maxRequests) {
      const i = next++;
      const e = event();
      if (e.receipt !== undefined) receipts.add(e.receipt);
      if (e.message !== undefined) {
        messages.set(e.message.key, (messages.get(e.message.key) ?? new Set()).add(e.message.part));
        totals.set(e.message.key, e.message.parts);
      }
      const target = cluster.mode === 'redis' ? i % cluster.pools.length : hash(e.route) % cluster.pools.length;
      const t0 = performance.now();
      // As the service does: a 409 (the same event in flight elsewhere) or a 5xx is retried with a
      // growing delay (here 20 ms, doubling, at most 1 s; at most 12 times).
      let status = 0;
      for (let attempt = 0; attempt < 13 && status !== 200; attempt++) {
        if (attempt > 0) {
          retried++;
          await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** (attempt - 1))));
        }
        try {
          const response = await (cluster.pools[target] as Pool).request({ method: 'POST', path: '/callbacks', headers: e.headers, body: e.body });
          await response.body.dump();
          status = response.statusCode;
        } catch {
          status = 0;
        }
      }
      if (status !== 200) {
        failed++;
        console.error(`request ${i} of ${tag} still answered ${status} after 12 retries`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await cpuOf(cluster);
  const redisAfter = await redisCpu(redis);
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    mode: cluster.mode,
    requests: next,
    capped: next >= maxRequests,
    failed,
    retried,
    perSecond: next / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    receipts,
    messages,
    totals,
    cpuMicros: (cpuAfter - cpuBefore) / next,
    redisCpuMicros: (redisAfter - redisBefore) / next,
  };
}


const loadBefore = loadavg()[0] ?? 0;
// Stopped by hand at the end (this runs outside a test runner).
const server = await startRedis({ teardown: 'manual' });
const inspector = new Redis(server.port, server.host);
const base = { port: 0, failRate: 0, leaseMs: 60_000, handlerTimeoutMs: 10_000, reassemblyTimeoutMs: 600_000, orphanSweepMs: 60_000, journal: false };
const start = async (mode: Mode): Promise<Cluster> => {
  const instances: ReceiverInstance[] = [];
  for (const name of ['a', 'b', 'c']) {
    const config: ReceiverConfig = { ...base, name: `${mode}-${name}`, keyPrefix: 'bench:', ...(mode === 'redis' ? { redisPort: server.port } : {}) };
    instances.push(await startReceiver(config));
  }
  const pools = instances.map((i) => new Pool(`http://127.0.0.1:${i.port}`, { connections: Math.ceil(connections / 3), pipelining: 1, keepAliveTimeout: 30_000 }));
  return { mode, instances, pools };
};
const clusters = { memory: await start('memory'), redis: await start('redis') };

// Warm-up of both (not counted), then alternating rounds.
await load(clusters.memory, 'WM', 0, undefined);
await load(clusters.redis, 'WR', 0, inspector);
const measured: Record<Mode, Round[]> = { memory: [], redis: [] };
// The first round of a pair tends to meet the leftovers of the round before: the order alternates.
for (let round = 1; round <= rounds; round++) {
  if (round % 2 === 1) {
    measured.memory.push(await load(clusters.memory, `M${round}`, round, undefined));
    measured.redis.push(await load(clusters.redis, `R${round}`, round, inspector));
  } else {
    measured.redis.push(await load(clusters.redis, `R${round}`, round, inspector));
    measured.memory.push(await load(clusters.memory, `M${round}`, round, undefined));
  }
}

/** Checks a cluster's handlings against what was sent: lost, handled twice, refused. */
async function verify(mode: Mode): Promise<{ unique: number; messages: number; lost: number; doubles: number; failed: number }> {
  const handled = new Map<string, number>();
  for (const instance of clusters[mode].instances) {
    for (const [key, n] of (await instance.stats(true)).keys ?? []) handled.set(key, (handled.get(key) ?? 0) + n);
  }
  let unique = 0;
  let messages = 0;
  let lost = 0;
  let failed = 0;
  for (const round of measured[mode]) {
    failed += round.failed;
    for (const key of round.receipts) {
      unique++;
      if (!handled.has(key)) lost++;
    }
    for (const [key, parts] of round.messages) {
      if (parts.size !== round.totals.get(key)) continue; // the round ended before every part went out
      messages++;
      if (!handled.has(key)) lost++;
    }
  }
  let doubles = 0;
  for (const n of handled.values()) if (n > 1) doubles++;
  return { unique, messages, lost, doubles, failed };
}
const checks = { memory: await verify('memory'), redis: await verify('redis') };
// The reassembly store's indexes, one per shard: messages still held.
let left = 0;
for (const index of await inspector.keys('bench:parts:*deadlines')) left += await inspector.zcard(index);

for (const cluster of Object.values(clusters)) {
  for (const pool of cluster.pools) await pool.close();
  for (const instance of cluster.instances) await instance.close();
}
inspector.disconnect();
await server.stop();

const ratios = measured.redis.map((r, k) => r.perSecond / (measured.memory[k] as Round).perSecond);
const row = (mode: Mode, label: string): string => {
  const list = measured[mode];
  const c = checks[mode];
  return `| ${label} | ${fmt(best(list).perSecond)} | ${fmt(median(list.map((r) => r.perSecond)))} | ${median(list.map((r) => r.cpuMicros)).toFixed(0)}${mode === 'redis' ? ` + ${median(list.map((r) => r.redisCpuMicros)).toFixed(0)}` : ''} | ${median(list.map((r) => r.p50)).toFixed(2)} / ${median(list.map((r) => r.p99)).toFixed(2)} | ${fmt(c.unique)} | ${fmt(c.messages)} | ${c.lost} | ${c.doubles} | ${fmt(list.reduce((n, r) => n + r.retried, 0))} | ${c.failed} |`;
};
const ratio = median(ratios);
const bestRatio = best(measured.redis).perSecond / best(measured.memory).perSecond;
const cpuTotal = (mode: Mode): number => median(measured[mode].map((r) => r.cpuMicros + r.redisCpuMicros));
const loadAfter = loadavg()[0] ?? 0;
const broken = Object.values(checks).some((c) => c.lost !== 0 || c.doubles !== 0 || c.failed !== 0);
const met = ratio >= TARGET;
const capped = [...measured.memory, ...measured.redis].filter((r) => r.capped).length;
const verdict =
  `Verdict: target ${met ? 'met' : 'NOT met'}: Redis at ${(ratio * 100).toFixed(0)} % of the in-memory rate (median of ${rounds} rounds; target at least ${TARGET * 100} %); ` +
  `lost ${checks.memory.lost + checks.redis.lost}, handled twice ${checks.memory.doubles + checks.redis.doubles}, never answered 200 ${checks.memory.failed + checks.redis.failed}` +
  `${broken ? ' (must be 0)' : ''}.`;
const report = `## Receivers that scale out: three instances on Redis vs in memory

\`npx -y pnpm@10.34.8 --filter @smsv4/express-webhooks bench:scale-out\` (${rounds} rounds of ${seconds} s per setup, ${connections} keep-alive
connections; ${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${cpus().length} CPUs shared with other work:
load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end, so single rounds swing widely).
Three receiver processes (Express 5, \`createWebhookMiddleware\`), one redis-server, the undici client in a
fourth process. Traffic: unique XML delivery receipts and the parts of multipart inbound messages
(${Math.round(inboundShare * 100)} % of requests; 2 or 3 parts, 8- and 16-bit references, XML and JSON, parts in reverse order), 1 request
in 20 a repeat of the one before; a request answered 409 (the same event in flight on another instance) or
5xx is sent again after 20 ms, 40 ms, ... (at most 1 s), as the service would (latencies include those retries). **Redis**: \`createRedisDuplicateStore\` and \`createRedisReassemblyStore\`
over ioredis (auto-pipelining), requests spread round robin. **In memory** (the baseline): each process its
own stores, requests routed by receipt (ticket and part) or by sender so that repeats and parts meet on one instance (the only
correct way to run in-memory stores on several instances). Rounds alternate between the two setups
(which goes first alternates too); the ratio is the median over the rounds of the two rates measured back to back. CPU is per request:
the three receivers' (+ redis-server's). Target: at least 70 % of the in-memory rate, 0 lost, 0 handled twice.

| stores | best round (req/s) | median round (req/s) | CPU per request (µs, median) | p50 / p99 (ms, median) | unique receipts | complete inbound messages | lost | handled twice | sent again after 409 / 5xx | never answered 200 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${row('memory', 'in memory, sticky routing')}
${row('redis', 'Redis, round robin')}

Redis / in memory, median of rounds: **${(ratio * 100).toFixed(0)} %** (per round: ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')});
best round against best round: ${(bestRatio * 100).toFixed(0)} %; CPU per request, in memory / Redis (receivers and redis-server,
the rate it allows when the machine is CPU-bound): ${((cpuTotal('memory') / cpuTotal('redis')) * 100).toFixed(0)} %.
Messages left incomplete in Redis when a round stopped mid-message: ${left}.${capped > 0 ? `
Rounds stopped by --max-requests ${maxRequests} before their ${seconds} s: ${capped}.` : ''}

**${verdict}**
`;

console.log(report);
console.log(verdict);
if (!values['dry-run'] && !broken) writeReportBlock('express-webhooks-scale-out', report);
if (broken) console.error('events were lost, handled twice or refused');
if (!met) console.error(`Redis reached ${(ratio * 100).toFixed(0)} % of the in-memory rate, below the target of ${TARGET * 100} %`);
if (broken || !met) process.exit(1);

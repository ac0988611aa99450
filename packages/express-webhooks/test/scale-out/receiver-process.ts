/**
 * One receiver instance, run as a child process (`fork`, bundled once by `compiledScript`) by the scale-out test and
 * benchmark: an Express app with the webhook middleware, its stores in Redis (shared by every
 * instance) or in memory (its own). Its configuration comes as JSON in argv[2].
 *
 * With `journal: true` the handlers are idempotent the way the README recommends: the effect of an
 * event is one atomic write keyed by the event, `SET <prefix>effect:<key> <what was handled> NX`
 * (the key: `context.key` for a receipt, the message's ticket IDs for an inbound message), so a
 * second handling of an event has no second effect. Each call of a handler is also written to the
 * parent over IPC *before* its effect (the write is awaited), so the parent's journal holds every
 * call that could have had an effect, even from an instance killed a moment later; the effects
 * themselves are read from Redis. Without it the instance counts handlings itself and answers
 * `stats` messages (cheap enough for a benchmark).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import {
  createMemoryDuplicateStore,
  createMemoryReassemblyStore,
  createRedisDuplicateStore,
  createRedisReassemblyStore,
  createWebhookMiddleware,
  type DuplicateStore,
  type ReassemblyStore,
  type RedisCommand,
} from '../../src/index.js';

/** The configuration of one instance. */
export interface ReceiverConfig {
  readonly name: string;
  /** 0: any free port. */
  readonly port: number;
  /** Where the stores live: a Redis port, or `undefined` for in-memory stores. */
  readonly redisPort?: number;
  readonly keyPrefix: string;
  /** Share of handler calls that fail (answered 500, so the service retries). */
  readonly failRate: number;
  readonly leaseMs: number;
  readonly handlerTimeoutMs: number;
  readonly reassemblyTimeoutMs: number;
  readonly orphanSweepMs: number;
  readonly journal: boolean;
}

/** What an instance writes to its parent. */
export type ReceiverEvent =
  | { readonly kind: 'ready'; readonly name: string; readonly pid: number; readonly port: number }
  /** A handler was called for the event `key` (journal), before its effect. */
  | { readonly kind: 'call'; readonly pid: number; readonly key: string }
  | { readonly kind: 'error'; readonly pid: number; readonly code: string; readonly message: string }
  | {
      readonly kind: 'stats';
      /** Distinct events handled, and how many of them more than once (by this instance). */
      readonly handled: number;
      readonly doubles: number;
      readonly duplicates: number;
      readonly inbound: number;
      readonly cpuMicros: number;
      /** Every event key handled with its count, when asked for (`{ kind: 'stats', keys: true }`). */
      readonly keys?: ReadonlyArray<readonly [string, number]>;
    };

const config = JSON.parse(process.argv[2] ?? '{}') as ReceiverConfig;
const { pid } = process;

/** Sends to the parent and waits until the message is written to the channel. */
const tell = (event: ReceiverEvent): Promise<void> =>
  new Promise((resolve, reject) => {
    if (process.send === undefined) return resolve();
    process.send(event, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });

let store: DuplicateStore;
let reassemblyStore: ReassemblyStore;
let redis: Redis | undefined;
if (config.redisPort === undefined) {
  store = createMemoryDuplicateStore();
  reassemblyStore = createMemoryReassemblyStore();
} else {
  redis = new Redis(config.redisPort, '127.0.0.1', { enableAutoPipelining: true, maxRetriesPerRequest: 2 });
  const client = redis;
  const sendCommand: RedisCommand = ([name = '', ...args]) => client.call(name, ...args);
  store = createRedisDuplicateStore({ sendCommand, keyPrefix: `${config.keyPrefix}dup:` });
  reassemblyStore = createRedisReassemblyStore({ sendCommand, keyPrefix: `${config.keyPrefix}parts:` });
}

/** The effect of one event, as the test's handlers write it to Redis (journal: true). */
export type ReceiverEffect =
  | { readonly kind: 'receipt'; readonly pid: number; readonly ticketId: string; readonly segment: number; readonly total: number }
  | {
      readonly kind: 'inbound';
      readonly pid: number;
      readonly ticketIds: readonly string[];
      readonly text: string;
      readonly complete: boolean;
      readonly orphan: boolean;
      /** The part number whose arrival completed the message (absent when an orphan sweep handed it over). */
      readonly completedBy?: number;
    };

/** The Redis key of the effect of an event (under the configuration's prefix). */
export const effectKey = (keyPrefix: string, event: string): string => `${keyPrefix}effect:${event}`;

/**
 * The idempotent effect: written once per event, whoever handles it and however often. One atomic
 * write keyed by the event (as `INSERT ... ON CONFLICT DO NOTHING` would be in a database): a check
 * followed by a separate write would not survive a crash between the two.
 */
const takeEffect = async (event: string, effect: ReceiverEffect): Promise<void> => {
  if (redis === undefined) throw new Error('journal: true needs redisPort: the effects are written to Redis');
  await redis.set(effectKey(config.keyPrefix, event), JSON.stringify(effect), 'NX');
};

/** The part number at the end of a part's key (`inbound:<ticketId>:<8|16>-<reference>:<part>`). */
const partOf = (key: string): number | undefined => (key.startsWith('inbound:') ? Number(key.slice(key.lastIndexOf(':') + 1)) : undefined);

// Counts for the benchmark (journal: false).
const handled = new Map<string, number>();
let duplicates = 0;
let inbound = 0;
const count = (key: string): void => void handled.set(key, (handled.get(key) ?? 0) + 1);
const fails = (): boolean => config.failRate > 0 && Math.random() < config.failRate;

const app = express();
const receiver = createWebhookMiddleware({
  allowUnauthenticated: true,
  store,
  reassemblyStore,
  leaseMs: config.leaseMs,
  handlerTimeoutMs: config.handlerTimeoutMs,
  reassemblyTimeoutMs: config.reassemblyTimeoutMs,
  orphanSweepMs: config.orphanSweepMs,
  async onDeliveryReceipt(receipt, { key }) {
    if (fails()) throw new Error('the receipt database is busy');
    const { ticketId, segmentNumber = 1, totalSegments = 1 } = receipt.mtStatus;
    if (config.journal) {
      await tell({ kind: 'call', pid, key });
      await takeEffect(key, { kind: 'receipt', pid, ticketId, segment: segmentNumber, total: totalSegments });
    } else count(`r:${ticketId}:${segmentNumber}`);
  },
  async onInboundMessage(message, context) {
    if (fails()) throw new Error('the inbox is busy');
    const orphan = context.key.startsWith('orphan:');
    if (config.journal) {
      const key = `inbound:${message.ticketIds.join(',')}`;
      await tell({ kind: 'call', pid, key });
      const completedBy = partOf(context.key);
      await takeEffect(key, {
        kind: 'inbound',
        pid,
        ticketIds: message.ticketIds,
        text: message.text ?? message.content,
        complete: message.complete,
        orphan,
        ...(completedBy === undefined ? {} : { completedBy }),
      });
    } else {
      inbound++;
      count(`i:${message.ticketIds.join(',')}`);
    }
  },
  async onOrphan(message) {
    if (config.journal) {
      const key = `inbound:${message.ticketIds.join(',')}`;
      await tell({ kind: 'call', pid, key });
      await takeEffect(key, { kind: 'inbound', pid, ticketIds: message.ticketIds, text: message.text ?? message.content, complete: message.complete, orphan: true });
    }
  },
  onDuplicate: () => void duplicates++,
  onError: (error) => {
    // Handler failures are the point of the test; anything else is told to the parent.
    if (config.journal && error.code !== 'handler-failed') void tell({ kind: 'error', pid, code: error.code, message: error.message });
  },
});
app.use('/callbacks', receiver);

const server = createServer({ keepAliveTimeout: 30_000 }, app);
server.listen(config.port, '127.0.0.1', () => {
  void tell({ kind: 'ready', name: config.name, pid, port: (server.address() as AddressInfo).port });
});

process.on('message', (message: { kind: string; keys?: boolean }) => {
  if (message.kind === 'stats') {
    let doubles = 0;
    for (const n of handled.values()) if (n > 1) doubles++;
    const cpu = process.cpuUsage();
    const keys = message.keys === true ? [...handled.entries()] : undefined;
    void tell({ kind: 'stats', handled: handled.size, doubles, duplicates, inbound, cpuMicros: cpu.user + cpu.system, ...(keys === undefined ? {} : { keys }) });
  } else if (message.kind === 'close') {
    receiver.close();
    server.closeAllConnections();
    server.close(() => {
      void (redis?.quit() ?? Promise.resolve()).finally(() => process.exit(0));
    });
  }
});
// The parent went away: do not outlive it.
process.on('disconnect', () => process.exit(0));

/**
 * One receiver instance, run as a child process (`fork` with tsx) by the scale-out test and
 * benchmark: an Express app with the webhook middleware, its stores in Redis (shared by every
 * instance) or in memory (its own). Its configuration comes as JSON in argv[2].
 *
 * With `journal: true` each handled event is written to the parent over IPC *before* the handler
 * resolves (the write is awaited), so the parent's journal holds every handling that could have
 * been acknowledged, even from an instance killed a moment later. Without it the instance counts
 * handlings itself and answers `stats` messages (cheap enough for a benchmark).
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
  | { readonly kind: 'receipt'; readonly pid: number; readonly ticketId: string; readonly segment: number; readonly total: number }
  | { readonly kind: 'inbound'; readonly pid: number; readonly ticketIds: readonly string[]; readonly text: string; readonly complete: boolean; readonly orphan: boolean }
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

// Counts for the benchmark (journal: false).
const handled = new Map<string, number>();
let duplicates = 0;
let inbound = 0;
const count = (key: string): void => void handled.set(key, (handled.get(key) ?? 0) + 1);
const fails = (): boolean => config.failRate > 0 && Math.random() < config.failRate;

const app = express();
const receiver = createWebhookMiddleware({
  store,
  reassemblyStore,
  leaseMs: config.leaseMs,
  handlerTimeoutMs: config.handlerTimeoutMs,
  reassemblyTimeoutMs: config.reassemblyTimeoutMs,
  orphanSweepMs: config.orphanSweepMs,
  async onDeliveryReceipt(receipt) {
    if (fails()) throw new Error('the receipt database is busy');
    const { ticketId, segmentNumber = 1, totalSegments = 1 } = receipt.mtStatus;
    if (config.journal) await tell({ kind: 'receipt', pid, ticketId, segment: segmentNumber, total: totalSegments });
    else count(`r:${ticketId}:${segmentNumber}`);
  },
  async onInboundMessage(message, context) {
    if (fails()) throw new Error('the inbox is busy');
    const orphan = context.key.startsWith('orphan:');
    if (config.journal) await tell({ kind: 'inbound', pid, ticketIds: message.ticketIds, text: message.text ?? message.content, complete: message.complete, orphan });
    else {
      inbound++;
      count(`i:${message.ticketIds.join(',')}`);
    }
  },
  async onOrphan(message) {
    if (config.journal) await tell({ kind: 'inbound', pid, ticketIds: message.ticketIds, text: message.text ?? message.content, complete: message.complete, orphan: true });
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

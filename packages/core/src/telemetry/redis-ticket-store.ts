/**
 * A ticket store shared through Redis: the process that sends (a client, a queue worker) writes
 * each accepted ticket, and whichever receiver instance takes the receipt reads it, so the
 * receipt's span links to the send's and the send-to-receipt latency is recorded across processes.
 */
import type { RedisCommand } from '../webhooks/duplicate-store.js';
import type { SentTicket, TicketStore } from './ticket-store.js';
import { checkSendCommand, checkStrings } from '../option-checks.js';

/** Options of {@link createRedisTicketStore}. */
export interface RedisTicketStoreOptions {
  /** Sends a command to Redis (`RedisCommand`: node-redis and ioredis both fit). */
  readonly sendCommand: RedisCommand;
  /** Prefix of every key (default `smsv4:tickets:`). */
  readonly keyPrefix?: string;
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const decoder = new TextDecoder();

/** `<sentAt>` or `<sentAt> <traceId> <spanId> <traceFlags>`. */
function encodeSent({ sentAt, context }: SentTicket): string {
  return context === undefined ? String(sentAt) : `${sentAt} ${context.traceId} ${context.spanId} ${context.traceFlags}`;
}

/** Reads a value this store wrote; anything else (another writer's value) is `undefined`. */
function decodeSent(reply: unknown): SentTicket | undefined {
  const text = typeof reply === 'string' ? reply : reply instanceof Uint8Array ? decoder.decode(reply) : undefined;
  if (text === undefined) return undefined;
  const [at = '', traceId, spanId, flags] = text.split(' ');
  if (!/^[0-9]{1,16}$/.test(at)) return undefined;
  const sentAt = Number(at);
  if (traceId === undefined) return { sentAt };
  if (!HEX32.test(traceId) || spanId === undefined || !HEX16.test(spanId) || flags === undefined || !/^[0-9]{1,3}$/.test(flags)) return undefined;
  return { sentAt, context: { traceId, spanId, traceFlags: Number(flags) } };
}

/**
 * A {@link TicketStore} shared through Redis, for receivers on several instances and queue workers
 * in other processes: pass the same store (on the same Redis) to the `createTelemetry` of every
 * process. Client-agnostic, like the Redis duplicate store: one function that sends a command
 * (`SET key value PX ttl`, `GET key`). Each ticket is one short string key that expires with the
 * telemetry's `ticketTtlMs`.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const telemetry = createTelemetry({ api, ticketStore: createRedisTicketStore({ sendCommand: (args) => redis.sendCommand(args) }) });
 * // ioredis: createRedisTicketStore({ sendCommand: ([name, ...args]) => redis.call(name, ...args) })
 */
export function createRedisTicketStore({ sendCommand, keyPrefix = 'smsv4:tickets:' }: RedisTicketStoreOptions): TicketStore {
  checkSendCommand(sendCommand);
  checkStrings({ keyPrefix });
  return {
    async remember(ticketId, sent, ttlMs) {
      await sendCommand(['SET', keyPrefix + ticketId, encodeSent(sent), 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
    },
    async find(ticketId) {
      return decodeSent(await sendCommand(['GET', keyPrefix + ticketId]));
    },
  };
}

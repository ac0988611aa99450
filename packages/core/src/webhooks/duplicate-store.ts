/**
 * Remembers which callbacks were taken, so that a retried receipt or inbound message is answered
 * 200 without being handled twice. A key goes through two states: *in flight* while its handler
 * runs (a lease, so that a crashed instance does not hold it for ever), then *seen* for a time
 * that covers the service's retry window. A key whose handler failed is forgotten, so the retry is
 * handled.
 */
import { checkFunctions, checkPositiveIntegers, checkSendCommand, checkStrings } from '../option-checks.js';

/** What {@link DuplicateStore.reserve} found. */
export type ReserveOutcome =
  /** The key was free: it is now in flight, and the caller handles the event. */
  | 'reserved'
  /** The event was taken before: answer 200 without handling it. */
  | 'seen'
  /** Another delivery of the same event is being handled: answer non-2xx so the service retries. */
  | 'in-flight';

/** A value or a promise of it: the in-memory store answers at once, a shared store asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Where a receiver remembers taken events. The default keeps them in memory
 * ({@link createMemoryDuplicateStore}); a deployment of several instances plugs a shared one (see
 * {@link createRedisDuplicateStore}). Implementations must make `reserve` atomic.
 */
export interface DuplicateStore {
  /** Atomically marks `key` in flight for `leaseMs`, unless it is in flight or seen already. */
  reserve(key: string, leaseMs: number): MaybePromise<ReserveOutcome>;
  /** Marks `key` seen for `ttlMs` (its handler succeeded). */
  commit(key: string, ttlMs: number): MaybePromise<void>;
  /** Forgets `key` (its handler failed: the retry must be handled). */
  release(key: string): MaybePromise<void>;
}

/** Options of {@link createMemoryDuplicateStore}. */
export interface MemoryDuplicateStoreOptions {
  /** Most keys kept; beyond it the oldest are forgotten first (default 100 000). */
  readonly maxEntries?: number;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/** The in-memory store, with its size for monitoring. */
export interface MemoryDuplicateStore extends DuplicateStore {
  /** Keys currently kept (expired ones may linger until they are next touched or swept). */
  readonly size: number;
  /** Forgets every key. */
  clear(): void;
}

/**
 * Expired entries are looked for every SWEEP_EVERY writes, among the SWEEP_EVERY oldest: the same
 * rate of removal as looking at one entry a write, at a fraction of the cost.
 */
const SWEEP_EVERY = 64;

/**
 * A {@link DuplicateStore} in this process's memory: keys expire after their TTL, and at most
 * `maxEntries` are kept (the oldest go first). It answers synchronously. It does not survive a
 * restart and is not shared between instances: for that, use a shared store.
 *
 * Every operation is O(1) amortised, however long the process runs: entries are found through a
 * Map and aged through a queue of reservations (a Map walked from its start for the oldest entry
 * would step over every hole that earlier deletions left, and slow down as the store ages). An
 * entry is a slot of that queue, in three parallel arrays (key, expiry, state), not an object of
 * its own: the Map holds the slot number of each live key.
 *
 * @example
 * const store = createMemoryDuplicateStore({ maxEntries: 50_000 });
 */
export function createMemoryDuplicateStore({ maxEntries = 100_000, now = Date.now }: MemoryDuplicateStoreOptions = {}): MemoryDuplicateStore {
  checkPositiveIntegers({ maxEntries });
  checkFunctions({ now });
  // Slot numbers by key. Slot n sits at index n - dropped of the arrays, in the order of reservation,
  // oldest from `head`; a slot whose key no longer points at it (released, expired and reserved
  // again) is dead, and skipped when it comes up.
  const slots = new Map<string, number>();
  let keys: string[] = [];
  let expiries: number[] = [];
  /** 1 while seen, 0 while in flight. */
  let seen: number[] = [];
  let head = 0;
  let dropped = 0;
  let writes = 0;
  // Dead slots from `head` on: while there are none, the oldest slot is known to be live without a lookup.
  let dead = 0;

  const live = (index: number): boolean => slots.get(keys[index] as string) === index + dropped;

  const compact = (): void => {
    if (head > 1024 && head * 2 > keys.length) {
      keys = keys.slice(head);
      expiries = expiries.slice(head);
      seen = seen.slice(head);
      dropped += head;
      head = 0;
    }
  };

  /** Forgets the oldest slot, live or dead. */
  const forgetOldest = (): void => {
    if (dead === 0 || live(head)) slots.delete(keys[head] as string);
    else dead--;
    head++;
  };

  const age = (at: number): void => {
    if (++writes % SWEEP_EVERY === 0) {
      for (let looked = 0; looked < SWEEP_EVERY && head < keys.length; looked++) {
        if ((expiries[head] as number) > at && (dead === 0 || live(head))) break;
        forgetOldest();
      }
    }
    while (slots.size > maxEntries && head < keys.length) forgetOldest();
    compact();
  };

  const insert = (key: string, isSeen: number, expiresAt: number, at: number): void => {
    const slot = dropped + keys.length;
    const before = slots.size;
    slots.set(key, slot);
    // The key had a slot (expired, not yet swept): that one is dead now.
    if (slots.size === before) dead++;
    keys.push(key);
    expiries.push(expiresAt);
    seen.push(isSeen);
    age(at);
  };

  return {
    reserve(key, leaseMs) {
      const at = now();
      const slot = slots.get(key);
      if (slot !== undefined) {
        const index = slot - dropped;
        if ((expiries[index] as number) > at) return seen[index] === 1 ? 'seen' : 'in-flight';
      }
      insert(key, 0, at + leaseMs, at);
      return 'reserved';
    },
    commit(key, ttlMs) {
      const at = now();
      const slot = slots.get(key);
      if (slot === undefined) insert(key, 1, at + ttlMs, at);
      else {
        // In place: the entry keeps its place in the queue (it ages from its reservation).
        const index = slot - dropped;
        seen[index] = 1;
        expiries[index] = at + ttlMs;
      }
    },
    release(key) {
      if (slots.delete(key)) dead++;
    },
    get size() {
      return slots.size;
    },
    clear() {
      slots.clear();
      dropped += keys.length;
      keys = [];
      expiries = [];
      seen = [];
      head = 0;
      dead = 0;
    },
  };
}

/**
 * Sends one Redis command and resolves with its reply: with node-redis
 * `(args) => client.sendCommand(args)`, with ioredis `([name, ...rest]) => client.call(name, ...rest)`.
 */
export type RedisCommand = (args: string[]) => Promise<unknown>;

/** Options of {@link createRedisDuplicateStore}. */
export interface RedisDuplicateStoreOptions {
  /** Sends a command to Redis (see {@link RedisCommand}). */
  readonly sendCommand: RedisCommand;
  /** Prefix of every key (default `smsv4:webhooks:`). */
  readonly keyPrefix?: string;
  /** A unique token per reservation, so a release never frees another instance's lease (default `crypto.randomUUID`). */
  readonly token?: () => string;
}

const SEEN_VALUE = 'seen';
const IN_FLIGHT_PREFIX = 'in-flight:';
/** Deletes KEYS[1] only while it still holds the reservation ARGV[1]. */
const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
/** Most reservations in doubt (their `SET` failed, it may still have been applied) remembered, by key. */
const MAX_DOUBTFUL = 10_000;

/**
 * A {@link DuplicateStore} shared through Redis, for receivers running on several instances. It is
 * client-agnostic: it only needs a function that sends a command (`SET NX PX`, `GET`, `EVAL`).
 * A reservation is `SET key in-flight:<token> NX PX lease`; a commit `SET key seen PX ttl`; a
 * release deletes the key only while it holds this reservation's token. Each command touches one
 * key, so it runs as it is on Redis Cluster.
 *
 * Every write survives a lost reply or a command sent twice (a client that re-sends after a
 * reconnection): a reservation whose `SET` was applied but answered `nil` (sent twice) or not at
 * all finds its own token and is `reserved`, not `in-flight`; a reservation whose `SET` failed
 * (a timeout: it may still be applied later) is given back by a release queued behind it, and the
 * next reservation of that key in this process uses the same token; commit and release are
 * idempotent.
 *
 * @example
 * import { createClient } from 'redis';
 * const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const store = createRedisDuplicateStore({ sendCommand: (args) => client.sendCommand(args) });
 */
export function createRedisDuplicateStore({
  sendCommand,
  keyPrefix = 'smsv4:webhooks:',
  token = () => globalThis.crypto.randomUUID(),
}: RedisDuplicateStoreOptions): DuplicateStore {
  checkSendCommand(sendCommand);
  checkStrings({ keyPrefix });
  // The reservation tokens this instance holds, by key: released keys are deleted only while they hold them.
  const held = new Map<string, string>();
  // Reservations in doubt, by key: tried again with the same token, so one applied late is recognised.
  const doubtful = new Map<string, string>();
  const ms = (value: number): string => String(Math.max(1, Math.ceil(value)));
  const release = (full: string, value: string): Promise<unknown> => sendCommand(['EVAL', RELEASE_SCRIPT, '1', full, value]);
  const doubt = (key: string, full: string, value: string): void => {
    doubtful.delete(key);
    doubtful.set(key, value);
    if (doubtful.size > MAX_DOUBTFUL) doubtful.delete(doubtful.keys().next().value as string);
    // Queued behind the SET on the same connection: should the SET be applied late, this frees the key.
    release(full, value).then(
      () => {
        if (doubtful.get(key) === value) doubtful.delete(key);
      },
      () => undefined,
    );
  };
  return {
    async reserve(key, leaseMs) {
      const full = keyPrefix + key;
      const value = doubtful.get(key) ?? IN_FLIGHT_PREFIX + token();
      let current: unknown;
      try {
        const set = await sendCommand(['SET', full, value, 'PX', ms(leaseMs), 'NX']);
        if (set === 'OK') {
          doubtful.delete(key);
          held.set(key, value);
          return 'reserved';
        }
        current = await sendCommand(['GET', full]);
      } catch (e) {
        doubt(key, full, value);
        throw e;
      }
      doubtful.delete(key);
      // Our own token: the SET was applied, and its reply lost or the command sent twice.
      if (current === value) {
        held.set(key, value);
        return 'reserved';
      }
      // Gone between the two commands (expired): answer in flight, the retry will find it free.
      return current === SEEN_VALUE ? 'seen' : 'in-flight';
    },
    async commit(key, ttlMs) {
      held.delete(key);
      await sendCommand(['SET', keyPrefix + key, SEEN_VALUE, 'PX', ms(ttlMs)]);
    },
    async release(key) {
      const value = held.get(key);
      held.delete(key);
      if (value === undefined) return;
      await release(keyPrefix + key, value);
    },
  };
}

/**
 * `createSendQueue`: enqueue messages idempotently per key, run workers in any number of processes,
 * follow every message to its final state, close the loop with delivery receipts.
 */
import {
  createTelemetry,
  MT_LIMITS,
  validateMtRequest,
  type DeliveryReceipt,
  type MtRequest,
  type MtRequestError,
  type QueueJobObserver,
  type Result,
  type SmsTelemetry,
  type TelemetryLogger,
} from '@smsv4/core';
import { createClient, type ClientOptions, type SmsClient } from '@smsv4/transport-fetch';
import { Queue } from 'bullmq';
import { Redis, type Cluster, type RedisOptions } from 'ioredis';
import { cutConnections, dropErrorsOfClosedConnections } from './closing-connections.js';
import { jobIdOf } from './job-id.js';
import { isCluster, readPersistence, type PersistenceCheck } from './persistence.js';
import { QueueUnavailableError, withinBound } from './queue-unavailable.js';
import type { MessageState, QueuedMessage, StateChange } from './message-state.js';
import { createMessageStore, storeKeys, type Transition } from './message-store.js';
import { checkRateLimit, createSendGate, type RateLimit } from './send-gate.js';
import { TEMPORARY_ERROR_DELAY_MS } from './send-outcome.js';
import { settleFromReceipts, startSendWorker, type ResolvedRetry, type RunningWorker, type SendJobData, type SendWorker, type WorkerOptions } from './send-worker.js';

/**
 * Reports state changes to the telemetry: a span from `sending` to the state the send led to (the
 * client's call runs inside it), with the ticket ID and the service's code; a counter and a log line
 * for every change. A telemetry failure changes nothing.
 */
const MAX_OPEN_SPANS = 10_000;

interface QueueObserver {
  readonly observe: (transition: Transition) => void;
  readonly runSend: <T>(key: string, send: () => T) => T;
}

function queueTelemetry(telemetry: SmsTelemetry): QueueObserver {
  const sending = new Map<string, QueueJobObserver>();
  return {
    observe({ key, state, ticketId, code, description }) {
      try {
        const report = { key, state, ...(ticketId === undefined ? {} : { ticketId }), ...(code === undefined ? {} : { code }), ...(description === undefined ? {} : { description }) };
        const open = sending.get(key);
        if (open !== undefined) {
          sending.delete(key);
          open.end(report);
        } else telemetry.queueState(report);
        if (state === 'sending') {
          sending.set(key, telemetry.queueJob(key));
          // A send whose outcome another process recorded never ends here: forget the oldest.
          if (sending.size > MAX_OPEN_SPANS) sending.delete(sending.keys().next().value as string);
        }
      } catch {
        // Telemetry cannot undo a state change.
      }
    },
    runSend(key, send) {
      const open = sending.get(key);
      if (open === undefined) return send();
      let started = false;
      try {
        return open.run(() => {
          started = true;
          return send();
        });
      } catch (error) {
        // A telemetry failure before the send started: send without the span.
        if (!started) return send();
        throw error;
      }
    },
  };
}

/** Retry settings: how the queue retries a send the service certainly did not take (1010, 429, no connection). */
export interface QueueRetryOptions {
  /** Retries after the first attempt before the message is `rejected` (`retries-exhausted`); default 10. */
  readonly maxRetries?: number;
  /** Backoff before the first retry, doubled at each retry; default 1000 ms. */
  readonly initialDelayMs?: number;
  /** Ceiling of the backoff; default 60 000 ms. */
  readonly maxDelayMs?: number;
  /**
   * Shortest wait after a 1010; default and floor 10 000 ms, the spec's "intervals of 10 seconds or
   * more" (read from core's catalogue). A lower value is a `TypeError` unless
   * `allowShortTemporaryErrorDelay` is set.
   */
  readonly temporaryErrorDelayMs?: number;
  /**
   * Lets `temporaryErrorDelayMs` go below the spec's 10 s: for tests against a sandbox only, never
   * against the service (default `false`).
   */
  readonly allowShortTemporaryErrorDelay?: boolean;
}

/** Options of {@link createSendQueue}. */
export interface SendQueueOptions {
  /**
   * Redis: ioredis options (`{ host, port }`), an ioredis instance, or an ioredis `Cluster` (each
   * with `maxRetriesPerRequest: null`, as BullMQ workers need; a cluster's in its `redisOptions`).
   */
  readonly connection: RedisOptions | Redis | Cluster;
  /** Queue name (default `'smsv4-send'`); every process of one queue uses the same name and prefix. */
  readonly name?: string;
  /**
   * Prefix of every Redis key (default `'bull'`, BullMQ's; on a `Cluster`, `'{<name>}'`). On Redis
   * Cluster it must hold a hash tag (`{...}`), which keeps the queue on one slot: one tag per queue
   * spreads the queues over the nodes.
   */
  readonly prefix?: string;
  /**
   * Longest wait for Redis in `enqueue`, `enqueueMany`, `getMessage`, `getMessages`, `unknownFates`,
   * `resend`, `abandon` and `recordDeliveryReceipt`, ms (default 5 000; `0`: no bound). At the bound
   * the call rejects with a `QueueUnavailableError` (reason `timeout`); the call may still take
   * effect once Redis answers, and may be made again: every call is idempotent per key.
   */
  readonly operationTimeoutMs?: number;
  /**
   * Longest wait of `close()` (of the queue, or of a worker it started), ms (default 35 000: a send
   * in progress may take `sendTimeoutMs`; `0`: no bound). Within it, the sends in progress are
   * recorded and the connections closed. At the bound (Redis stalled or down) the connections are
   * cut, `close()` resolves, and `onError` gets a `QueueUnavailableError` (reason `timeout`,
   * operation `close`): what was in progress is found later as an unknown fate (`worker-lost`),
   * never sent again.
   */
  readonly closeTimeoutMs?: number;
  /**
   * What to do when Redis may lose writes it acknowledged (no append-only file, or `appendfsync no`),
   * read at start from every master: `'warn'` (default) through `onWarning`; `'require'`: every call
   * above rejects with a `QueueUnavailableError` (reason `persistence`); `'ignore'`: no check.
   */
  readonly persistence?: PersistenceCheck;
  /** Told about a risk the queue found at start (default `console.warn`). */
  readonly onWarning?: (message: string) => void;
  /** The client that sends (`@smsv4/transport-fetch`). Give it, or `clientOptions`. Its retry policy is yours: see the README. */
  readonly client?: SmsClient;
  /** Options of the client the queue creates (its send retries are turned off: the queue retries, freeing the worker). */
  readonly clientOptions?: ClientOptions;
  /** The account the rate limit and `Retry-After` pauses apply to; default `clientOptions.accountId`; required with `client`. */
  readonly accountId?: string;
  /** Sends per second across every worker of every process sending for the account (default: no limit). */
  readonly rateLimit?: RateLimit;
  /** Jobs a worker processes at once (default 10). */
  readonly concurrency?: number;
  /** Carry the key in `options.note2`, so that a receipt finds its message without its ticket (default `false`). */
  readonly keyInNote2?: boolean;
  /** Longest wait for the service's answer to a send, ms (default 30 000); then the message is an unknown fate. `0`: no timeout. */
  readonly sendTimeoutMs?: number;
  readonly retry?: QueueRetryOptions;
  /** How long a message is kept (and its key refused) after its last change, ms (default 7 days). `unknown` messages are kept until resolved. */
  readonly retentionMs?: number;
  /** BullMQ lock of a job, ms (default 30 000): a worker that stops renewing it for this long is taken for dead. */
  readonly lockDurationMs?: number;
  /** How often workers look for jobs of dead workers, ms (default 30 000). */
  readonly stalledIntervalMs?: number;
  /** Called after every state change made by this process (what it throws is ignored). */
  readonly onStateChange?: (change: StateChange) => void;
  /** Called with errors no call can return (a worker's Redis errors, failed bookkeeping); default: ignored. */
  readonly onError?: (error: unknown) => void;
  /**
   * Traces, metrics and logs (core's `createTelemetry`): a span per send (from `sending` to the
   * state it led to, with the ticket ID and the service's code), `smsv4.queue.jobs` by state,
   * `smsv4.queue.unknown_fates` and the `smsv4.queue.depth` gauge. Give the same object to
   * `clientOptions` to trace the HTTP calls too: the client's spans are children of the queue's.
   * Create it after the OpenTelemetry SDK started (it takes the meter provider when created).
   */
  readonly telemetry?: SmsTelemetry;
  /** Structured logs only (pino-style `info/warn/error(fields, message)`), when `telemetry` is not given. */
  readonly logger?: TelemetryLogger;
}

/** One message to enqueue. */
export interface EnqueueItem {
  readonly request: MtRequest;
  /** The idempotency key: the message is sent at most once per key. 1 to 200 characters. */
  readonly key: string;
  /** Send no earlier than this from now, ms. */
  readonly delayMs?: number;
}

/** A message taken by `enqueue` (`created: false`: the key was already known and nothing was added). */
export interface Enqueued {
  readonly key: string;
  readonly created: boolean;
  /** The message's state (for an existing key, the state it had reached). */
  readonly state: MessageState;
}

/** Why `resend` or `abandon` did nothing. */
export interface ResolveError {
  readonly code: 'not-found' | 'not-unknown';
  readonly description: string;
  /** The message's state when it is not `unknown`. */
  readonly state?: MessageState;
}

/** What `recordDeliveryReceipt` did with a receipt. */
export type ReceiptRecorded =
  | { readonly status: 'recorded'; readonly message: QueuedMessage }
  /** The ticket is not known yet (its send's answer is being recorded): the receipt waits for it. */
  | { readonly status: 'waiting'; readonly ticketId: string };

/** Why a receipt matched no message of the queue. */
export interface ReceiptUnmatched {
  readonly code: 'not-found' | 'other-ticket';
  readonly description: string;
  readonly ticketId: string;
  readonly key?: string;
}

/** A send queue: the producer side, and workers started with {@link SendQueue.startWorker}. */
export interface SendQueue {
  readonly name: string;
  /**
   * Enqueues a message under `key`. An invalid message is refused with core's 540 error (the
   * service's own code and description) and nothing is stored. A key seen before (within
   * `retentionMs`) adds nothing and answers `created: false` with the message's state.
   */
  enqueue(request: MtRequest, options: { readonly key: string; readonly delayMs?: number }): Promise<Result<Enqueued, MtRequestError>>;
  /** Enqueues many messages in a few round trips; one result per item, in order. */
  enqueueMany(items: readonly EnqueueItem[]): Promise<Result<Enqueued, MtRequestError>[]>;
  /** The message of a key, `undefined` when unknown (or expired). */
  getMessage(key: string): Promise<QueuedMessage | undefined>;
  /** The messages of many keys, in order. */
  getMessages(keys: readonly string[]): Promise<(QueuedMessage | undefined)[]>;
  /** Keys of the messages in `unknown`, oldest first. */
  unknownFates(options?: { readonly offset?: number; readonly count?: number }): Promise<string[]>;
  /** Sends an `unknown` message again, knowing it may then arrive twice. */
  resend(key: string): Promise<Result<{ readonly key: string; readonly state: 'queued' }, ResolveError>>;
  /** Settles an `unknown` message as `abandoned`: it is not sent again. */
  abandon(key: string): Promise<Result<{ readonly key: string; readonly state: 'abandoned' }, ResolveError>>;
  /**
   * Moves a message to its final state by a delivery receipt (one per part; the parts are folded
   * with core's `foldReceipts`). Wire it to any receiver: `onDeliveryReceipt: (r) => queue.recordDeliveryReceipt(r)`.
   * Answer the service 200 whatever it returns: an unmatched receipt is not an error of the callback.
   */
  recordDeliveryReceipt(receipt: DeliveryReceipt): Promise<Result<ReceiptRecorded, ReceiptUnmatched>>;
  /** Starts a worker in this process (as many as you like, in as many processes). */
  startWorker(options?: WorkerOptions): SendWorker;
  /** Calls `listener` on every state change made by any process (Redis pub/sub: at most once, while subscribed). Resolves to the unsubscribe function. */
  subscribe(listener: (change: StateChange) => void): Promise<() => Promise<void>>;
  /**
   * Why Redis could lose writes it acknowledged, as read at start from every master (empty: it keeps
   * them; see the `persistence` option). Resolves once read (within `operationTimeoutMs`); a read that
   * failed (Redis not reachable) is tried again.
   */
  persistenceProblems(): Promise<readonly string[]>;
  /** Closes the workers started here, the subscriptions and the connections the queue opened. */
  close(): Promise<void>;
  /** The BullMQ queue (for dashboards and metrics; add jobs only through `enqueue`). */
  readonly bullQueue: Queue<SendJobData>;
}

const DAY_MS = 24 * 3_600_000;

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MT_LIMITS.noteMaxLength) {
    throw new TypeError(`key must be a string of 1 to ${MT_LIMITS.noteMaxLength} characters, got ${typeof key === 'string' ? `${key.length} characters` : String(key)}`);
  }
  if (!key.isWellFormed()) throw new TypeError('key must be well-formed text (no lone surrogate)');
  return key;
}

function checkDuration(name: string, value: unknown, min = 0): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw new TypeError(`${name} must be a finite number >= ${min}, got ${String(value)}`);
  return value;
}

/**
 * Creates a send queue. Options are checked at once (a bad one is a `TypeError`).
 *
 * @example
 * import { createSendQueue } from '@smsv4/queue';
 *
 * const queue = createSendQueue({
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   clientOptions: { baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password' },
 *   rateLimit: { perSecond: 50 },
 * });
 * const result = await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } }, { key: 'order-1234-shipped' });
 * if (!result.ok) console.error(result.error.code, result.error.description); // 540 ...
 * queue.startWorker();
 */
export function createSendQueue({
  connection,
  name = 'smsv4-send',
  prefix: givenPrefix,
  operationTimeoutMs = 5_000,
  closeTimeoutMs = 35_000,
  persistence = 'warn',
  onWarning = (message: string) => console.warn(message),
  client: givenClient,
  clientOptions,
  accountId = clientOptions?.accountId,
  rateLimit,
  concurrency = 10,
  keyInNote2 = false,
  sendTimeoutMs = 30_000,
  retry = {},
  retentionMs = 7 * DAY_MS,
  lockDurationMs = 30_000,
  stalledIntervalMs = 30_000,
  onStateChange,
  onError = () => undefined,
  telemetry: telemetryOption,
  logger,
}: SendQueueOptions): SendQueue {
  const telemetry = telemetryOption ?? (logger === undefined ? undefined : createTelemetry({ logger }));
  if (connection === null || typeof connection !== 'object') throw new TypeError('connection must be ioredis options, an ioredis instance or an ioredis Cluster');
  if (typeof name !== 'string' || name === '' || name.includes(':')) throw new TypeError('name must be a non-empty string without ":"');
  const cluster = isCluster(connection as Redis | Cluster);
  const prefix = givenPrefix ?? (cluster ? `{${name}}` : 'bull');
  if (typeof prefix !== 'string' || prefix === '') throw new TypeError('prefix must be a non-empty string');
  if (cluster && !/\{[^}]+\}/.test(prefix)) {
    throw new TypeError(`on Redis Cluster the prefix needs a hash tag, so that each script touches one slot: e.g. '{${name}}' (one tag per queue), got '${prefix}'`);
  }
  checkDuration('operationTimeoutMs', operationTimeoutMs);
  checkDuration('closeTimeoutMs', closeTimeoutMs);
  if (persistence !== 'warn' && persistence !== 'require' && persistence !== 'ignore') throw new TypeError(`persistence must be 'warn', 'require' or 'ignore', got ${String(persistence)}`);
  if (typeof onWarning !== 'function') throw new TypeError('onWarning must be a function');
  if ((givenClient === undefined) === (clientOptions === undefined)) throw new TypeError('give either client or clientOptions');
  if (typeof accountId !== 'string' || accountId === '') throw new TypeError('accountId is required with client (the account the rate limit applies to)');
  checkRateLimit(rateLimit);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  if (typeof keyInNote2 !== 'boolean') throw new TypeError('keyInNote2 must be a Boolean');
  checkDuration('sendTimeoutMs', sendTimeoutMs);
  checkDuration('retentionMs', retentionMs, 1000);
  checkDuration('lockDurationMs', lockDurationMs, 100);
  checkDuration('stalledIntervalMs', stalledIntervalMs, 100);
  if (onStateChange !== undefined && typeof onStateChange !== 'function') throw new TypeError('onStateChange must be a function');
  if (typeof onError !== 'function') throw new TypeError('onError must be a function');
  if (retry === null || typeof retry !== 'object') throw new TypeError('retry must be an object');
  const { allowShortTemporaryErrorDelay = false } = retry;
  if (typeof allowShortTemporaryErrorDelay !== 'boolean') throw new TypeError('retry.allowShortTemporaryErrorDelay must be a Boolean');
  const resolvedRetry: ResolvedRetry = {
    maxRetries: checkDuration('retry.maxRetries', retry.maxRetries ?? 10),
    initialDelayMs: checkDuration('retry.initialDelayMs', retry.initialDelayMs ?? 1000),
    maxDelayMs: checkDuration('retry.maxDelayMs', retry.maxDelayMs ?? 60_000),
    temporaryErrorDelayMs: checkDuration('retry.temporaryErrorDelayMs', retry.temporaryErrorDelayMs ?? TEMPORARY_ERROR_DELAY_MS),
  };
  if (resolvedRetry.temporaryErrorDelayMs < TEMPORARY_ERROR_DELAY_MS && !allowShortTemporaryErrorDelay) {
    throw new TypeError(
      `retry.temporaryErrorDelayMs must be at least ${TEMPORARY_ERROR_DELAY_MS} ms (the spec: after a 1010, retry at intervals of 10 seconds or more), got ${resolvedRetry.temporaryErrorDelayMs}; against a sandbox only, set retry.allowShortTemporaryErrorDelay: true`,
    );
  }
  if (!Number.isSafeInteger(resolvedRetry.maxRetries)) throw new TypeError('retry.maxRetries must be an integer');

  // The queue retries sends itself (1010 frees the worker), so the client it creates never does.
  const client = givenClient ?? createClient({ ...(clientOptions as ClientOptions), retry: { ...(clientOptions?.retry === false ? {} : clientOptions?.retry), send: false } });
  const ownsRedis = !(connection instanceof Redis) && !cluster;
  // A cluster is used as it is: the store's scripts and pipelines go to the slot of the queue's tag.
  const redis = (connection instanceof Redis || cluster ? connection : new Redis({ ...(connection as RedisOptions), maxRetriesPerRequest: null })) as Redis;
  redis.on('error', onError);
  const keys = storeKeys(prefix, name);
  const observer = telemetry === undefined ? undefined : queueTelemetry(telemetry);
  const changed = (transition: Transition): void => {
    observer?.observe(transition);
    if (onStateChange === undefined) return;
    const { description: _description, ...change } = transition;
    try {
      onStateChange(change);
    } catch {
      // A listener cannot undo a state change.
    }
  };
  const store = createMessageStore({ redis, keys, retentionMs, onTransition: changed });
  const gate = createSendGate(redis, prefix, accountId, rateLimit);
  const bullQueue = new Queue<SendJobData>(name, { connection: connection as RedisOptions | Redis, prefix });
  dropErrorsOfClosedConnections(bullQueue);
  // Read at start: a risk is told (or, with 'require', every call refused) before anything is lost.
  // A read that failed (Redis not reachable yet) is tried again by the next call that needs it.
  const readable = connection instanceof Redis || cluster ? (connection as Redis | Cluster) : redis;
  type Read = { readonly problems: readonly string[]; readonly read: boolean };
  const readOnce = (): Promise<Read> =>
    withinBound('reading the persistence of Redis', operationTimeoutMs, readPersistence(readable)).then(
      (verdict) => ({ problems: verdict.problems, read: true }),
      (e: unknown) => ({ problems: [`the persistence settings of Redis could not be read (${e instanceof Error ? e.message : String(e)}): make sure it keeps an append-only file`], read: false }),
    );
  let persistenceRead: Promise<Read> = persistence === 'ignore' ? Promise.resolve({ problems: [], read: true }) : readOnce();
  const persistenceProblems = async (): Promise<readonly string[]> => {
    let current = await persistenceRead;
    if (!current.read) {
      persistenceRead = readOnce();
      current = await persistenceRead;
    }
    return current.problems;
  };
  if (persistence === 'warn') {
    void persistenceRead.then(({ problems }) => {
      for (const problem of problems) {
        try {
          onWarning(`@smsv4/queue: ${problem}. A crash of Redis would then lose messages answered created: true (never sent, never recorded). Set appendonly yes with appendfsync everysec or always (see the README), or persistence: 'ignore'.`);
        } catch {
          // A warning that throws stops nothing.
        }
      }
    });
  }
  /** Runs a call within the bound (and, with `persistence: 'require'`, only on a Redis that keeps its writes). */
  const guarded = async <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    if (persistence === 'require') {
      const problems = await persistenceProblems();
      if (problems.length > 0) throw new QueueUnavailableError('persistence', operation, `${operation}: refused, as Redis may lose acknowledged writes: ${problems.join('; ')}`);
    }
    return withinBound(operation, operationTimeoutMs, work());
  };
  bullQueue.on('error', onError);
  /** The subscribers' connections, cut by a close past its bound. */
  const subscribers = new Set<Redis | Cluster>();
  /**
   * Waits for `graceful` up to `closeTimeoutMs`; past it, `cut` the connections and tell `onError`
   * (what was in progress is found later as an unknown fate). Rejects as `graceful` does within it.
   */
  const closeWithin = async (graceful: Promise<unknown>, cut: () => void, operation: string): Promise<void> => {
    if (closeTimeoutMs === 0) {
      await graceful;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<'bound'>((resolve) => (timer = setTimeout(resolve, closeTimeoutMs, 'bound')));
    const first = await Promise.race([graceful.then(() => 'closed' as const), bound]).finally(() => clearTimeout(timer));
    if (first === 'closed') return;
    graceful.catch(() => undefined);
    cut();
    onError(new QueueUnavailableError('timeout', operation, `${operation} did not end within ${closeTimeoutMs} ms (Redis not answering): its connections were cut; the sends in progress are found later as unknown fates (worker-lost)`));
  };

  const stopDepth = telemetry?.observeQueueDepth(() => bullQueue.getJobCountByTypes('waiting', 'delayed', 'prioritized'));
  const keepFailedSeconds = Math.ceil(retentionMs / 1000);
  const jobOptions = (key: string, generation: number, delayMs?: number) => ({
    jobId: jobIdOf(key, generation),
    removeOnComplete: true,
    removeOnFail: { age: keepFailedSeconds },
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    ...(delayMs === undefined || delayMs <= 0 ? {} : { delay: Math.ceil(delayMs) }),
  });
  const workers = new Set<RunningWorker>();
  const subscriptions = new Set<() => Promise<void>>();

  const prepare = (item: EnqueueItem): Result<MtRequest, MtRequestError> => {
    const { request } = item;
    let candidate: unknown = request;
    if (keyInNote2 && request !== null && typeof request === 'object' && !Array.isArray(request)) {
      const options = (request as { options?: unknown }).options;
      if (options !== undefined && options !== null && typeof options === 'object' && (options as { note2?: unknown }).note2 !== undefined) {
        throw new TypeError('with keyInNote2, options.note2 carries the key: leave it out of the request');
      }
      candidate = { ...request, options: { ...(options !== null && typeof options === 'object' ? options : {}), note2: item.key } };
    }
    return validateMtRequest(candidate);
  };

  const enqueueManyNow: SendQueue['enqueueMany'] = async (items) => {
    if (!Array.isArray(items)) throw new TypeError('enqueueMany takes an array of { request, key, delayMs? }');
    for (const item of items) {
      if (item === null || typeof item !== 'object') throw new TypeError('each item must be { request, key, delayMs? }');
      checkKey(item.key);
      if (item.delayMs !== undefined) checkDuration('delayMs', item.delayMs);
    }
    const checked = items.map(prepare);
    const valid = items.flatMap((item, index) => {
      const result = checked[index];
      return result?.ok === true ? [{ index, key: item.key, request: result.value, delayMs: item.delayMs }] : [];
    });
    const created = await store.createMany(valid);
    const jobs = valid.flatMap((item, i) => {
      const record = created[i];
      // A queued record gets its job (again): adding an existing job ID adds nothing.
      return record?.state === 'queued' ? [{ name: 'send', data: { key: item.key }, opts: jobOptions(item.key, record.generation, item.delayMs) }] : [];
    });
    if (jobs.length > 0) await bullQueue.addBulk(jobs);
    const results: Result<Enqueued, MtRequestError>[] = checked.map((result) => (result.ok ? { ok: true, value: { key: '', created: false, state: 'queued' } } : result));
    valid.forEach((item, i) => {
      const record = created[i] as { created: boolean; state: MessageState };
      results[item.index] = { ok: true, value: { key: item.key, created: record.created, state: record.state } };
    });
    return results;
  };

  const enqueueMany: SendQueue['enqueueMany'] = (items) => {
    // Argument errors are thrown at once, before any wait.
    if (!Array.isArray(items)) throw new TypeError('enqueueMany takes an array of { request, key, delayMs? }');
    return guarded('enqueueMany', () => enqueueManyNow(items));
  };

  const resolveError = (key: string, found: { kind: 'not-unknown'; state: MessageState } | { kind: 'missing' }): { ok: false; error: ResolveError } =>
    found.kind === 'missing'
      ? { ok: false, error: { code: 'not-found', description: `no message with key ${key}` } }
      : { ok: false, error: { code: 'not-unknown', description: `the message is ${found.state}, not unknown`, state: found.state } };

  const recordReceipt = async (receipt: DeliveryReceipt, ticketId: string, hint: string | undefined): Promise<Result<ReceiptRecorded, ReceiptUnmatched>> => {
    const recorded = await store.receipt(receipt, hint);
    switch (recorded.kind) {
      case 'waiting':
        return { ok: true, value: { status: 'waiting', ticketId } };
      case 'other-ticket':
        return { ok: false, error: { code: 'other-ticket', description: `the message ${recorded.key} was accepted under another ticket: this receipt is of another send of the key`, ticketId, key: recorded.key } };
      case 'missing':
        return { ok: false, error: { code: 'not-found', description: `no message of this queue has the ticket ${ticketId}`, ticketId } };
      case 'recorded': {
        await settleFromReceipts(store, recorded.key, recorded.receipts);
        const [message] = await store.getMany([recorded.key]);
        if (message === undefined) return { ok: false, error: { code: 'not-found', description: `the message ${recorded.key} expired`, ticketId, key: recorded.key } };
        return { ok: true, value: { status: 'recorded', message } };
      }
    }
  };

  const queue: SendQueue = {
    name,
    bullQueue,
    async enqueue(request, options) {
      if (options === null || typeof options !== 'object') throw new TypeError('enqueue needs { key }');
      const [result] = await guarded('enqueue', () => enqueueManyNow([{ request, key: options.key, ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }) }]));
      return result as Result<Enqueued, MtRequestError>;
    },
    enqueueMany,
    async getMessage(key) {
      const checked = checkKey(key);
      const [message] = await guarded('getMessage', () => store.getMany([checked]));
      return message;
    },
    getMessages(list) {
      const checked = list.map(checkKey);
      return guarded('getMessages', () => store.getMany(checked));
    },
    async unknownFates({ offset = 0, count = 100 } = {}) {
      if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(count) || count < 1) throw new TypeError('offset must be >= 0 and count >= 1 (integers)');
      return guarded('unknownFates', () => store.unknownKeys(offset, count));
    },
    async resend(key) {
      const checked = checkKey(key);
      return guarded('resend', async () => {
        const found = await store.resend(checked);
        if (found.kind !== 'ok') return resolveError(key, found);
        await bullQueue.add('send', { key }, jobOptions(key, found.generation));
        return { ok: true, value: { key, state: 'queued' } } as const;
      });
    },
    async abandon(key) {
      const checked = checkKey(key);
      const found = await guarded('abandon', () => store.abandon(checked));
      if (found.kind !== 'ok') return resolveError(key, found);
      return { ok: true, value: { key, state: 'abandoned' } };
    },
    async recordDeliveryReceipt(receipt) {
      const ticketId = receipt?.mtStatus?.ticketId;
      if (typeof ticketId !== 'string') throw new TypeError('recordDeliveryReceipt takes a decoded delivery receipt');
      const note2 = receipt.mtStatus.note2;
      const hint = keyInNote2 && typeof note2 === 'string' && note2 !== '' && note2.length <= MT_LIMITS.noteMaxLength ? note2 : undefined;
      return guarded('recordDeliveryReceipt', () => recordReceipt(receipt, ticketId, hint));
    },
    startWorker(options = {}) {
      const workerConcurrency = options.concurrency ?? concurrency;
      if (!Number.isSafeInteger(workerConcurrency) || workerConcurrency < 1) throw new TypeError(`concurrency must be a positive integer, got ${String(workerConcurrency)}`);
      const worker = startSendWorker(
        {
          name,
          prefix,
          connection: connection as RedisOptions | Redis,
          client,
          store,
          gate,
          queue: bullQueue,
          jobOptions,
          retry: resolvedRetry,
          sendTimeoutMs: sendTimeoutMs === 0 ? undefined : sendTimeoutMs,
          lockDurationMs,
          stalledIntervalMs,
          onError,
          ...(observer === undefined ? {} : { runSend: observer.runSend }),
        },
        workerConcurrency,
      );
      workers.add(worker);
      return {
        worker: worker.worker,
        close: async () => {
          workers.delete(worker);
          await closeWithin(worker.close(), () => worker.cut(), 'closing a worker');
        },
      };
    },
    persistenceProblems,
    async subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('subscribe takes a function');
      const subscriber = redis.duplicate();
      subscribers.add(subscriber);
      subscriber.on('error', onError);
      subscriber.on('message', (_channel: string, message: string) => {
        try {
          const change = JSON.parse(message) as { key: string; state: MessageState; previous: MessageState | false; at: number; ticketId?: string; code?: string | number };
          listener({
            key: change.key,
            state: change.state,
            ...(change.previous === false ? {} : { previous: change.previous }),
            at: change.at,
            ...(change.ticketId === undefined ? {} : { ticketId: change.ticketId }),
            ...(change.code === undefined ? {} : { code: change.code }),
          });
        } catch {
          // A listener's error (or a foreign message on the channel) stops nothing.
        }
      });
      await subscriber.subscribe(keys.changes);
      const unsubscribe = async (): Promise<void> => {
        if (!subscriptions.delete(unsubscribe)) return;
        await subscriber.quit().catch(() => subscriber.disconnect());
        subscribers.delete(subscriber);
      };
      subscriptions.add(unsubscribe);
      return unsubscribe;
    },
    async close() {
      stopDepth?.();
      const closing = [...workers];
      const graceful = (async () => {
        await Promise.all(closing.map((worker) => worker.close()));
        await Promise.all([...subscriptions].map((unsubscribe) => unsubscribe()));
        await bullQueue.close();
        if (ownsRedis) await redis.quit().catch(() => redis.disconnect());
      })();
      workers.clear();
      await closeWithin(graceful, () => {
        for (const worker of closing) worker.cut();
        for (const subscriber of subscribers) subscriber.disconnect();
        cutConnections(bullQueue);
        if (ownsRedis) redis.disconnect();
      }, 'closing the queue');
    },
  };
  return queue;
}


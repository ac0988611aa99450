/**
 * A worker: a BullMQ `Worker` whose processor sends one message per job, send-safely. For each job:
 * wait for the account's send slot (or its pause) → mark the message in flight in Redis (atomically, refusing if
 * it already is: then it is parked as an unknown fate) → send → record the outcome. A 1010 moves
 * the job to BullMQ's delayed set and frees the worker.
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { foldReceipts, type DeliveryReceipt } from '@smsv4/core';
import type { SmsClient } from '@smsv4/transport-fetch';
import { DelayedError, Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import { cutConnections, dropErrorsOfClosedConnections } from './closing-connections.js';
import type { MessageStore } from './message-store.js';
import type { SendGate } from './send-gate.js';
import { outcomeOfError, retryDelay, type SendOutcome } from './send-outcome.js';

/** The data of a send job: only the key (the message lives in the store). */
export interface SendJobData {
  readonly key: string;
}

/** Retry settings of the queue (every member resolved). */
export interface ResolvedRetry {
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly temporaryErrorDelayMs: number;
}

/** What a worker needs. */
export interface WorkerContext {
  readonly name: string;
  readonly prefix: string;
  readonly connection: ConnectionOptions;
  readonly client: SmsClient;
  readonly store: MessageStore;
  readonly gate: SendGate;
  readonly queue: Queue<SendJobData>;
  readonly jobOptions: (key: string, generation: number, delayMs?: number) => { jobId: string } & Record<string, unknown>;
  readonly retry: ResolvedRetry;
  readonly sendTimeoutMs: number | undefined;
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  /** Called with errors a worker cannot pass to anyone (Redis errors outside a job, failed bookkeeping). */
  readonly onError: (error: unknown) => void;
  /** Runs the send of `key` (the client call) inside its telemetry span, when there is one. */
  readonly runSend?: <T>(key: string, send: () => T) => T;
}

/** Options of one worker. */
export interface WorkerOptions {
  /** Jobs processed at once by this worker (default: the queue's `concurrency`). */
  readonly concurrency?: number;
}

/** A running worker. */
export interface SendWorker {
  /** Stops taking jobs and waits for the sends in progress to be recorded. */
  close(): Promise<void>;
  /** The BullMQ worker (events, metrics). */
  readonly worker: Worker<SendJobData>;
}

/**
 * Folds the receipts recorded for a message and, when every part has one, moves it from
 * `accepted` to `delivered` or `failed` with the summary code.
 */
export async function settleFromReceipts(store: MessageStore, key: string, receipts: readonly DeliveryReceipt[]): Promise<void> {
  if (receipts.length === 0) return;
  const ticketId = receipts[receipts.length - 1]?.mtStatus.ticketId;
  const own = receipts.filter((r) => r.mtStatus.ticketId === ticketId);
  const status = foldReceipts(own);
  if (!status.complete || status.outcome === 'pending') return;
  await store.settle(key, 'accepted', status.outcome, status.code, status.description, ticketId);
}

/** Starts a worker in this process. */
/** A worker as the queue holds it: a close past its bound cuts its connections. */
export interface RunningWorker extends SendWorker {
  /** Cuts the worker's connections at once: what they were waiting for rejects, nothing is sent. */
  cut(): void;
}

export function startSendWorker(context: WorkerContext, concurrency: number): RunningWorker {
  const { store, gate, client, retry, queue } = context;
  const identity = `${hostname()}/${process.pid}`;
  let sends = 0;
  // Waits for a slot shorter than this are waited in the job; longer ones move it to the delayed set.
  const maxInlineWaitMs = Math.max(100, Math.min(5_000, context.lockDurationMs / 3));

  /** Moves the job to the delayed set until `at`; if this worker lost the job meanwhile, carries on with a new one. */
  const delay = async (job: Job<SendJobData>, token: string | undefined, at: number): Promise<never | void> => {
    try {
      await job.moveToDelayed(at, token);
    } catch (error) {
      context.onError(error);
      const generation = await store.nextGeneration(job.data.key);
      if (generation !== undefined) await queue.add('send', job.data, context.jobOptions(job.data.key, generation, Math.max(0, at - Date.now())));
      return;
    }
    throw new DelayedError();
  };

  const record = async (key: string, token: string, outcome: SendOutcome, retries: number, job: Job<SendJobData>, jobToken: string | undefined): Promise<void> => {
    if (outcome.kind !== 'accepted' && outcome.pauseMs !== undefined) await gate.pause(outcome.pauseMs).catch(context.onError);
    switch (outcome.kind) {
      case 'accepted': {
        const finished = await store.finish(key, token, 'accepted', outcome);
        if (finished.recorded) await settleFromReceipts(store, key, finished.receipts);
        return;
      }
      case 'rejected':
      case 'unknown':
        await store.finish(key, token, outcome.kind, outcome);
        return;
      case 'retry': {
        if (retries >= retry.maxRetries) {
          await store.finish(key, token, 'rejected', { ...outcome, kind: 'rejected', reason: 'retries-exhausted', description: `${retries + 1} attempts refused; the last: ${outcome.description}` });
          return;
        }
        // The wait counts from the moment written on the record, so retryAt - updatedAt is never short of it.
        const now = Date.now();
        const at = now + retryDelay(retries, outcome.minDelayMs, retry);
        const finished = await store.finish(key, token, 'retrying', outcome, { retryAt: at }, now);
        if (finished.recorded) await delay(job, jobToken, at);
        return;
      }
    }
  };

  const processor = async (job: Job<SendJobData>, jobToken?: string): Promise<void> => {
    const { key } = job.data;
    if (gate.limited) {
      const slot = await gate.reserve(maxInlineWaitMs);
      if (!slot.reserved) return delay(job, jobToken, Date.now() + slot.waitMs);
      if (slot.waitMs > 0) await sleep(slot.waitMs);
      // A process that was stalled wakes several sends at once: none leaves while the account's last second is full.
      for (let waitMs = await gate.admit(); waitMs > 0; waitMs = await gate.admit()) await sleep(waitMs);
    }
    const token = `${identity}/${job.id}/${++sends}`;
    let begun = await store.begin(key, token, gate.limited ? undefined : gate.pauseKey);
    // Without a rate limit, a pause (Retry-After) is found here: wait it out, or come back later.
    while (begun.kind === 'paused') {
      if (begun.waitMs > maxInlineWaitMs) return delay(job, jobToken, Date.now() + begun.waitMs);
      await sleep(begun.waitMs);
      begun = await store.begin(key, token, gate.pauseKey);
    }
    if (begun.kind === 'later') return delay(job, jobToken, begun.retryAt);
    if (begun.kind !== 'go') return;
    // In flight from here: whatever happens to this process, the message is never sent again blindly.
    let outcome: SendOutcome;
    try {
      const request = begun.request;
      const call = () => client.send(request, { validate: false, ...(context.sendTimeoutMs === undefined ? {} : { timeoutMs: context.sendTimeoutMs }) });
      const sent = await (context.runSend === undefined ? call() : context.runSend(key, call));
      outcome = { kind: 'accepted', ticketId: sent.ticketId, httpStatus: sent.httpStatus, ...(sent.requestId === undefined ? {} : { requestId: sent.requestId }) };
    } catch (error) {
      outcome = outcomeOfError(error, retry.temporaryErrorDelayMs);
    }
    await record(key, token, outcome, begun.retries, job, jobToken);
  };

  const worker = new Worker<SendJobData>(context.name, processor, {
    connection: context.connection,
    prefix: context.prefix,
    concurrency,
    lockDuration: context.lockDurationMs,
    stalledInterval: context.stalledIntervalMs,
    // A stalled job is always safe to hand out again: its in-flight marker parks it if it was mid-send.
    maxStalledCount: 1_000_000,
  });
  worker.on('error', (error) => context.onError(error));
  dropErrorsOfClosedConnections(worker);
  worker.on('failed', (job, error) => {
    if (job === undefined || error instanceof DelayedError) return;
    if ((job.attemptsMade ?? 0) < (job.opts.attempts ?? 1)) return;
    store.jobFailed(job.data.key, `the job failed ${job.attemptsMade} times; the last error: ${error.message}`).catch(context.onError);
  });
  return {
    worker,
    async close() {
      // BullMQ before 6.7 arms the stalled check's next round after a close that came during a
      // round in flight (always, for a worker closed as it starts): that timer would hold the
      // process `stalledIntervalMs` (30 s by default) after close() resolved. Whatever round is armed
      // from now on waits 1 ms, then sees the worker closing and stops.
      worker.opts.stalledInterval = 1;
      await worker.close();
    },
    cut() {
      cutConnections(worker);
    },
  };
}

/**
 * The messages of one queue in Redis: key names, the scripts' calls, and the decoding of a stored
 * record into a {@link QueuedMessage}.
 */
import { foldReceipts, type DeliveryReceipt, type MtRequest } from '@smsv4/core';
import type { Redis } from 'ioredis';
import { MESSAGE_STATES, type MessageState, type OutcomeReason, type QueuedMessage, type StateChange } from './message-state.js';
import { defineScripts, scriptCommand, type Scripts } from './redis-scripts.js';
import type { SendOutcome } from './send-outcome.js';

/** Key names of one queue's records (all under `<prefix>:<name>:sms`, so a hash tag in the prefix keeps them in one slot). */
export interface StoreKeys {
  readonly message: (key: string) => string;
  readonly receipts: (key: string) => string;
  readonly ticket: (ticketId: string) => string;
  readonly early: (ticketId: string) => string;
  readonly unknown: string;
  readonly changes: string;
}

/** The key names of the queue `name` under `prefix`. */
export function storeKeys(prefix: string, name: string): StoreKeys {
  const base = `${prefix}:${name}:sms`;
  return {
    message: (key) => `${base}:m:${key}`,
    receipts: (key) => `${base}:r:${key}`,
    ticket: (ticketId) => `${base}:t:${ticketId}`,
    early: (ticketId) => `${base}:e:${ticketId}`,
    unknown: `${base}:unknown`,
    changes: `${base}:changes`,
  };
}

/** A state change the store made (for the local hook): a {@link StateChange}, with the description of its code for telemetry. */
export interface Transition extends StateChange {
  /** The service's description of `code` (a rejection's, a delivery status'), or why the outcome is unknown. */
  readonly description?: string;
}

/** What a change carries beside its state. */
type Facts = Pick<Transition, 'ticketId' | 'code' | 'description'>;

/** What `begin` found. */
export type BeginResult =
  | { readonly kind: 'go'; readonly request: MtRequest; readonly retries: number }
  | { readonly kind: 'later'; readonly retryAt: number }
  | { readonly kind: 'paused'; readonly waitMs: number }
  | { readonly kind: 'parked' }
  | { readonly kind: 'settled'; readonly state: MessageState }
  | { readonly kind: 'missing' };

/** What a receipt did. */
export type ReceiptResult =
  | { readonly kind: 'recorded'; readonly key: string; readonly previous: MessageState; readonly receipts: readonly DeliveryReceipt[] }
  | { readonly kind: 'waiting' }
  | { readonly kind: 'other-ticket'; readonly key: string }
  | { readonly kind: 'missing' };

/** How long a receipt waits for its ticket to be known: one day. */
const EARLY_RECEIPT_TTL_MS = 24 * 3_600_000;

/** States a receipt moves to `accepted` (see `RECEIPT` in the scripts). */
const SETTLED_BY_RECEIPT: readonly MessageState[] = ['sending', 'unknown', 'abandoned', 'queued', 'retrying'];

const isState = (value: unknown): value is MessageState => typeof value === 'string' && (MESSAGE_STATES as readonly string[]).includes(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));

function parseReceipts(values: unknown): DeliveryReceipt[] {
  if (!Array.isArray(values)) return [];
  const receipts: DeliveryReceipt[] = [];
  for (const value of values) {
    try {
      receipts.push(JSON.parse(text(value)) as DeliveryReceipt);
    } catch {
      // A receipt stored by this module is always JSON; anything else is ignored.
    }
  }
  return receipts;
}

/** What a change to the outcome's state carries: the ticket of an acceptance, else the code (as stored: a string) and description. */
function factsOf(outcome: SendOutcome): Facts {
  if (outcome.kind === 'accepted') return { ticketId: outcome.ticketId };
  return { ...(outcome.code === undefined ? {} : { code: String(outcome.code) }), description: outcome.description };
}

/** Field/value pairs of an outcome, as `finish` stores them. */
function outcomeFields(outcome: SendOutcome, extra: Readonly<Record<string, string | number | undefined>>): (string | number)[] {
  const fields: Record<string, string | number | undefined> = { ...extra, requestId: outcome.requestId, httpStatus: outcome.httpStatus };
  if (outcome.kind === 'accepted') {
    fields.ticketId = outcome.ticketId;
  } else {
    fields.code = outcome.code === undefined ? undefined : String(outcome.code);
    fields.description = outcome.description;
    if (outcome.kind !== 'retry') fields.reason = outcome.reason;
  }
  return Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [name, value]));
}

/** Options of {@link createMessageStore}. */
export interface MessageStoreOptions {
  readonly redis: Redis;
  readonly keys: StoreKeys;
  /** How long a settled message is kept, ms. */
  readonly retentionMs: number;
  /** Called after every state change this process made. */
  readonly onTransition: (transition: Transition) => void;
}

/** The store of one queue. */
export type MessageStore = ReturnType<typeof createMessageStore>;

/** Binds the scripts to the queue's keys. */
export function createMessageStore({ redis, keys, retentionMs, onTransition }: MessageStoreOptions) {
  const scripts: Scripts = defineScripts(redis);
  const report = (key: string, state: MessageState, previous: unknown, at: number, facts: Facts = {}): void => {
    if (previous === state) return;
    onTransition({
      key,
      state,
      ...(isState(previous) ? { previous } : {}),
      at,
      ...(facts.ticketId === undefined ? {} : { ticketId: facts.ticketId }),
      ...(facts.code === undefined ? {} : { code: facts.code }),
      ...(facts.description === undefined ? {} : { description: facts.description }),
    });
  };

  return {
    /** Creates the record unless the key has one. */
    async createMany(items: readonly { readonly key: string; readonly request: MtRequest }[]): Promise<{ created: boolean; state: MessageState; generation: number }[]> {
      const now = Date.now();
      const pipeline = redis.pipeline() as unknown as Record<string, (...args: (string | number)[]) => unknown> & { exec(): Promise<[Error | null, unknown][] | null> };
      const command = scriptCommand('create');
      for (const { key, request } of items) pipeline[command]?.(keys.message(key), key, JSON.stringify(request), now, keys.changes);
      const replies = (await pipeline.exec()) ?? [];
      return items.map(({ key }, index) => {
        const [error, reply] = replies[index] ?? [new Error('no reply')];
        if (error) throw error;
        const [created, state, generation] = reply as [number, string, string | null];
        if (created === 1) report(key, 'queued', undefined, now);
        return { created: created === 1, state: isState(state) ? state : 'queued', generation: Number(generation ?? 0) };
      });
    },

    /**
     * Marks the message in flight before its request leaves (see `BEGIN`); with `pauseKey`, not
     * while the account is paused.
     */
    async begin(key: string, token: string, pauseKey?: string): Promise<BeginResult> {
      const now = Date.now();
      const [kind, a, b] = await scripts.begin(keys.message(key), keys.unknown, pauseKey ?? keys.unknown, key, token, now, keys.changes, pauseKey === undefined ? '0' : '1');
      switch (kind) {
        case 'go': {
          report(key, 'sending', undefined, now);
          return { kind: 'go', request: JSON.parse(text(a)) as MtRequest, retries: Number(b ?? 0) };
        }
        case 'later':
          return { kind: 'later', retryAt: Number(a) };
        case 'paused':
          return { kind: 'paused', waitMs: Number(a) };
        case 'parked':
          report(key, 'unknown', 'sending', now);
          return { kind: 'parked' };
        case 'settled':
          return { kind: 'settled', state: isState(a) ? a : 'queued' };
        default:
          return { kind: 'missing' };
      }
    },

    /** Records the outcome of the send marked with `token`; `false` when the record moved on meanwhile. */
    async finish(
      key: string,
      token: string,
      state: 'accepted' | 'retrying' | 'rejected' | 'unknown',
      outcome: SendOutcome,
      extra: Readonly<Record<string, string | number | undefined>> = {},
      now = Date.now(),
    ): Promise<{ recorded: boolean; receipts: DeliveryReceipt[] }> {
      const ticketId = outcome.kind === 'accepted' ? outcome.ticketId : '';
      const reply = await scripts.finish(
        keys.message(key),
        keys.unknown,
        keys.ticket(ticketId),
        keys.early(ticketId),
        keys.receipts(key),
        key,
        token,
        now,
        keys.changes,
        state,
        retentionMs,
        ...outcomeFields(outcome, { ...(state === 'accepted' ? { acceptedAt: now } : {}), ...extra }),
      );
      if (reply[0] !== 'ok') return { recorded: false, receipts: [] };
      report(key, state, reply[1], now, factsOf(outcome));
      return { recorded: true, receipts: parseReceipts(reply[2]) };
    },

    /** Records a receipt (see `RECEIPT`); one whose ticket and key are both unknown waits under its ticket (see `EARLY_RECEIPT`). */
    async receipt(receipt: DeliveryReceipt, keyHint: string | undefined): Promise<ReceiptResult> {
      const { ticketId } = receipt.mtStatus;
      const part = String(receipt.mtStatus.segmentNumber ?? 1);
      const json = JSON.stringify(receipt);
      const record = async (key: string): Promise<ReceiptResult | undefined> => {
        const now = Date.now();
        const reply = await scripts.receipt(keys.message(key), keys.receipts(key), keys.unknown, keys.ticket(ticketId), key, ticketId, part, json, now, keys.changes, retentionMs);
        if (reply[0] === 'ok') {
          if (SETTLED_BY_RECEIPT.includes(reply[1] as MessageState)) report(key, 'accepted', reply[1], now, { ticketId });
          return { kind: 'recorded', key, previous: isState(reply[1]) ? reply[1] : 'accepted', receipts: parseReceipts(reply[2]) };
        }
        if (reply[0] === 'other-ticket') return { kind: 'other-ticket', key };
        return undefined;
      };
      const known = await redis.get(keys.ticket(ticketId));
      if (known !== null) return (await record(known)) ?? { kind: 'missing' };
      if (keyHint !== undefined) {
        const recorded = await record(keyHint);
        if (recorded !== undefined) return recorded;
      }
      // The ticket is not stored yet (the worker is recording the answer): the receipt waits for it.
      const early = await scripts.earlyReceipt(keys.early(ticketId), keys.ticket(ticketId), part, json, Math.min(retentionMs, EARLY_RECEIPT_TTL_MS));
      if (early[0] === 'known') return (await record(text(early[1]))) ?? { kind: 'missing' };
      return { kind: 'waiting' };
    },

    /** Compare-and-set of the state (accepted → delivered / failed by the receipts of `ticketId`). */
    async settle(key: string, expected: MessageState, state: MessageState, code: number, description: string, ticketId?: string): Promise<boolean> {
      const now = Date.now();
      const reply = await scripts.settle(keys.message(key), keys.receipts(key), key, expected, state, code, description, now, keys.changes, retentionMs);
      if (reply[0] !== 'ok') return false;
      report(key, state, expected, now, { ...(ticketId === undefined ? {} : { ticketId }), code, description });
      return true;
    },

    async resend(key: string): Promise<{ kind: 'ok'; generation: number } | { kind: 'not-unknown'; state: MessageState } | { kind: 'missing' }> {
      const now = Date.now();
      const reply = await scripts.resend(keys.message(key), keys.unknown, key, now, keys.changes);
      if (reply[0] === 'ok') {
        report(key, 'queued', 'unknown', now);
        return { kind: 'ok', generation: Number(reply[1]) };
      }
      if (reply[0] === 'not-unknown' && isState(reply[1])) return { kind: 'not-unknown', state: reply[1] };
      return { kind: 'missing' };
    },

    async abandon(key: string): Promise<{ kind: 'ok' } | { kind: 'not-unknown'; state: MessageState } | { kind: 'missing' }> {
      const now = Date.now();
      const reply = await scripts.abandon(keys.message(key), keys.unknown, keys.receipts(key), key, now, keys.changes, retentionMs);
      if (reply[0] === 'ok') {
        report(key, 'abandoned', 'unknown', now);
        return { kind: 'ok' };
      }
      if (reply[0] === 'not-unknown' && isState(reply[1])) return { kind: 'not-unknown', state: reply[1] };
      return { kind: 'missing' };
    },

    /** A new job generation for a `queued` or `retrying` message whose job could not carry it on. */
    async nextGeneration(key: string): Promise<number | undefined> {
      const reply = await scripts.nextGeneration(keys.message(key));
      return reply[0] === 'ok' ? Number(reply[1]) : undefined;
    },

    /** A job failed for good: see `JOB_FAILED`. */
    async jobFailed(key: string, description: string): Promise<void> {
      const now = Date.now();
      const reply = await scripts.jobFailed(keys.message(key), keys.unknown, key, now, keys.changes, description, retentionMs);
      if (reply[0] === 'ok' && isState(reply[2])) report(key, reply[2], reply[1], now);
    },

    /** The messages of some keys (`undefined` for a key without a record). */
    async getMany(list: readonly string[]): Promise<(QueuedMessage | undefined)[]> {
      if (list.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const key of list) pipeline.hgetall(keys.message(key)).hvals(keys.receipts(key));
      const replies = (await pipeline.exec()) ?? [];
      return list.map((key, index) => {
        const [error, fields] = replies[index * 2] ?? [new Error('no reply')];
        if (error) throw error;
        const receipts = parseReceipts((replies[index * 2 + 1] ?? [])[1]);
        return decodeMessage(key, fields as Record<string, string>, receipts);
      });
    },

    /** Keys of the messages in `unknown`, oldest first. */
    async unknownKeys(offset: number, count: number): Promise<string[]> {
      return redis.zrange(keys.unknown, offset, offset + count - 1);
    },
  };
}

/** A stored record as a {@link QueuedMessage}. */
export function decodeMessage(key: string, fields: Readonly<Record<string, string>>, receipts: readonly DeliveryReceipt[]): QueuedMessage | undefined {
  const state = fields.state;
  if (!isState(state) || fields.mt === undefined) return undefined;
  let request: MtRequest;
  try {
    request = JSON.parse(fields.mt) as MtRequest;
  } catch {
    return undefined;
  }
  const num = (name: string): number | undefined => (fields[name] === undefined ? undefined : Number(fields[name]));
  const ticketId = fields.ticketId;
  const own = ticketId === undefined ? receipts : receipts.filter((r) => r.mtStatus.ticketId === ticketId);
  // The delivery status code is a number (as in a receipt); the service's error codes are strings (as the SMS API sends them).
  const code = fields.code === undefined ? undefined : (state === 'delivered' || state === 'failed') && /^[0-9]+$/.test(fields.code) ? Number(fields.code) : fields.code;
  return {
    key,
    state,
    request,
    createdAt: num('createdAt') ?? 0,
    updatedAt: num('updatedAt') ?? 0,
    sends: num('sends') ?? 0,
    retries: num('retries') ?? 0,
    ...(ticketId === undefined ? {} : { ticketId }),
    ...(fields.requestId === undefined ? {} : { requestId: fields.requestId }),
    ...(fields.acceptedAt === undefined ? {} : { acceptedAt: Number(fields.acceptedAt) }),
    ...(code === undefined ? {} : { code }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    ...(fields.httpStatus === undefined ? {} : { httpStatus: Number(fields.httpStatus) }),
    ...(fields.reason === undefined ? {} : { reason: fields.reason as OutcomeReason }),
    ...(fields.retryAt === undefined ? {} : { retryAt: Number(fields.retryAt) }),
    ...(fields.inflight === undefined ? {} : { inFlight: { token: fields.inflight, since: Number(fields.inflightAt ?? 0) } }),
    ...(fields.otherTicketId === undefined ? {} : { otherTicketId: fields.otherTicketId }),
    ...(own.length === 0 ? {} : { delivery: foldReceipts(own) }),
  };
}

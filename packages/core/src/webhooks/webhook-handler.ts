/**
 * A receiver of delivery receipts and inbound messages, platform-neutral: it takes a request as
 * plain data (`{ method, headers, body, remoteAddress }`) and returns the answer as plain data
 * (`{ status, headers, body }`). Framework adapters only translate.
 */
import type { BodyInput } from '../body/body-text.js';
import { DEFAULT_MAX_BODY_BYTES, type WireFormat } from '../codec/wire-format.js';
import type { DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { basicChallenge, credentialsMatch, parseBasicAuthorization } from '../http/basic-auth.js';
import { headerValue, type HeadersLike } from '../http/headers.js';
import { formatOfContentType } from '../http/media-type.js';
import { API_VERSION_HEADER, CALLBACK_API_VERSION, DUPLICATE_MARGIN_MS, INBOUND_RETRY_WINDOW_MS, RECEIPT_RETRY_WINDOW_MS } from '../protocol/service-facts.js';
import { createHandlerDeadlines } from './handler-deadlines.js';
import { decodeCallback, type Callback, type CallbackKind, type InboundCallback } from './decode-callback.js';
import { createMemoryDuplicateStore, type DuplicateStore, type ReserveOutcome } from './duplicate-store.js';
import type { InboundCharset } from './inbound-content.js';
import { runtimeTimers, singleInboundMessage, type InboundMessage, type ReassemblerTimers } from './inbound-reassembler.js';
import { createMemoryReassemblyStore, groupMessage, type PartAddOutcome, type ReassemblyGroup, type ReassemblyStore } from './reassembly-store.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './body-deadline.js';
import { DEFAULT_STORE_TIMEOUT_MS, withinStoreBound } from './store-bound.js';
import { createTelemetry, type CallbackFacts, type CallbackObserver, type SmsTelemetry } from '../telemetry/create-telemetry.js';
import type { TelemetryLogger } from '../telemetry/logger.js';
import { WebhookError, type WebhookErrorCode } from './webhook-error.js';
import { receiverAccess, type BasicAuthCredentials } from './receiver-access.js';
import { normalizeIpAddress } from '../http/ip-address.js';
import { partTooLarge } from './part-limits.js';
import { webhookAccepted, webhookRejection, type WebhookResponse } from './webhook-response.js';
import { checkFunctions, checkPositiveIntegers, checkPositiveNumbers } from '../option-checks.js';

/** Reads a request body of at most `maxBytes` octets; resolves `null` when the body is larger. */
export type BodyReader = (maxBytes: number) => Promise<BodyInput | null>;

/** A callback request as plain data. `P` is whatever the adapter passes through (e.g. the framework's request). */
export interface WebhookRequest<P = unknown> {
  readonly method: string;
  /** A Web `Headers`, or a record such as Node's `IncomingHttpHeaders`. */
  readonly headers: HeadersLike;
  /**
   * The raw body, or a function that reads it with a limit (so that an oversized body is never
   * buffered whole). A reader that rejects answers 400, or 500 when it rejects with a
   * `WebhookError` of code `receiver-misconfigured` (the body was consumed by another parser).
   */
  readonly body: BodyInput | BodyReader;
  /** The peer's IP address, for `allowRemoteAddress` and the handlers' context (may be a getter: read only when needed). */
  readonly remoteAddress?: string;
  /** Handed to the handlers in their context. */
  readonly platform?: P;
}

/** What handlers learn besides the event. */
export interface WebhookContext<P = unknown> {
  /** The duplicate key of the event (`receipt:<ticketId>:<segment>`, `inbound:<ticketId>[...]`). */
  readonly key: string;
  /** The format the event was posted in. */
  readonly format: WireFormat;
  /** Aborted when the handler runs past `handlerTimeoutMs` (the event was answered 503). */
  readonly signal: AbortSignal;
  /** The peer's address, normalised as `allowRemoteAddress` sees it (`::ffff:127.0.0.1` as `127.0.0.1`). */
  readonly remoteAddress?: string;
  /** What the adapter passed through (express: `{ req }`); absent for orphans. */
  readonly platform?: P;
  /**
   * The UTC instant of the event, with milliseconds (`2015-08-29T20:10:03.029Z`), whatever offset
   * the service wrote: a receipt's `deliveryDate`, an inbound message's (earliest part's)
   * `submittedDate`. Absent when the event has none.
   */
  readonly instant?: string;
}

/** A duplicate the receiver answered 200 without calling the handler. */
export interface DuplicateEvent {
  readonly kind: CallbackKind;
  readonly key: string;
  readonly ticketId: string;
  /** `seen`: the key was taken before. `part`: another ticket carried a part number already held for the same multipart message. */
  readonly reason: 'seen' | 'part';
  readonly callback: Callback;
}

/** A handler's result: anything, or a promise; the event is answered 200 once it resolves. */
export type HandlerResult = unknown;

export type { BasicAuthCredentials } from './receiver-access.js';

/** Options of {@link createWebhookHandler}. At least one of `onDeliveryReceipt`, `onInboundMessage` is required. */
export interface WebhookHandlerOptions<P = unknown> {
  /** Takes one delivery receipt (one per message part). Answered 200 only after its promise resolves. */
  readonly onDeliveryReceipt?: (receipt: DeliveryReceipt, context: WebhookContext<P>) => HandlerResult;
  /** Takes one inbound message (multipart messages reassembled). Answered 200 only after its promise resolves. */
  readonly onInboundMessage?: (message: InboundMessage, context: WebhookContext<P>) => HandlerResult;
  /** Told about each duplicate answered 200 without calling a handler (not awaited). */
  readonly onDuplicate?: (event: DuplicateEvent) => unknown;
  /** Takes multipart inbound messages whose parts did not all arrive in time (default: `onInboundMessage` with `complete: false`). */
  readonly onOrphan?: (message: InboundMessage) => HandlerResult;
  /** Told about failures inside the receiver (default `console.error`). */
  readonly onError?: (error: WebhookError) => void;
  /** Basic credentials the callbacks must carry (one pair, or several while rotating); none by default. */
  readonly basicAuth?: BasicAuthCredentials | readonly BasicAuthCredentials[];
  /** The realm of the `WWW-Authenticate` challenge (default `sms-callbacks`). */
  readonly realm?: string;
  /**
   * Decides whether a peer may post (IP allow-list, see `createAddressAllowList`); `false` answers
   * 403. It is given the peer's address normalised (`::ffff:127.0.0.1` as `127.0.0.1`, IPv6 in
   * lower-case compressed form). Default: none.
   */
  readonly allowRemoteAddress?: (remoteAddress: string | undefined) => boolean | Promise<boolean>;
  /**
   * Accept callbacks from anyone: required when neither `basicAuth` nor `allowRemoteAddress` is
   * set (the receiver refuses to start otherwise), as anyone who learns the URL could then post
   * forged receipts or inbound messages. Set it only when another layer checks the callers.
   */
  readonly allowUnauthenticated?: boolean;
  /** Require `X-API-Version: 4` (default `true`). */
  readonly requireApiVersion?: boolean;
  /** Largest body accepted, in bytes, checked before parsing (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /**
   * How long reading a body may take before the request is answered 408 with `Connection: close`,
   * which frees the socket (default 10 000 ms): a slow or stalled peer does not hold the connection.
   */
  readonly bodyTimeoutMs?: number;
  /** How long a handler may take before the event is answered 503 (default 10 000 ms). */
  readonly handlerTimeoutMs?: number;
  /** Where taken events are remembered (default an in-memory store). */
  readonly store?: DuplicateStore;
  /**
   * How long one call to a store (duplicate, reassembly) may take before the callback is answered
   * 503 with `Retry-After` (default 2 000 ms): a shared store that stops answering must not hold a
   * callback past the service's wait. What the call takes after that bound is given back.
   */
  readonly storeTimeoutMs?: number;
  /** How long a taken receipt is remembered (default 25 hours: the 24-hour retry window and a margin). */
  readonly receiptTtlMs?: number;
  /** How long a taken inbound message is remembered (default 73 hours: the 3-day retry window and a margin). */
  readonly inboundTtlMs?: number;
  /** How long an event stays in flight in the store if its instance dies (default six handler timeouts, at least a minute). */
  readonly leaseMs?: number;
  /** Join the parts of multipart inbound messages (default `true`); `false` hands every part to `onInboundMessage` as it comes. */
  readonly reassemble?: boolean;
  /**
   * Where the parts of multipart inbound messages wait for their siblings (default an in-memory
   * store of `maxPendingMessages`). Receivers on several instances share one (see
   * `createRedisReassemblyStore`), with a shared duplicate `store`.
   */
  readonly reassemblyStore?: ReassemblyStore;
  /** How long parts wait for their siblings, from the first part's arrival (default 10 minutes). */
  readonly reassemblyTimeoutMs?: number;
  /** How often the reassembly store is asked for messages past their timeout (default a tenth of the timeout, between 1 s and 1 min); the sweeps start with the first request. */
  readonly orphanSweepMs?: number;
  /** Most incomplete multipart messages held by the default in-memory reassembly store (default 10 000). */
  readonly maxPendingMessages?: number;
  /**
   * Most bytes the parts held by the default in-memory reassembly store may take (estimated; default
   * 32 MiB). A part past it is answered 503 with `Retry-After` (the service retries it), unless it
   * completes its message.
   */
  readonly maxPendingBytes?: number;
  /** Charset of hex inbound text (default `'auto'`: guessed). */
  readonly charset?: InboundCharset;
  /** Timers of the orphan sweeps (default the runtime's). */
  readonly timers?: ReassemblerTimers;
  /** The clock, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Traces, metrics and structured logs of every callback (core's `createTelemetry`); none by
   * default. Each receipt's span links to its send's when the telemetry's ticket store holds the
   * send: the same object as the client's, or one sharing a Redis ticket store across processes.
   */
  readonly telemetry?: SmsTelemetry;
  /** Structured logs only (pino-style `info/warn/error(fields, message)`), when `telemetry` is not given. */
  readonly logger?: TelemetryLogger;
}

/** A receiver: `handle` answers one request. */
export interface WebhookHandler<P = unknown> {
  /** Answers one callback request; never rejects. */
  handle(request: WebhookRequest<P>): Promise<WebhookResponse>;
  /** The body limit, for adapters that read the body themselves. */
  readonly maxBodyBytes: number;
  /** Multipart inbound messages waiting for parts (as the reassembly store can tell: 0 for a shared store). */
  readonly pendingMessages: number;
  /**
   * Stops the orphan sweeps; with a store whose parts do not outlive the process (the in-memory
   * one), reports the incomplete multipart messages as orphans. A shared store keeps them for the
   * other instances.
   */
  close(): void;
}

/** The telemetry of one request: its observer, and the handler's failure once there is one. */
interface Observation {
  readonly observer: CallbackObserver;
  error?: unknown;
}

/** An answer, at once or later: the steps that wait nothing answer without a promise. */
type Answer = WebhookResponse | Promise<WebhookResponse>;

/** How a multipart message's hand-over ends: its parts finished, or given back. */
interface GroupHooks {
  readonly done: () => Promise<void>;
  readonly undo: () => Promise<void>;
}


/** What the receiver knows of an event when it runs its handler. */
interface EventContext<P> {
  readonly key: string;
  readonly format: WireFormat;
  readonly request: WebhookRequest<P>;
  readonly observation: Observation | undefined;
}

/** What the telemetry learns of a decoded callback; addresses and content only when they may be recorded. */
function callbackFacts(callback: Callback, withContent: boolean): CallbackFacts {
  if (callback.kind === 'inbound-message') {
    const c = callback.concatenation;
    const m = callback.message;
    return {
      kind: callback.kind,
      ticketId: m.ticketId,
      ...(c === undefined ? {} : { segmentNumber: c.sequence, totalSegments: c.total }),
      ...(withContent ? { source: m.source.address, destination: m.destination.address, content: m.message.content } : {}),
    };
  }
  const status = callback.receipt.mtStatus;
  const destination = withContent ? callback.receipt.destination?.address : undefined;
  return {
    kind: callback.kind,
    ticketId: status.ticketId,
    code: status.code,
    ...(destination === undefined ? {} : { destination }),
    ...(status.segmentNumber === undefined ? {} : { segmentNumber: status.segmentNumber }),
    ...(status.totalSegments === undefined ? {} : { totalSegments: status.totalSegments }),
    ...(status.deliveryDate === undefined ? {} : { deliveryDate: status.deliveryDate }),
  };
}

/** `{ instant }` when there is one, for a context. */
const instantOf = (instant: string | undefined): { instant?: string } => (instant === undefined ? {} : { instant });

/** The getters every handler context carries as its own enumerable accessors; set by {@link HandlerContext}. */
let SIGNAL: () => AbortSignal;
let REMOTE_ADDRESS: () => string | undefined;
let PLATFORM: () => unknown;

/**
 * Defines an own accessor, enumerable and configurable, without a setter: what
 * `Object.defineProperty(o, name, { get, enumerable: true, configurable: true })` does, without
 * reading a descriptor object (Annex B's `__defineGetter__`, which every engine has; a third less time).
 */
const defineGetter = (Object.prototype as unknown as { __defineGetter__: (this: object, name: string, get: () => unknown) => void }).__defineGetter__;

/**
 * The context of one handler call. Its members are own and enumerable, as those of an object
 * literal would be (`key`, `format`, `instant` when there is one, then `signal`, `remoteAddress`
 * and `platform`), so spreading, JSON and deep equality see them all; but the three accessors are
 * the same functions on every context, and every context has the same shape: an object literal
 * with getters gets a hidden class of its own, and its closures keep the request alive.
 * The signal is made, and the remote address worked out, only when a handler asks.
 */
class HandlerContext<P> implements WebhookContext<P> {
  declare readonly key: string;
  declare readonly format: WireFormat;
  declare readonly instant?: string;
  declare readonly signal: AbortSignal;
  declare readonly remoteAddress?: string;
  declare readonly platform?: P;
  readonly #request: WebhookRequest<P>;
  #controller: AbortController | undefined;

  constructor(key: string, format: WireFormat, instant: string | undefined, request: WebhookRequest<P>) {
    const self = this as { key: string; format: WireFormat; instant?: string };
    self.key = key;
    self.format = format;
    if (instant !== undefined) self.instant = instant;
    this.#request = request;
    defineGetter.call(this, 'signal', SIGNAL);
    defineGetter.call(this, 'remoteAddress', REMOTE_ADDRESS);
    defineGetter.call(this, 'platform', PLATFORM);
  }

  /** Aborts the signal of `context` (when its handler asked for it). Static: contexts carry no method of their own. */
  static abort(context: HandlerContext<unknown>, reason: unknown): void {
    context.#controller?.abort(reason);
  }

  static {
    SIGNAL = function (this: HandlerContext<unknown>) {
      this.#controller ??= new AbortController();
      return this.#controller.signal;
    };
    REMOTE_ADDRESS = function (this: HandlerContext<unknown>) {
      const peer = this.#request.remoteAddress;
      return normalizeIpAddress(peer) ?? peer;
    };
    PLATFORM = function (this: HandlerContext<unknown>) {
      return this.#request.platform;
    };
    // Deep equality (`toStrictEqual`) compares constructors: a context equals the object literal it replaces.
    Object.defineProperty(HandlerContext.prototype, 'constructor', { value: Object, writable: true, configurable: true, enumerable: false });
  }
}

const KIND_NAMES: Readonly<Record<CallbackKind, string>> = { 'delivery-receipt': 'delivery receipts', 'inbound-message': 'inbound messages' };
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

/**
 * Creates a receiver of delivery receipts and inbound messages. It refuses to start (a
 * `TypeError`) without `basicAuth`, `allowRemoteAddress` or `allowUnauthenticated: true`, and with
 * an empty username or password. Checks, in order: remote address
 * (403), method (405), Basic credentials (401), `X-API-Version: 4` (400), `Content-Type` (415) and
 * `Content-Encoding` (415), size (413, before reading), payload (400), kind accepted (422). Then
 * the duplicate store: a taken event is answered 200 without calling the handler; one being
 * handled by an earlier delivery 409. The handler's promise must resolve before the 200; a failure
 * answers 500 and a timeout 503, and the event is forgotten so the service's retry is handled.
 *
 * @example
 * const receiver = createWebhookHandler({
 *   basicAuth: { username: 'openmarket', password: callbackPassword },
 *   onDeliveryReceipt: async (receipt) => db.saveReceipt(receipt),
 *   onInboundMessage: async (message) => db.saveInbound(message.source.address, message.text),
 * });
 * const response = await receiver.handle({ method: 'POST', headers, body });
 */
export function createWebhookHandler<P = unknown>(options: WebhookHandlerOptions<P>): WebhookHandler<P> {
  const {
    onDeliveryReceipt,
    onInboundMessage,
    onDuplicate,
    onOrphan,
    onError = (error: WebhookError) => console.error(error),
    basicAuth,
    realm = 'sms-callbacks',
    allowRemoteAddress,
    requireApiVersion = true,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS,
    handlerTimeoutMs = 10_000,
    store = createMemoryDuplicateStore(),
    storeTimeoutMs = DEFAULT_STORE_TIMEOUT_MS,
    receiptTtlMs = RECEIPT_RETRY_WINDOW_MS + DUPLICATE_MARGIN_MS,
    inboundTtlMs = INBOUND_RETRY_WINDOW_MS + DUPLICATE_MARGIN_MS,
    leaseMs = Math.max(6 * handlerTimeoutMs, 60_000),
    reassemble = true,
    reassemblyStore,
    reassemblyTimeoutMs = 10 * 60_000,
    orphanSweepMs = Math.min(60_000, Math.max(1_000, Math.floor(reassemblyTimeoutMs / 10))),
    maxPendingMessages = 10_000,
    maxPendingBytes,
    charset = 'auto',
    timers,
    now = Date.now,
    logger,
  } = options ?? ({} as WebhookHandlerOptions<P>);
  const telemetry = options?.telemetry ?? (logger === undefined ? undefined : createTelemetry({ logger }));
  if (typeof onDeliveryReceipt !== 'function' && typeof onInboundMessage !== 'function') {
    throw new TypeError('createWebhookHandler needs onDeliveryReceipt, onInboundMessage, or both');
  }
  checkFunctions({ onDeliveryReceipt, onInboundMessage, onDuplicate, onOrphan, onError, allowRemoteAddress }, true);
  checkPositiveIntegers({ maxBodyBytes });
  checkPositiveNumbers({ handlerTimeoutMs, storeTimeoutMs, bodyTimeoutMs, receiptTtlMs, inboundTtlMs, leaseMs, reassemblyTimeoutMs, orphanSweepMs });
  if (store === null || typeof store !== 'object' || (['reserve', 'commit', 'release'] as const).some((name) => typeof store[name] !== 'function')) {
    throw new TypeError('store must implement reserve, commit and release');
  }
  if (
    reassemblyStore !== undefined &&
    (reassemblyStore === null ||
      typeof reassemblyStore !== 'object' ||
      (['add', 'finish', 'restore', 'claimExpired'] as const).some((name) => typeof reassemblyStore[name] !== 'function'))
  ) {
    throw new TypeError('reassemblyStore must implement add, finish, restore and claimExpired');
  }
  const allowed = receiverAccess({ basicAuth, allowRemoteAddress, allowUnauthenticated: options?.allowUnauthenticated });
  if (telemetry !== undefined && (telemetry === null || typeof telemetry !== 'object' || typeof telemetry.callback !== 'function')) {
    throw new TypeError("telemetry must be the result of core's createTelemetry");
  }
  const challenge = { 'www-authenticate': basicChallenge(realm) };


  const report = (code: WebhookErrorCode, message: string, cause: unknown, ticketId?: string, key?: string): void => {
    try {
      onError(new WebhookError(code, message, { cause, ...(ticketId === undefined ? {} : { ticketId }), ...(key === undefined ? {} : { key }) }));
    } catch {
      // An onError that throws must not break the answer.
    }
  };

  /** Runs a hook that is not awaited, reporting its failure. */
  const runHook = (hook: () => unknown, code: WebhookErrorCode, what: string, ticketId?: string): void => {
    try {
      const result = hook();
      if (isThenable(result)) result.then(undefined, (e: unknown) => report(code, `${what} failed`, e, ticketId));
    } catch (e) {
      report(code, `${what} failed`, e, ticketId);
    }
  };

  const orphanContext = (message: InboundMessage): WebhookContext<P> => ({
    key: `orphan:${message.ticketId}`,
    format: message.format,
    signal: new AbortController().signal,
    ...instantOf(message.submittedInstant),
  });

  const parts: ReassemblyStore | undefined =
    reassemble && onInboundMessage !== undefined ? (reassemblyStore ?? createMemoryReassemblyStore({ maxPending: maxPendingMessages, now, ...(maxPendingBytes === undefined ? {} : { maxPendingBytes }) })) : undefined;

  /**
   * Settles a store call that may be synchronous, within `storeTimeoutMs`; rejects like the call,
   * or with a `StoreTimeoutError` at the bound (what the call yields later goes to `late`).
   */
  const settle = async <T>(call: () => T | PromiseLike<T>, what = 'a store call', late?: (value: T) => void): Promise<T> => {
    const result = withinStoreBound(call(), storeTimeoutMs, what, late);
    return isThenable(result) ? await result : result;
  };

  /** The hand-overs under way in this process, by message and token; what a late add must not give back. */
  const handingOver = new Set<string>();
  const handOverOf = (group: ReassemblyGroup): string => `${group.key}\n${group.token}`;

  /** Ends a hand-over once its handler resolved (its parts are forgotten, their tickets remembered). */
  const finishGroup = async (store: ReassemblyStore, group: ReassemblyGroup, ticketId: string): Promise<void> => {
    try {
      const held = await settle(() => store.finish(group, { handedOverTtlMs: inboundTtlMs }), 'ending a hand-over');
      if (!held) {
        report('lease-expired', `the message of ticket ${ticketId} was taken again after its lease of ${leaseMs} ms ran out: it may have been handed over twice`, undefined, ticketId);
      }
    } catch (e) {
      report('store-failed', `ending the hand-over of the message of ticket ${ticketId} failed: it may be handed over again`, e, ticketId);
    }
  };

  /** Gives the parts of a message whose handler failed back to the store, so that the retry completes it again. */
  const restoreGroup = async (store: ReassemblyStore, group: ReassemblyGroup, ticketId: string): Promise<void> => {
    try {
      await settle(() => store.restore(group), 'giving back the parts of a message');
    } catch (e) {
      report('store-failed', `giving back the parts of the message of ticket ${ticketId} failed: they are taken again once the lease of ${leaseMs} ms ends`, e, ticketId);
    }
  };

  /**
   * Hands over a message claimed from the store as an orphan (or complete, when the instance that
   * took it died), then finishes it; when that fails, the claim runs out after `leaseMs` and the
   * message is claimed and handed over again.
   */
  const deliverOrphan = (store: ReassemblyStore, group: ReassemblyGroup): void => {
    const ticketId = group.parts[0]?.message.ticketId;
    let message: InboundMessage;
    try {
      message = groupMessage(group, charset);
    } catch (e) {
      // The ticket, not the group's key: a key may hold phone numbers, and reports go to logs.
      report('orphan-failed', `the incomplete message of ticket ${String(ticketId)} could not be put together`, e, ticketId);
      return;
    }
    telemetry?.orphan({ ticketId: message.ticketId, partsHeld: message.parts.length, missingParts: message.missingParts });
    const inbound = onInboundMessage as NonNullable<typeof onInboundMessage>;
    const hook = onOrphan !== undefined && !message.complete ? onOrphan : (m: InboundMessage) => inbound(m, orphanContext(m));
    const what = `handing over the ${message.complete ? '' : 'incomplete '}message of ticket ${message.ticketId}`;
    const failed = (e: unknown): void => report('orphan-failed', `${what} failed: it is handed over again once its claim of ${leaseMs} ms ends`, e, message.ticketId);
    try {
      const result = hook(message);
      if (isThenable(result)) Promise.resolve(result).then(() => finishGroup(store, group, message.ticketId), failed);
      else void finishGroup(store, group, message.ticketId);
    } catch (e) {
      failed(e);
    }
  };

  const sweepTimers = timers ?? runtimeTimers;
  // One timer for the deadlines of every handler running, and one for the bodies being read: not one per request.
  const deadlines = createHandlerDeadlines(handlerTimeoutMs);
  const bodyDeadlines = createHandlerDeadlines(bodyTimeoutMs);
  let sweepTimer: unknown;
  let closed = false;
  const ORPHANS_PER_SWEEP = 100;

  /** Claims the messages past their timeout and hands them over; then waits for the next sweep. */
  const sweep = (store: ReassemblyStore): void => {
    sweepTimer = undefined;
    const next = (claimed: number): void => {
      if (closed) return;
      // A full batch: more may be due, look again at once.
      sweepTimer = sweepTimers.setTimeout(() => sweep(store), claimed >= ORPHANS_PER_SWEEP ? 0 : orphanSweepMs);
    };
    const deliver = (groups: readonly ReassemblyGroup[]): void => {
      for (const group of groups) deliverOrphan(store, group);
      next(groups.length);
    };
    const failed = (e: unknown): void => {
      report('store-failed', 'looking for incomplete multipart messages failed: looked for again at the next sweep', e);
      next(0);
    };
    try {
      // A late answer is delivered all the same (its claims are this instance's); the sweeps go on from the bound.
      const claimed = withinStoreBound(store.claimExpired({ leaseMs, limit: ORPHANS_PER_SWEEP }), storeTimeoutMs, 'claiming orphans', (late) => {
        for (const group of late) deliverOrphan(store, group);
      });
      if (isThenable(claimed)) claimed.then(deliver, failed);
      else deliver(claimed);
    } catch (e) {
      failed(e);
    }
  };
  // Sweeps start with the first request, not at creation: runtimes such as Cloudflare Workers
  // refuse timers in a module's global scope, where handlers are usually created.
  let sweeping = false;
  const startSweeps = (): void => {
    sweeping = true;
    if (parts !== undefined && !closed) sweepTimer = sweepTimers.setTimeout(() => sweep(parts), orphanSweepMs);
  };

  const forget = async (key: string, ticketId: string): Promise<void> => {
    try {
      await settle(() => store.release(key), `forgetting ${key}`);
    } catch (e) {
      report('store-failed', `forgetting ${key} failed`, e, ticketId, key);
    }
  };

  const rememberFailed = (key: string, ticketId: string) => (e: unknown) =>
    report('store-failed', `remembering ${key} failed: a retry of this event will be handled again`, e, ticketId, key);

  /** Commits a key; a synchronous store settles at once, without a promise. */
  const remember = (key: string, ticketId: string, ttlMs: number): Promise<void> | undefined => {
    try {
      const done = store.commit(key, ttlMs);
      return isThenable(done) ? Promise.resolve(withinStoreBound(done, storeTimeoutMs, `remembering ${key}`)).then(undefined, rememberFailed(key, ticketId)) : undefined;
    } catch (e) {
      rememberFailed(key, ticketId)(e);
      return undefined;
    }
  };

  /** A handler's failure: the event forgotten (or its parts given back), then reported. */
  const failHandler = async (error: unknown, code: 'handler-failed' | 'late-handler-failed', { key, observation }: EventContext<P>, ticketId: string, hooks: GroupHooks | undefined): Promise<WebhookResponse> => {
    // The failure within the answer goes on the callback's span (a late one has ended it already).
    if (observation !== undefined && code === 'handler-failed') observation.error = error;
    if (hooks === undefined) await forget(key, ticketId);
    else await hooks.undo();
    report(code, code === 'late-handler-failed' ? `the handler of ${key} failed after its timeout` : `the handler of ${key} failed`, error, ticketId, key);
    return webhookRejection('handler-failed');
  };

  /** The answer to a handler that succeeded in time: 200 once the event is remembered (at once with a synchronous store). */
  const handled = (key: string, ticketId: string, ttlMs: number, hooks: GroupHooks | undefined): Answer => {
    const committing = hooks === undefined ? remember(key, ticketId, ttlMs) : hooks.done();
    return committing === undefined ? webhookAccepted() : committing.then(() => webhookAccepted());
  };

  /**
   * Runs a handler with the timeout. Settles the store either way: commit on success, release on
   * failure, also when the failure or success comes after the timeout was answered. With `hooks`
   * (a multipart message, which the reassembly store keeps track of instead of the duplicate
   * store) it calls `done` or `undo` instead. A handler that returns no promise is answered
   * without one (with a synchronous store); one that does takes one promise of the receiver's,
   * and a slot in the shared deadline queue, no timer of its own.
   */
  const runHandler = <E>(
    handler: (event: E, context: WebhookContext<P>) => unknown,
    payload: E,
    event: EventContext<P>,
    ticketId: string,
    ttlMs: number,
    instant: string | undefined,
    hooks?: GroupHooks,
  ): Answer => {
    const { key, observation } = event;
    const context = new HandlerContext<P>(key, event.format, instant, event.request);
    let result: unknown;
    try {
      result = observation === undefined ? handler(payload, context) : observation.observer.run(() => handler(payload, context));
    } catch (error) {
      return failHandler(error, 'handler-failed', event, ticketId, hooks);
    }
    if (!isThenable(result)) return handled(key, ticketId, ttlMs, hooks);
    return new Promise<WebhookResponse>((resolve) => {
      const slot = deadlines.start(() => {
        const late = `the handler of ${key} ran past ${handlerTimeoutMs} ms`;
        HandlerContext.abort(context, new WebhookError('handler-timeout', late));
        report('handler-timeout', `${late}: answered 503; the event stays in flight until it settles`, undefined, ticketId, key);
        resolve(webhookRejection('handler-timeout'));
      });
      // Met in time: answered now; past the deadline (answered 503): the store is settled all the same.
      Promise.resolve(result).then(
        () => {
          if (deadlines.meet(slot)) resolve(handled(key, ticketId, ttlMs, hooks));
          else if (hooks === undefined) void remember(key, ticketId, ttlMs);
          else void hooks.done();
        },
        (error: unknown) => {
          if (deadlines.meet(slot)) resolve(failHandler(error, 'handler-failed', event, ticketId, hooks));
          else void failHandler(error, 'late-handler-failed', event, ticketId, hooks);
        },
      );
    });
  };

  /** After the telemetry opened the callback's span: the duplicate store, then the handler. */
  const takeCallback = (callback: Callback, request: WebhookRequest<P>, observation: Observation | undefined, ticketId: string): Answer => {
    const { key, format } = callback;
    const ttlMs = callback.kind === 'delivery-receipt' ? receiptTtlMs : inboundTtlMs;
    if (callback.kind === 'inbound-message' && callback.concatenation !== undefined && parts !== undefined) {
      // The reassembly store recognises repeats of parts itself: no duplicate store in front.
      return handlePart(callback, { key, format, request, observation }, ticketId, parts, onInboundMessage as NonNullable<typeof onInboundMessage>);
    }
    let outcome: ReserveOutcome | PromiseLike<ReserveOutcome>;
    try {
      outcome = store.reserve(key, leaseMs);
    } catch (e) {
      return reserveFailed(e, key, ticketId);
    }
    if (!isThenable(outcome)) return reserved(outcome, callback, request, observation, ticketId, ttlMs);
    // A store that answers later, within `storeTimeoutMs`. A reservation that lands after the bound
    // (answered 503) is given back, so the retry is not answered 409.
    const bounded = withinStoreBound(outcome, storeTimeoutMs, `reserving ${key}`, (late) => {
      if (late === 'reserved') void forget(key, ticketId);
    }) as Promise<ReserveOutcome>;
    return bounded.then(
      (taken) => reserved(taken, callback, request, observation, ticketId, ttlMs),
      (e: unknown) => reserveFailed(e, key, ticketId),
    );
  };

  const reserveFailed = (e: unknown, key: string, ticketId: string): WebhookResponse => {
    report('store-failed', `reserving ${key} failed: answered 503`, e, ticketId, key);
    return webhookRejection('store-unavailable');
  };

  /** What the duplicate store found: a duplicate answered at once, or the handler called. */
  const reserved = (outcome: ReserveOutcome, callback: Callback, request: WebhookRequest<P>, observation: Observation | undefined, ticketId: string, ttlMs: number): Answer => {
    const { key, format } = callback;
    if (outcome === 'in-flight') return webhookRejection('in-flight');
    if (outcome === 'seen') {
      if (onDuplicate !== undefined) runHook(() => onDuplicate({ kind: callback.kind, key, ticketId, reason: 'seen', callback }), 'hook-failed', 'onDuplicate', ticketId);
      return webhookAccepted('duplicate');
    }
    const event: EventContext<P> = { key, format, request, observation };
    if (callback.kind === 'delivery-receipt') {
      return runHandler(onDeliveryReceipt as NonNullable<typeof onDeliveryReceipt>, callback.receipt, event, ticketId, ttlMs, callback.deliveryInstant);
    }
    const message = singleInboundMessage(callback, charset);
    return runHandler(onInboundMessage as NonNullable<typeof onInboundMessage>, message, event, ticketId, ttlMs, message.submittedInstant);
  };

  const handleCallback = (callback: Callback, request: WebhookRequest<P>, observation: Observation | undefined): Answer => {
    const ticketId = callback.kind === 'delivery-receipt' ? callback.receipt.mtStatus.ticketId : callback.message.ticketId;
    if (observation !== undefined) {
      let opened: unknown;
      try {
        // A receipt's send may be looked up in a shared ticket store first (the span's link is given at its start).
        opened = observation.observer.decoded(callbackFacts(callback, telemetry?.logContent === true));
      } catch {
        // Telemetry must not change the answer the service gets.
      }
      if (isThenable(opened)) {
        const go = (): Answer => takeCallback(callback, request, observation, ticketId);
        return Promise.resolve(opened).then(go, go);
      }
    }
    return takeCallback(callback, request, observation, ticketId);
  };

  /**
   * One part of a multipart inbound message: held in the reassembly store (answered 200 once held),
   * or, when it completes the message, the whole message handed to the handler (answered 200 once
   * the handler resolved and the hand-over ended). The store recognises repeats by ticket ID.
   */
  const handlePart = async (
    callback: InboundCallback,
    context: EventContext<P>,
    ticketId: string,
    store: ReassemblyStore,
    handler: NonNullable<typeof onInboundMessage>,
  ): Promise<WebhookResponse> => {
    const oversized = partTooLarge(callback);
    if (oversized !== undefined) return oversized;
    let added: PartAddOutcome;
    try {
      // A part that completes its message after the bound (answered 503) gives the message back, so the retry completes it again.
      added = await settle(
        () => store.add(callback, { timeoutMs: reassemblyTimeoutMs, leaseMs }),
        `holding the part ${context.key}`,
        (late) => {
          if (late.evicted !== undefined) for (const group of late.evicted) deliverOrphan(store, group);
          // Not a hand-over this process has under way with the same token (an add in doubt reuses it).
          if (late.status === 'complete' && !handingOver.has(handOverOf(late.group))) void restoreGroup(store, late.group, ticketId);
        },
      );
    } catch (e) {
      report('store-failed', `holding the part ${context.key} failed: answered 503`, e, ticketId, context.key);
      return webhookRejection('store-unavailable');
    }
    if (added.evicted !== undefined) for (const group of added.evicted) deliverOrphan(store, group);
    switch (added.status) {
      case 'complete': {
        const { group } = added;
        const message = groupMessage(group, charset);
        const handOver = handOverOf(group);
        handingOver.add(handOver);
        const ended = () => void handingOver.delete(handOver);
        return runHandler(handler, message, context, ticketId, inboundTtlMs, message.submittedInstant, {
          done: () => finishGroup(store, group, ticketId).finally(ended),
          undo: () => restoreGroup(store, group, ticketId).finally(ended),
        });
      }
      case 'stored':
        return webhookAccepted('part-stored');
      case 'in-flight':
        return webhookRejection('in-flight');
      case 'full':
        return webhookRejection('reassembly-full');
      default: {
        if (onDuplicate !== undefined) {
          const reason = added.status === 'duplicate-part' ? 'part' : 'seen';
          runHook(() => onDuplicate({ kind: callback.kind, key: context.key, ticketId, reason, callback }), 'hook-failed', 'onDuplicate', ticketId);
        }
        return webhookAccepted('duplicate');
      }
    }
  };

  /** A bug (every expected failure is a value): answered so that the service retries. */
  const unexpected = (e: unknown, observation?: Observation): WebhookResponse => {
    report('handler-failed', 'the receiver failed unexpectedly', e);
    if (observation !== undefined) observation.error = e;
    return webhookRejection('handler-failed');
  };
  /** A promise of the slow paths (hooks, readers, stores that answer later), answered as a bug should it reject. */
  const guarded = (answer: Promise<WebhookResponse>, observation: Observation | undefined): Promise<WebhookResponse> =>
    answer.then(undefined, (e: unknown) => unexpected(e, observation));

  const tooLarge = (): WebhookResponse => webhookRejection('payload-too-large', { values: { maxBytes: String(maxBodyBytes) } });

  /**
   * Answers one request. Synchronous as long as nothing is awaited (a body given as it is, a
   * synchronous store, a handler that returns no promise): each `async` step costs a promise and
   * turns of the microtask queue, so only the steps that wait are asynchronous.
   */
  const handle = (request: WebhookRequest<P>, observation: Observation | undefined): Answer =>
    allowRemoteAddress === undefined ? checked(request, observation) : guarded(checkPeer(request, allowRemoteAddress, observation), observation);

  const checkPeer = async (request: WebhookRequest<P>, allow: NonNullable<typeof allowRemoteAddress>, observation: Observation | undefined): Promise<WebhookResponse> => {
    let allowedPeer: boolean;
    try {
      const peer = request.remoteAddress;
      allowedPeer = (await allow(normalizeIpAddress(peer) ?? peer)) === true;
    } catch (e) {
      report('hook-failed', 'allowRemoteAddress failed: answered 403', e);
      allowedPeer = false;
    }
    if (!allowedPeer) return webhookRejection('forbidden');
    return checked(request, observation);
  };

  /** The checks of the request's method and headers, then its body. */
  const checked = (request: WebhookRequest<P>, observation: Observation | undefined): Answer => {
    if (request.method !== 'POST' && (typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST')) return webhookRejection('method-not-allowed');
    const { headers } = request;
    if (allowed !== undefined) {
      const presented = parseBasicAuthorization(headerValue(headers, 'authorization'));
      let match = false;
      for (const expected of allowed) {
        // Every pair is compared, so the time taken does not tell which one matched.
        if (credentialsMatch(presented, { accountId: expected.username, password: expected.password })) match = true;
      }
      if (!match) return webhookRejection('unauthorized', { headers: challenge });
    }
    if (requireApiVersion && headerValue(headers, API_VERSION_HEADER)?.trim() !== CALLBACK_API_VERSION) return webhookRejection('unsupported-api-version');
    const format = formatOfContentType(headerValue(headers, 'content-type'));
    if (format === undefined) return webhookRejection('unsupported-media-type');
    const encoding = headerValue(headers, 'content-encoding');
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity' && encoding.trim() !== '') return webhookRejection('unsupported-content-encoding');
    const declared = headerValue(headers, 'content-length');
    if (declared !== undefined && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBodyBytes) return tooLarge();
    const source = request.body;
    if (typeof source === 'function') return readThenDecode(source, format, request, observation);
    return decoded(source, format, request, observation);
  };

  /** Why a body could not be read: 500 when the reader says another parser consumed it, else 400. */
  const readFailed = (e: unknown): WebhookResponse => {
    if (e instanceof WebhookError && e.code === 'receiver-misconfigured') {
      report('receiver-misconfigured', e.message, e);
      return webhookRejection('receiver-misconfigured');
    }
    return webhookRejection('request-aborted', { detail: e instanceof Error ? e.message : undefined });
  };

  /**
   * Reads the body with the adapter's reader, within `bodyTimeoutMs`: a slot of the receiver's
   * queue of body deadlines (one timer for all of them), not a timer per request.
   */
  const readThenDecode = (source: BodyReader, format: WireFormat, request: WebhookRequest<P>, observation: Observation | undefined): Answer => {
    let read: BodyInput | null | PromiseLike<BodyInput | null>;
    try {
      read = source(maxBodyBytes);
    } catch (e) {
      return readFailed(e);
    }
    if (!isThenable(read)) return decoded(read, format, request, observation);
    return new Promise<WebhookResponse>((resolve) => {
      // Past the bound: answered 408 (the read's late outcome is dropped).
      const slot = bodyDeadlines.start(() => resolve(webhookRejection('request-timeout', { values: { timeoutMs: String(bodyTimeoutMs) } })));
      Promise.resolve(read).then(
        (body) => {
          if (!bodyDeadlines.meet(slot)) return;
          let answer: Answer;
          try {
            answer = decoded(body, format, request, observation);
          } catch (e) {
            answer = unexpected(e, observation);
          }
          // A promise of the receiver's: its outcome taken in one turn, a rejection answered as a bug.
          if (isThenable(answer)) answer.then(resolve, (e: unknown) => resolve(unexpected(e, observation)));
          else resolve(answer);
        },
        (e: unknown) => bodyDeadlines.meet(slot) && resolve(readFailed(e)),
      );
    });
  };

  /** Decodes the body, then takes the callback. */
  const decoded = (body: BodyInput | null, format: WireFormat, request: WebhookRequest<P>, observation: Observation | undefined): Answer => {
    if (body === null) return tooLarge();
    const result = decodeCallback(body, format, { maxBytes: maxBodyBytes });
    if (!result.ok) {
      if (result.error.code === 'too-large') return tooLarge();
      if (result.error.code === 'wrong-resource') return webhookRejection('unknown-callback');
      return webhookRejection('malformed-payload', { detail: result.error.description });
    }
    const callback = result.value;
    const accepted = callback.kind === 'delivery-receipt' ? onDeliveryReceipt !== undefined : onInboundMessage !== undefined;
    if (!accepted) return webhookRejection('callback-not-accepted', { values: { kind: KIND_NAMES[callback.kind] } });
    return handleCallback(callback, request, observation);
  };

  /** Answers one request, reported to the telemetry. */
  const observed = async (request: WebhookRequest<P>, t: SmsTelemetry): Promise<WebhookResponse> => {
    const observation: Observation = { observer: t.callback() };
    let response: WebhookResponse;
    try {
      response = await handle(request, observation);
    } catch (e) {
      response = unexpected(e, observation);
    }
    try {
      const { error } = observation;
      observation.observer.end({
        status: response.status,
        outcome: response.outcome,
        ...(response.rejection === undefined ? {} : { rejection: response.rejection }),
        ...(error === undefined ? {} : { error }),
      });
    } catch {
      // Telemetry must not change the answer the service gets.
    }
    return response;
  };

  return {
    handle(request) {
      let answer: Answer;
      try {
        if (!sweeping) startSweeps();
        // Without anything to keep a report (the API with no SDK, no logger), no report is made.
        if (telemetry !== undefined && (typeof telemetry.reporting !== 'function' || telemetry.reporting())) return observed(request, telemetry);
        answer = handle(request, undefined);
      } catch (e) {
        answer = unexpected(e);
      }
      // A promise of its own is returned as it is.
      return Promise.resolve(answer);
    },
    maxBodyBytes,
    get pendingMessages() {
      return parts?.pending ?? 0;
    },
    close() {
      if (closed) return;
      closed = true;
      if (sweepTimer !== undefined) sweepTimers.clearTimeout(sweepTimer);
      sweepTimer = undefined;
      if (parts?.drain !== undefined) for (const group of parts.drain({ leaseMs, limit: Number.MAX_SAFE_INTEGER })) deliverOrphan(parts, group);
    },
  };
}

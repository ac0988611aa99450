/**
 * `createTelemetry`: OpenTelemetry traces and metrics and a structured log hook for every package.
 * Packages take the result as their `telemetry` option; without it they do no telemetry work at all.
 * The observers below hold what each package reports, so the packages stay thin: the client reports
 * its calls and attempts, receivers their callbacks, the queue its jobs.
 */
import { deliveryState } from '../errors/catalogue.js';
import { MT_LIMITS } from '../mt-request/members.js';
import { DUPLICATE_MARGIN_MS, RECEIPT_RETRY_WINDOW_MS } from '../protocol/service-facts.js';
import { parseTimestamp } from '../time/xs-date-time.js';
import { checkLogger, writeLog, type TelemetryLogger } from './logger.js';
import type {
  CounterLike,
  HistogramLike,
  MeterLike,
  MeterProviderLike,
  ObservableResultLike,
  OpenTelemetryApiLike,
  SpanLike,
  TelemetryAttributes,
  TracerLike,
  TracerProviderLike,
} from './otel-types.js';
import { DELIVERY_LATENCY_BUCKETS_S, TELEMETRY_ATTRIBUTES as A, TELEMETRY_METRICS as M, TELEMETRY_SPANS } from './telemetry-names.js';
import { createMemoryTicketStore, type SentTicket, type TicketStore } from './ticket-store.js';
import { checkNonNegativeIntegers, checkPositiveNumbers } from '../option-checks.js';

/**
 * How long a sent ticket is remembered by default: the longest validity period (three days, the
 * latest a message can be delivered), the 24-hour receipt retry window, and a margin of an hour.
 */
export const DEFAULT_TICKET_TTL_MS = MT_LIMITS.validityPeriodMaxSeconds * 1000 + RECEIPT_RETRY_WINDOW_MS + DUPLICATE_MARGIN_MS;

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /** The OpenTelemetry API (`import * as api from '@opentelemetry/api'`): spans and metrics go to its global providers. */
  readonly api?: OpenTelemetryApiLike;
  /** A tracer provider to use instead of the API's global one. */
  readonly tracerProvider?: TracerProviderLike;
  /** A meter provider to use instead of the API's global one. */
  readonly meterProvider?: MeterProviderLike;
  /** Structured logs (pino-style `info/warn/error(fields, message)`). */
  readonly logger?: TelemetryLogger;
  /**
   * Put message content and phone numbers into spans and logs (default `false`: personal data
   * stays out): the send's destination and content, a callback's source, destination and content,
   * the phone number of a lookup URL.
   */
  readonly logContent?: boolean;
  /** Instrumentation scope name (default `smsv4`). */
  readonly scope?: string;
  /**
   * Where sent tickets are remembered for receipt links and delivery latency (default an in-memory
   * store of `maxTrackedTickets`). A receipt taken by another process than the send's finds its
   * send only in a shared store: give every process the same `createRedisTicketStore`.
   */
  readonly ticketStore?: TicketStore;
  /** Sent tickets remembered by the default in-memory store (default 100 000, oldest forgotten first). */
  readonly maxTrackedTickets?: number;
  /**
   * How long a sent ticket is remembered, ms (default 97 hours: the longest validity period of
   * three days, the 24-hour receipt retry window and an hour of margin).
   */
  readonly ticketTtlMs?: number;
  /** How long a receipt waits for the ticket store's answer before it goes on without link and latency, ms (default 1 000). */
  readonly ticketLookupTimeoutMs?: number;
  /** The clock, epoch ms (default `Date.now`). */
  readonly now?: () => number;
}

/** What the client reports of one HTTP attempt, once it is over. */
export interface AttemptReport {
  readonly attempt: number;
  readonly method: string;
  readonly url: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly httpStatus?: number;
  readonly requestId?: string;
  /** The failure's kind (`api-error`, `network`, `timeout`…); absent when the attempt succeeded. */
  readonly errorKind?: string;
  readonly code?: string | number;
  /** Set when another attempt follows. */
  readonly nextDelayMs?: number;
}

/** How a call ended. */
export interface CallReport {
  readonly ok: boolean;
  readonly attempts: number;
  readonly httpStatus?: number;
  readonly requestId?: string;
  readonly ticketId?: string;
  /** The failure's kind (`invalid-request`, `api-error`, `network`, `timeout`, `unexpected-response`, `aborted`). */
  readonly errorKind?: string;
  readonly code?: string | number;
  readonly description?: string;
  /** Whether the request reached the service (`yes`, `no`, `unknown`). */
  readonly reachedService?: string;
  readonly error?: unknown;
}

/** Reports one client call. */
export interface ClientCallObserver {
  /** `false` when nothing would keep a report (a no-op span, no metrics, no logger): the caller may skip reporting. */
  readonly active: boolean;
  attempt(report: AttemptReport): void;
  end(report: CallReport): void;
}

/**
 * What a call carries that is personal data: given only when the telemetry's `logContent` is
 * `true` (and recorded only then).
 */
export interface CallContent {
  /** The send's destination address. */
  readonly destination?: string;
  /** The send's message content, as sent. */
  readonly content?: string;
}

/** What a receiver learnt of a callback once it was decoded. */
export interface CallbackFacts {
  readonly kind: 'delivery-receipt' | 'inbound-message';
  readonly ticketId: string;
  readonly segmentNumber?: number;
  readonly totalSegments?: number;
  /** A receipt's code. */
  readonly code?: number;
  /** A receipt's `deliveryDate` (any `xs:dateTime` form). */
  readonly deliveryDate?: string;
  /** An inbound message's source address (recorded only with `logContent: true`). */
  readonly source?: string;
  /** The destination address (recorded only with `logContent: true`). */
  readonly destination?: string;
  /** An inbound message's content, as received (recorded only with `logContent: true`). */
  readonly content?: string;
}

/** How a receiver answered a callback. */
export interface CallbackAnswer {
  readonly status: number;
  /** `handled`, `duplicate`, `part-stored` or `rejected`. */
  readonly outcome: string;
  readonly rejection?: string;
  readonly error?: unknown;
}

/** Reports one callback request. */
export interface CallbackObserver {
  /**
   * Opens the callback's span. For a receipt it first looks its ticket up in the ticket store (the
   * span's link is given at its start): a promise when the store answers with one, which never rejects.
   */
  decoded(facts: CallbackFacts): void | Promise<void>;
  /** Runs a handler with the callback's span as the active one, so the handler's own spans are its children. */
  run<T>(fn: () => T): T;
  end(answer: CallbackAnswer): void;
}

/** A state change of a queued message. */
export interface QueueJobReport {
  readonly key: string;
  /** The queue's message states: `queued`, `sending`, `retrying`, `accepted`, `delivered`, `failed`, `rejected`, `unknown` (unknown fate), `abandoned`. */
  readonly state: string;
  readonly ticketId?: string;
  readonly code?: string | number;
  readonly description?: string;
}

/** Reports one send of the send queue: the span from `sending` to the state the send led to. */
export interface QueueJobObserver {
  /** Runs the send with the job's span as the active one, so the client's spans are its children. */
  run<T>(fn: () => T): T;
  end(report: QueueJobReport): void;
}

/** The telemetry of an application's SMS traffic; pass it as the `telemetry` option of each package. */
export interface SmsTelemetry {
  /** The structured logger, when one was given. */
  readonly logger: TelemetryLogger | undefined;
  /** Whether content and phone numbers may be recorded. */
  readonly logContent: boolean;
  /**
   * Starts the report of one client call (`operation` is `send`, `status`, `lookup` or
   * `invokeService`); `content` is recorded only when `logContent` is `true`.
   */
  clientCall(operation: string, content?: CallContent): ClientCallObserver;
  /** Starts the report of one callback request. */
  callback(): CallbackObserver;
  /**
   * Whether a report would be kept now: by a logger, an SDK's meter, or a tracer that records (the
   * API's global tracer provider counts once an SDK registers with it). A receiver skips the callback
   * report while nothing would keep it.
   */
  reporting(): boolean;
  /** Reports a multipart inbound message handed over incomplete. */
  orphan(facts: { readonly ticketId: string; readonly partsHeld: number; readonly missingParts: readonly number[] }): void;
  /** Reports a state change of a queued message (counter and log line). */
  queueState(report: QueueJobReport): void;
  /** Starts the span of one send of the queue (call when the message enters `sending`). */
  queueJob(key: string): QueueJobObserver;
  /** Reports the queue's depth when metrics are collected; returns a function that stops it. */
  observeQueueDepth(read: () => number | Promise<number>): () => void;
  /** Writes one structured log line (no-op without a logger). */
  log(level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string): void;
}

const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

interface Instruments {
  readonly sends: CounterLike;
  readonly operations: CounterLike;
  readonly attempts: CounterLike;
  readonly retries: CounterLike;
  readonly attemptDuration: HistogramLike;
  readonly callbacks: CounterLike;
  readonly duplicates: CounterLike;
  readonly orphans: CounterLike;
  readonly deliveryLatency: HistogramLike;
  readonly queueJobs: CounterLike;
  readonly unknownFates: CounterLike;
}

function instruments(meter: MeterLike): Instruments {
  const counter = (m: { name: string; unit: string; description: string }) => meter.createCounter(m.name, { unit: m.unit, description: m.description });
  return {
    sends: counter(M.sends),
    operations: counter(M.operations),
    attempts: counter(M.attempts),
    retries: counter(M.retries),
    attemptDuration: meter.createHistogram(M.attemptDuration.name, {
      unit: M.attemptDuration.unit,
      description: M.attemptDuration.description,
      advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
    }),
    callbacks: counter(M.callbacks),
    duplicates: counter(M.duplicates),
    orphans: counter(M.orphans),
    deliveryLatency: meter.createHistogram(M.deliveryLatency.name, {
      unit: M.deliveryLatency.unit,
      description: M.deliveryLatency.description,
      advice: { explicitBucketBoundaries: [...DELIVERY_LATENCY_BUCKETS_S] },
    }),
    queueJobs: counter(M.queueJobs),
    unknownFates: counter(M.unknownFates),
  };
}

/** The server address and port of a URL, for the HTTP semantic conventions; the last origin's answer is reused. */
function serverLookup(): (url: string) => { address: string; port: number } | undefined {
  let last: { readonly origin: string; readonly server: { address: string; port: number } | undefined } | undefined;
  return (url) => {
    const slash = url.indexOf('/', url.indexOf('//') + 2);
    const origin = slash < 0 ? url : url.slice(0, slash);
    if (last?.origin === origin) return last.server;
    let server: { address: string; port: number } | undefined;
    try {
      const u = new URL(origin);
      server = { address: u.hostname, port: u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port) };
    } catch {
      server = undefined;
    }
    last = { origin, server };
    return server;
  };
}

/** A URL with its query removed and, unless content may be recorded, a phone number in the path replaced. */
function shownUrl(url: string, logContent: boolean): string {
  const bare = url.split('?')[0] ?? url;
  return logContent ? bare : bare.replace(/\/preview\/[0-9]+$/, '/preview/{phoneNumber}');
}

/** A span that records, or `undefined` for the API's no-op spans. */
const recordingOrNone = (span: SpanLike | undefined): SpanLike | undefined => (span === undefined || span.isRecording?.() === false ? undefined : span);

const operationName = (operation: string): string => TELEMETRY_SPANS.operation.replace('{operation}', operation);

const isThenable = <T>(value: unknown): value is PromiseLike<T> =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The personal data of a call or callback as span attributes (only called with `logContent: true`). */
function contentAttributes(c: { readonly source?: string; readonly destination?: string; readonly content?: string }): TelemetryAttributes {
  return {
    ...(c.source === undefined ? {} : { [A.source]: c.source }),
    ...(c.destination === undefined ? {} : { [A.destination]: c.destination }),
    ...(c.content === undefined ? {} : { [A.messageContent]: c.content }),
  };
}

/** The personal data of a call or callback as log fields (only called with `logContent: true`). */
function contentFields(c: { readonly source?: string; readonly destination?: string; readonly content?: string }): Record<string, unknown> {
  return {
    ...(c.source === undefined ? {} : { source: c.source }),
    ...(c.destination === undefined ? {} : { destination: c.destination }),
    ...(c.content === undefined ? {} : { content: c.content }),
  };
}

/** Epoch milliseconds of an `xs:dateTime` (any offset, any fraction digits), read by core's timestamp reader, or `undefined`. */
function instantOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const read = parseTimestamp(text);
  return read.ok ? read.value.epochMs : undefined;
}

/**
 * Creates the telemetry of an application's SMS traffic: pass it as the `telemetry` option of the
 * client, the receivers and the queue. Spans go to the tracer provider, metrics to the meter
 * provider (the API's global ones unless given), logs to `logger`; a part left out costs nothing.
 * Credentials are never recorded; message content and phone numbers only with `logContent: true`.
 *
 * @example
 * import * as api from '@opentelemetry/api';
 * import pino from 'pino';
 * import { createTelemetry } from '@smsv4/core';
 *
 * const telemetry = createTelemetry({ api, logger: pino() });
 * const client = createClient({ baseUrl, accountId, password, telemetry });
 */
export function createTelemetry(options: TelemetryOptions = {}): SmsTelemetry {
  const {
    api,
    tracerProvider = api?.trace.getTracerProvider(),
    meterProvider = api?.metrics.getMeterProvider(),
    logContent = false,
    scope = 'smsv4',
    maxTrackedTickets = 100_000,
    ticketTtlMs = DEFAULT_TICKET_TTL_MS,
    ticketLookupTimeoutMs = 1_000,
    now = Date.now,
  } = options;
  const logger = checkLogger(options.logger);
  if (typeof logContent !== 'boolean') throw new TypeError('logContent must be a Boolean');
  checkNonNegativeIntegers({ maxTrackedTickets });
  checkPositiveNumbers({ ticketTtlMs, ticketLookupTimeoutMs });
  const { ticketStore: tickets = createMemoryTicketStore({ maxTickets: maxTrackedTickets, now }) } = options;
  if (tickets === null || typeof tickets !== 'object' || (['remember', 'find'] as const).some((name) => typeof tickets[name] !== 'function')) {
    throw new TypeError('ticketStore must implement remember and find');
  }
  const tracer: TracerLike | undefined = tracerProvider?.getTracer(scope);
  const obtained: MeterLike | undefined = meterProvider?.getMeter(scope);
  // A meter of the API's no-op kind (no SDK registered when this ran) keeps nothing: skip the work.
  const noopMeter = api?.createNoopMeter?.();
  const meter = obtained !== undefined && noopMeter !== undefined && obtained.constructor === noopMeter.constructor ? undefined : obtained;
  const m = meter === undefined ? undefined : instruments(meter);
  // The global provider of the API (a proxy) delegates to the API's no-op provider until an SDK
  // registers: while it does, no span would record. Any other provider is taken to record.
  const noopTracerProvider = api?.ProxyTracerProvider === undefined ? undefined : new api.ProxyTracerProvider().getDelegate();
  const proxy = tracerProvider as Partial<{ getDelegate(): unknown }> | undefined;
  const reporting = (): boolean =>
    logger !== undefined ||
    m !== undefined ||
    (tracer !== undefined && (noopTracerProvider === undefined || typeof proxy?.getDelegate !== 'function' || proxy.getDelegate() !== noopTracerProvider));
  const serverOf = serverLookup();
  const childContext = (span: SpanLike): unknown => (api === undefined ? undefined : api.trace.setSpan(api.context.active(), span));
  /** Runs `fn` with `span` as the active span (as it is when there is no span or no context API). */
  const within = <T>(span: SpanLike | undefined, fn: () => T): T => (span === undefined || api?.context.with === undefined ? fn() : api.context.with(childContext(span), fn));
  const log = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string): void => writeLog(logger, level, fields, message);
  const storeFailed = (what: string, ticketId: string) => (e: unknown): void =>
    log('warn', { ticketId, error: errorText(e) }, `ticket store: ${what} ${ticketId} failed (its receipt goes without link and latency): ${errorText(e)}`);

  /** Remembers an accepted send; a store that fails only costs the receipt its link. */
  const rememberTicket = (ticketId: string, sent: SentTicket): void => {
    try {
      const done = tickets.remember(ticketId, sent, ticketTtlMs);
      if (isThenable(done)) done.then(undefined, storeFailed('remembering', ticketId));
    } catch (e) {
      storeFailed('remembering', ticketId)(e);
    }
  };

  /** Looks a ticket up; `undefined` when the store fails or takes longer than `ticketLookupTimeoutMs`. */
  const findTicket = (ticketId: string): SentTicket | undefined | Promise<SentTicket | undefined> => {
    let found: SentTicket | undefined | PromiseLike<SentTicket | undefined>;
    try {
      found = tickets.find(ticketId);
    } catch (e) {
      storeFailed('looking up', ticketId)(e);
      return undefined;
    }
    if (!isThenable<SentTicket | undefined>(found)) return found;
    const pending = found;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        log('warn', { ticketId, timeoutMs: ticketLookupTimeoutMs }, `ticket store: looking up ${ticketId} took over ${ticketLookupTimeoutMs} ms (its receipt goes without link and latency)`);
        resolve(undefined);
      }, ticketLookupTimeoutMs);
      pending.then(
        (sent) => {
          clearTimeout(timer);
          resolve(sent);
        },
        (e: unknown) => {
          clearTimeout(timer);
          storeFailed('looking up', ticketId)(e);
          resolve(undefined);
        },
      );
    });
  };

  const clientCall = (operation: string, callContent?: CallContent): ClientCallObserver => {
    // Personal data is dropped here unless it may be recorded, whatever the caller passed.
    const shown = logContent && callContent !== undefined ? callContent : undefined;
    const started = tracer?.startSpan(operationName(operation), {
      kind: SPAN_KIND_INTERNAL,
      attributes: { [A.operation]: operation, ...(shown === undefined ? {} : contentAttributes(shown)) },
    });
    // A span that does not record (no SDK) gets no attributes and no children: nothing would keep them.
    const span = started === undefined || started.isRecording?.() === false ? undefined : started;
    const parent = span === undefined ? undefined : childContext(span);
    return {
      active: span !== undefined || m !== undefined || logger !== undefined,
      attempt(r) {
        if (span === undefined && m === undefined && (logger === undefined || r.nextDelayMs === undefined)) return;
        const server = serverOf(r.url);
        const semantic: TelemetryAttributes = {
          'http.request.method': r.method,
          ...(server === undefined ? {} : { 'server.address': server.address, 'server.port': server.port }),
          ...(r.httpStatus === undefined ? {} : { 'http.response.status_code': r.httpStatus }),
          ...(r.errorKind === undefined ? {} : { 'error.type': r.errorKind === 'api-error' && r.code !== undefined ? String(r.code) : r.errorKind }),
        };
        if (span !== undefined && tracer !== undefined) {
          const attempt = tracer.startSpan(
            TELEMETRY_SPANS.attempt.replace('{method}', r.method),
            {
              kind: SPAN_KIND_CLIENT,
              startTime: r.startedAt,
              attributes: {
                ...semantic,
                'url.full': shownUrl(r.url, logContent),
                [A.operation]: operation,
                ...(r.attempt > 1 ? { 'http.request.resend_count': r.attempt - 1 } : {}),
                ...(r.requestId === undefined ? {} : { [A.requestId]: r.requestId }),
                ...(r.code === undefined ? {} : { [A.code]: String(r.code) }),
              },
            },
            parent,
          );
          if (r.errorKind !== undefined) attempt.setStatus({ code: STATUS_ERROR, message: r.errorKind });
          attempt.end(r.startedAt + r.durationMs);
        }
        if (m !== undefined) {
          m.attemptDuration.record(r.durationMs / 1000, semantic);
          m.attempts.add(1, {
            [A.operation]: operation,
            ...(r.httpStatus === undefined ? {} : { 'http.response.status_code': r.httpStatus }),
            ...(semantic['error.type'] === undefined ? {} : { 'error.type': semantic['error.type'] }),
          });
          if (r.nextDelayMs !== undefined) m.retries.add(1, { [A.operation]: operation, 'error.type': String(semantic['error.type'] ?? 'unknown') });
        }
        if (r.nextDelayMs !== undefined) {
          log('warn', { operation, attempt: r.attempt, httpStatus: r.httpStatus, requestId: r.requestId, code: r.code, error: r.errorKind, retryInMs: r.nextDelayMs }, `${operation} attempt ${r.attempt} failed (${String(r.code ?? r.errorKind)}): retrying in ${r.nextDelayMs} ms`);
        }
      },
      end(r) {
        const outcome = r.ok ? (operation === 'send' ? 'accepted' : 'success') : sendOutcome(r);
        const code = r.code === undefined ? undefined : String(r.code);
        if (span !== undefined) {
          span.setAttributes({
            [A.outcome]: outcome,
            [A.attempts]: r.attempts,
            ...(r.ticketId === undefined ? {} : { [A.ticketId]: r.ticketId }),
            ...(r.requestId === undefined ? {} : { [A.requestId]: r.requestId }),
            ...(code === undefined ? {} : { [A.code]: code }),
            ...(r.httpStatus === undefined ? {} : { 'http.response.status_code': r.httpStatus }),
            ...(r.reachedService === undefined ? {} : { [A.reachedService]: r.reachedService }),
            ...(r.errorKind === undefined ? {} : { 'error.type': r.errorKind }),
          });
          if (r.ok) span.setStatus({ code: STATUS_OK });
          else {
            if (r.error !== undefined) span.recordException(r.error);
            span.setStatus({ code: STATUS_ERROR, message: r.description ?? r.errorKind ?? 'failed' });
          }
          span.end();
        }
        if (r.ok && r.ticketId !== undefined && operation === 'send' && (span !== undefined || m !== undefined)) {
          const context = span?.spanContext();
          rememberTicket(r.ticketId, context === undefined ? { sentAt: now() } : { context, sentAt: now() });
        }
        if (m !== undefined) {
          m.operations.add(1, { [A.operation]: operation, [A.outcome]: outcome, ...(code === undefined ? {} : { [A.code]: code }) });
          if (operation === 'send') m.sends.add(1, { [A.outcome]: outcome, ...(code === undefined ? {} : { [A.code]: code }) });
        }
        if (logger === undefined) return;
        const fields = {
          operation,
          outcome,
          ticketId: r.ticketId,
          requestId: r.requestId,
          code,
          httpStatus: r.httpStatus,
          attempts: r.attempts,
          reachedService: r.reachedService,
          ...(shown === undefined ? {} : contentFields(shown)),
        };
        if (r.ok) log('info', fields, operation === 'send' ? `send accepted as ${r.ticketId ?? '?'}` : `${operation} answered`);
        else log(outcome === 'unknown' ? 'error' : 'warn', { ...fields, error: r.errorKind, description: r.description }, `${operation} ${outcome}: ${r.description ?? r.errorKind ?? 'failed'}`);
      },
    };
  };

  const callback = (): CallbackObserver => {
    const startedAt = now();
    let facts: CallbackFacts | undefined;
    let sent: SentTicket | undefined;
    let span: SpanLike | undefined;
    // Set once a span was started, recording or not: without an SDK the no-op span is dropped and not started again.
    let opened = false;
    const open = (kind: string): SpanLike | undefined => {
      opened = true;
      return tracer?.startSpan(TELEMETRY_SPANS.callback.replace('{kind}', kind), {
        kind: SPAN_KIND_INTERNAL,
        startTime: startedAt,
        ...(sent?.context === undefined ? {} : { links: [{ context: sent.context }] }),
        attributes: {
          [A.callbackKind]: kind,
          ...(facts === undefined ? {} : { [A.ticketId]: facts.ticketId }),
          ...(facts?.segmentNumber === undefined ? {} : { [A.segmentNumber]: facts.segmentNumber }),
          ...(facts?.totalSegments === undefined ? {} : { [A.totalSegments]: facts.totalSegments }),
          ...(facts?.code === undefined ? {} : { [A.code]: String(facts.code) }),
          ...(logContent && facts !== undefined ? contentAttributes(facts) : {}),
        },
      });
    };
    return {
      decoded(f) {
        facts = f;
        // Only a receipt has a send to find, and only a span or the latency histogram would use it.
        const found = f.kind === 'delivery-receipt' && (tracer !== undefined || m !== undefined) ? findTicket(f.ticketId) : undefined;
        if (!isThenable<SentTicket | undefined>(found)) {
          sent = found;
          span = recordingOrNone(open(f.kind));
          return;
        }
        return Promise.resolve(found).then((s) => {
          sent = s;
          span = recordingOrNone(open(f.kind));
        });
      },
      run: (fn) => within(span, fn),
      end(answer) {
        const kind = facts?.kind ?? 'unknown';
        const duplicate = answer.outcome === 'duplicate';
        if (!opened) span = recordingOrNone(open(kind));
        if (span !== undefined) {
          span.setAttributes({
            [A.outcome]: answer.outcome,
            [A.duplicate]: duplicate,
            'http.response.status_code': answer.status,
            ...(answer.rejection === undefined ? {} : { [A.rejection]: answer.rejection }),
          });
          if (answer.outcome === 'rejected') {
            if (answer.error !== undefined) span.recordException(answer.error);
            span.setStatus({ code: STATUS_ERROR, message: answer.rejection ?? 'rejected' });
          }
          span.end();
        }
        const state = facts?.code === undefined ? undefined : deliveryState(facts.code);
        if (m !== undefined) {
          m.callbacks.add(1, { [A.callbackKind]: kind, [A.outcome]: answer.outcome, ...(answer.rejection === undefined ? {} : { [A.rejection]: answer.rejection }) });
          if (duplicate) m.duplicates.add(1, { [A.callbackKind]: kind });
          if (answer.outcome === 'handled' && state?.final === true && sent !== undefined) {
            const delivered = instantOf(facts?.deliveryDate);
            if (delivered !== undefined && delivered >= sent.sentAt) m.deliveryLatency.record((delivered - sent.sentAt) / 1000, { [A.deliveryOutcome]: state.outcome });
          }
        }
        if (logger === undefined) return;
        const fields = {
          kind,
          outcome: answer.outcome,
          status: answer.status,
          rejection: answer.rejection,
          ticketId: facts?.ticketId,
          segmentNumber: facts?.segmentNumber,
          code: facts?.code,
          ...(logContent && facts !== undefined ? contentFields(facts) : {}),
        };
        if (answer.outcome === 'rejected') log(answer.status >= 500 || answer.status === 409 ? 'error' : 'warn', fields, `${kind} answered ${answer.status}: ${answer.rejection ?? 'rejected'}`);
        else log('info', fields, `${kind} ${answer.outcome}`);
      },
    };
  };

  const queueRecord = (r: QueueJobReport): void => {
    m?.queueJobs.add(1, { [A.queueState]: r.state });
    if (r.state === 'unknown') m?.unknownFates.add(1);
    const fields = { key: r.key, state: r.state, ticketId: r.ticketId, code: r.code, description: r.description };
    log(r.state === 'unknown' ? 'error' : r.state === 'rejected' || r.state === 'retrying' || r.state === 'failed' ? 'warn' : 'info', fields, `queued message ${r.key}: ${r.state}`);
  };

  const queueJob = (key: string): QueueJobObserver => {
    const span = recordingOrNone(tracer?.startSpan(TELEMETRY_SPANS.queueJob, { kind: SPAN_KIND_INTERNAL, attributes: { [A.queueKey]: key } }));
    return {
      run: (fn) => within(span, fn),
      end(r) {
        queueRecord(r);
        if (span === undefined) return;
        span.setAttributes({
          [A.queueState]: r.state,
          ...(r.ticketId === undefined ? {} : { [A.ticketId]: r.ticketId }),
          ...(r.code === undefined ? {} : { [A.code]: String(r.code) }),
        });
        span.setStatus(r.state === 'accepted' || r.state === 'delivered' ? { code: STATUS_OK } : { code: STATUS_ERROR, message: r.description ?? r.state });
        span.end();
      },
    };
  };

  return {
    logger,
    logContent,
    clientCall,
    callback,
    reporting,
    orphan({ ticketId, partsHeld, missingParts }) {
      m?.orphans.add(1);
      log('warn', { ticketId, partsHeld, missingParts }, `multipart inbound message ${ticketId} handed over incomplete: parts ${missingParts.join(', ')} missing`);
    },
    queueJob,
    queueState: queueRecord,
    observeQueueDepth(read) {
      if (meter === undefined) return () => undefined;
      const gauge = meter.createObservableGauge(M.queueDepth.name, { unit: M.queueDepth.unit, description: M.queueDepth.description });
      const observe = async (result: ObservableResultLike): Promise<void> => {
        try {
          result.observe(await read());
        } catch {
          // A queue that cannot be read is left out of this collection.
        }
      };
      gauge.addCallback(observe);
      return () => gauge.removeCallback(observe);
    },
    log,
  };
}

/** The outcome of a failed call: `rejected` (the service or the validator said no), `unknown` (it may have been accepted), `failed`. */
function sendOutcome(r: CallReport): string {
  if (r.errorKind === 'api-error' || r.errorKind === 'invalid-request') return 'rejected';
  if (r.reachedService === 'unknown') return 'unknown';
  return 'failed';
}

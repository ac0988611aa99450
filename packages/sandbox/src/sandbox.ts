/**
 * `createSandbox`: an in-memory emulator of the whole service on one origin, as a Web-standard
 * handler (`Request` → `Response`) usable in-process, with a Node listener on demand.
 */
import { basicAuthorization, checkLogger, writeLog, encodeMobileOriginate, formatForAccept, formatTimestamp, STATUS_RETENTION_MS, type InvokeValidationOptions, type TelemetryLogger } from '@smsv4/core';
import { ADMIN_PREFIX, handleAdmin } from './http/admin-api.js';
import type { SandboxRequestContext } from './http/account-checks.js';
import { callbackCredentialsProblem, checkAccounts, DEFAULT_ACCOUNTS, DEFAULT_DEMO_SHORT_CODE, type CallbackCredentials, type SandboxAccount } from './state/accounts.js';
import { createCallbackDispatcher, postWithFetch, type CallbackPost, type RetryPolicy } from './engine/callbacks.js';
import { callbackTarget, createCallbackPolicy, REDACTED, redactUrl } from './engine/callback-url.js';
import { hostAllowed, type AllowedHosts } from './http/request-guard.js';
import { createChangeFeed, type ChangeListener } from './state/change-feed.js';
import { createScaledClock, type SandboxClock } from './engine/clock.js';
import { createDeliverySimulator } from './engine/delivery.js';
import { ConnectionDroppedError, createFaultQueue, parseFault, type Fault, type FaultOperation } from './engine/faults.js';
import { createTicketIdFactory, invokeRequestId, smsRequestId } from './engine/ids.js';
import { buildInboundParts, checkInboundInput, tonOf, type InboundError, type InboundInput } from './engine/inbound.js';
import type { SandboxInternals } from './internals.js';
import { handleInvokeService } from './http/invoke-route.js';
import { messageView } from './engine/message-documents.js';
import { createOperatorDirectory, DEFAULT_GLOBAL_ROUTE, parseOperatorTable, SAMPLE_OPERATORS, type GlobalRoute, type OperatorTable } from './state/operators.js';
import { adminError, errorCodeOf, invokeError, smsError, urlError } from './http/responses.js';
import { createSandboxMetrics } from './state/metrics.js';
import { ANY_DESTINATION, parseScenario, type Scenario } from './engine/scenarios.js';
import { handleLookup, handleSend, handleStatus } from './http/sms-routes.js';
import { DEFAULT_SETTINGS, parseSettingsPatch, type SandboxSettings } from './state/settings.js';
import { createStore } from './state/store.js';
import type { ListenOptions, SandboxServer } from './listen/listen-types.js';
import type { AccountView, MessagePage, MessageView, SandboxSnapshot } from './state/views.js';

/** Options of {@link createSandbox}. Every option has a default. */
export interface SandboxOptions {
  /** The accounts (default {@link DEFAULT_ACCOUNTS}). */
  readonly accounts?: readonly SandboxAccount[];
  /** The operator table (default the SAMPLE table {@link SAMPLE_OPERATORS}); validated at creation. */
  readonly operators?: OperatorTable;
  /**
   * Limits for destinations no operator of the table serves: such sends are accepted and delivered
   * (global messaging) without an operator ID. `null` makes them fail with 345 instead.
   * Default {@link DEFAULT_GLOBAL_ROUTE}.
   */
  readonly globalRoute?: GlobalRoute | null;
  /** Simulated ms per real ms (default 1; 3600 turns an hour into a second). Ignored with `clock`. */
  readonly timeScale?: number;
  /** A clock to run on instead (e.g. `createManualClock()` for deterministic tests). */
  readonly clock?: SandboxClock;
  /** Scenarios per destination address (`*` for every destination without its own). */
  readonly scenarios?: Readonly<Record<string, Scenario>>;
  /** Faults armed from the start. */
  readonly faults?: readonly Fault[];
  /**
   * The Bearer token `/__sandbox/api/*` and `/__sandbox/metrics` require
   * (`Authorization: Bearer <token>`). Default: a random token made at creation, read back from {@link Sandbox.adminToken}.
   * `false` leaves the admin API open to anyone who can reach the port.
   */
  readonly adminToken?: string | false;
  /**
   * Host names requests may name in their `Host` header beside loopback names (`localhost`,
   * `*.localhost`) and IP literals, against DNS rebinding (a leading dot allows subdomains:
   * `.example.test`); `'any'` turns the check off. Requests built in-process (no `Host`) pass.
   * Default: none.
   */
  readonly allowedHosts?: AllowedHosts;
  /**
   * Hosts (`name` or `name:port`) callbacks may be posted to beside loopback and the hosts of the
   * accounts' `receiptUrl` and `inboundUrl`; `'any'` allows every host. A callback to another host
   * is recorded `failed`; an inbound injection to one is refused. Default: none.
   */
  readonly callbackHosts?: readonly string[] | 'any';
  /** Most messages kept (oldest evicted beyond; the same cap applies to callback attempts, inbound messages and invocations). Default 10 000. */
  readonly maxMessages?: number;
  /**
   * Longest time (simulated ms, the sandbox clock) messages, callback attempts, inbound messages and
   * invocations are kept; older ones are evicted, with any event a message still had to come.
   * Default {@link @smsv4/core!STATUS_RETENTION_MS} (five days), after which the service answers a status
   * request 711 anyway.
   */
  readonly maxAgeMs?: number;
  /** The demo short code; sources using it need `demoShortCode: true` on their account (577). Default `55555`. */
  readonly demoShortCode?: string;
  /** Final code of a message `mlc` refuses (the spec publishes none; default 351). */
  readonly mlcRejectCode?: number;
  /** Callback retry policy (simulated ms). */
  readonly retry?: RetryPolicy;
  /** Real ms a callback attempt may take (default 10 000). */
  readonly callbackTimeoutMs?: number;
  /**
   * The `fetch` callbacks are posted with. Default: on Node, Node's own HTTP client with keep-alive
   * connections (the same requests, at a fraction of `fetch`'s cost each); elsewhere `globalThis.fetch`.
   */
  readonly fetch?: typeof fetch;
  /** `User-Agent` of callbacks (default `smsv4-sandbox`). */
  readonly userAgent?: string;
  /**
   * The time zone of callback timestamps (receipts' `deliveryDate`, inbound `submittedDate`): `Z`
   * (default: UTC with milliseconds, as the spec shows) or an offset `±hh:mm` up to ±14:00, as the
   * real service also writes (`2015-08-29T15:10:03.029-05:00`), to test a receiver against it.
   * Changeable while running (`updateSettings`, the dashboard). Anything else is a `TypeError`.
   */
  readonly callbackTimestampOffset?: string;
  /** Reserved words and built-in variables of Invoke Service validation (core's defaults otherwise). */
  readonly invokeValidation?: InvokeValidationOptions;
  /** Renders the page of `GET /__sandbox/` (the package entry point wires the dashboard). */
  readonly dashboardPage?: () => string;
  /** Extra headers of the dashboard page (e.g. its Content Security Policy). */
  readonly dashboardHeaders?: Readonly<Record<string, string>>;
  /**
   * Structured logs (pino-style `info/warn/error(fields, message)`): each answer of the emulated
   * service and each callback attempt, without credentials, numbers or message content.
   */
  readonly logger?: TelemetryLogger;
}

/** A running sandbox. */
export interface Sandbox {
  /**
   * Handles one request (Web standard). `context` carries what a `Request` cannot (TLS facts from
   * the Node listener). Rejects with a {@link ConnectionDroppedError} (a `TypeError`) when a
   * `drop-after-accept` fault fires; otherwise always resolves to a well-formed response.
   */
  fetch(request: Request, context?: SandboxRequestContext): Promise<Response>;
  /** Starts a Node HTTP (or HTTPS, with `tls`) server for this sandbox. Node only. */
  listen(options?: ListenOptions): Promise<SandboxServer>;
  /** The visible state (what `GET /__sandbox/api/state` returns). */
  snapshot(): SandboxSnapshot;
  /**
   * A page of every stored message, oldest first (what `GET /__sandbox/api/messages` returns):
   * `offset` (default 0) and `limit` (default and maximum 1000); a bad value is a `TypeError`.
   */
  listMessages(options?: { readonly offset?: number; readonly limit?: number }): MessagePage;
  /** Calls `listener` on every state change; returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
  /** Injects an inbound message (see {@link InboundInput}); a bad input is a `TypeError`. */
  injectInbound(input: InboundInput): { ticketIds: string[] };
  /** Sets the scenario of a destination address (or `*`); an invalid scenario is a `TypeError`. */
  setScenario(destination: string, scenario: Scenario): void;
  /** Removes the scenario of a destination address (or `*`). */
  clearScenario(destination: string): void;
  /** Arms a fault; an invalid fault is a `TypeError`. */
  addFault(fault: Fault): void;
  /** Disarms every fault. */
  clearFaults(): void;
  /** Clears messages, callbacks, inbound messages, invocations, scenarios, faults and counters (settings and accounts' callback credentials stay). */
  reset(): void;
  /** The settings changeable while running (a copy). */
  settings(): SandboxSettings;
  /**
   * Sets (or, with `null`, removes) the Basic credentials of an account's callbacks: receipts of its
   * sends and inbound messages to it whose URL carries no credentials in its userinfo are posted
   * with `Authorization: Basic` from then on, retries included. The password is never shown back.
   * An unknown account or unusable credentials are a `TypeError`.
   */
  setCallbackCredentials(accountId: string, credentials: CallbackCredentials | null): void;
  /**
   * Changes settings while running (`{ callbackTimestampOffset: '-05:00' }`); they apply to the
   * callbacks made from then on. An unknown or invalid setting is a `TypeError`.
   */
  updateSettings(patch: Partial<SandboxSettings>): SandboxSettings;
  /** Stops timers, pending callbacks and change streams. The handler answers no more requests usefully after. */
  close(): Promise<void>;
  /** The clock the sandbox runs on. */
  readonly clock: SandboxClock;
  /** The Bearer token of the admin API (generated unless given), or `undefined` with `adminToken: false`. */
  readonly adminToken: string | undefined;
}

const SNAPSHOT_LIMITS = { messages: 500, callbacks: 1000, inbound: 500, invocations: 500 } as const;
/** The largest page of {@link Sandbox.listMessages} (and its default). */
const MESSAGE_PAGE_LIMIT = 1000;
const DEMO_PERIOD_MS = 30 * 24 * 3_600_000;

function newestFirst<T>(values: Iterable<T>, limit: number): T[] {
  const list = [...values];
  return list.slice(Math.max(0, list.length - limit)).reverse();
}

/**
 * Creates a sandbox. Checks its options at once (a bad account list, operator table, scenario or
 * fault is a `TypeError`).
 *
 * @example
 * const sandbox = createSandbox({ timeScale: 3600 });
 * const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
 * // ... point a client at server.url, credentials sandbox / sandbox-password ...
 * await server.close();
 */
export function createSandbox({
  accounts = DEFAULT_ACCOUNTS,
  operators = SAMPLE_OPERATORS,
  globalRoute = DEFAULT_GLOBAL_ROUTE,
  timeScale = 1,
  clock,
  scenarios = {},
  faults = [],
  adminToken: adminTokenOption,
  allowedHosts = [],
  callbackHosts = [],
  maxMessages = 10_000,
  maxAgeMs = STATUS_RETENTION_MS,
  demoShortCode = DEFAULT_DEMO_SHORT_CODE,
  mlcRejectCode = 351,
  retry = {},
  callbackTimeoutMs = 10_000,
  fetch: fetchOption,
  userAgent = 'smsv4-sandbox',
  callbackTimestampOffset = DEFAULT_SETTINGS.callbackTimestampOffset,
  invokeValidation = {},
  dashboardPage,
  dashboardHeaders = {},
  logger: loggerOption,
}: SandboxOptions = {}): Sandbox {
  checkAccounts(accounts);
  const table = parseOperatorTable(operators);
  if (!table.ok) throw new TypeError(`invalid operator table: ${table.error.description}`);
  if (!Number.isSafeInteger(mlcRejectCode) || mlcRejectCode < 0) throw new TypeError('mlcRejectCode must be a non-negative integer');
  if (adminTokenOption !== undefined && adminTokenOption !== false && (typeof adminTokenOption !== 'string' || adminTokenOption === '')) {
    throw new TypeError('adminToken must be a non-empty string, or false for an open admin API');
  }
  const adminToken = adminTokenOption === false ? undefined : (adminTokenOption ?? generateToken());
  if (allowedHosts !== 'any' && (!Array.isArray(allowedHosts) || !allowedHosts.every((h) => typeof h === 'string' && h !== ''))) {
    throw new TypeError("allowedHosts must be a list of host names, or 'any'");
  }
  if (callbackHosts !== 'any' && (!Array.isArray(callbackHosts) || !callbackHosts.every((h) => typeof h === 'string' && h !== ''))) {
    throw new TypeError("callbackHosts must be a list of hosts, or 'any'");
  }
  const callbackAllowed = createCallbackPolicy(callbackHosts, accounts.flatMap((a) => [a.receiptUrl, a.inboundUrl]));
  if (fetchOption !== undefined && typeof fetchOption !== 'function') throw new TypeError('fetch must be a function');
  const initialSettings = parseSettingsPatch({ callbackTimestampOffset });
  if (!initialSettings.ok) throw new TypeError(initialSettings.error.description);
  const settings: SandboxSettings = { ...DEFAULT_SETTINGS, ...initialSettings.value };
  const theClock = clock ?? createScaledClock({ timeScale });
  const startedAt = theClock.now();
  const feed = createChangeFeed();
  const store = createStore({ maxRecords: maxMessages, maxAgeMs, now: () => theClock.now(), clearTimer: (t) => theClock.clearTimeout(t) });
  const metrics = createSandboxMetrics();
  const logger = checkLogger(loggerOption);
  const faultQueue = createFaultQueue();
  const scenarioMap = new Map<string, Scenario>();
  const armScenario = (destination: string, scenario: unknown): void => {
    if (destination !== ANY_DESTINATION && !/^[0-9]{5,20}$/.test(destination)) throw new TypeError(`a scenario key is a destination of 5 to 20 digits or *, not ${JSON.stringify(destination)}`);
    const parsed = parseScenario(scenario);
    if (!parsed.ok) throw new TypeError(`invalid scenario for ${destination}: ${parsed.error.description}`);
    scenarioMap.set(destination, parsed.value);
  };
  const armFault = (fault: unknown): void => {
    const parsed = parseFault(fault);
    if (!parsed.ok) throw new TypeError(`invalid fault: ${parsed.error.description}`);
    faultQueue.add(parsed.value);
  };
  for (const [destination, scenario] of Object.entries(scenarios)) armScenario(destination, scenario);
  for (const fault of faults) armFault(fault);

  // The accounts' callback credentials, changeable while running (never shown back).
  const callbackCredentials = new Map<string, CallbackCredentials>();
  for (const account of accounts) {
    if (account.callbackCredentials !== undefined) callbackCredentials.set(account.accountId, { username: account.callbackCredentials.username, password: account.callbackCredentials.password });
  }
  const callbackAuthorization = (accountId: string): string | undefined => {
    const credentials = callbackCredentials.get(accountId);
    return credentials === undefined ? undefined : basicAuthorization({ accountId: credentials.username, password: credentials.password });
  };
  const setCallbackCredentials: SandboxInternals['setCallbackCredentials'] = (accountId, credentials) => {
    if (!accounts.some((a) => a.accountId === accountId)) return { ok: false, error: { code: 'no-account', description: `no account ${JSON.stringify(accountId)}` } };
    if (credentials === null) {
      callbackCredentials.delete(accountId);
    } else {
      const problem = callbackCredentialsProblem(credentials);
      if (problem !== undefined) return { ok: false, error: { code: 'invalid-credentials', description: problem } };
      const { username, password } = credentials as CallbackCredentials;
      callbackCredentials.set(accountId, { username, password });
    }
    feed.emit('settings');
    return { ok: true, value: accountView(accountId) };
  };
  const accountView = (accountId: string): AccountView => {
    const account = accounts.find((a) => a.accountId === accountId) as SandboxAccount;
    const credentials = callbackCredentials.get(accountId);
    return {
      accountId,
      ...(account.label === undefined ? {} : { label: account.label }),
      kind: account.kind ?? 'standard',
      ...(credentials === undefined ? {} : { callbackCredentials: { username: credentials.username, password: REDACTED } }),
    };
  };

  const nodePoster = fetchOption === undefined && isNode() ? lazyNodePost() : undefined;
  const post = fetchOption === undefined ? (nodePoster?.post ?? postWithFetch(globalThis.fetch)) : postWithFetch(fetchOption);
  const dispatcher = createCallbackDispatcher({
    clock: theClock,
    post,
    userAgent,
    timeoutMs: callbackTimeoutMs,
    retry,
    allowUrl: callbackAllowed,
    record(attempt) {
      store.addCallbackAttempt(attempt);
      metrics.callback(attempt.kind, attempt.outcome);
      if (logger !== undefined) {
        const fields = { kind: attempt.kind, ticketId: attempt.ticketId, segmentNumber: attempt.segmentNumber, attempt: attempt.attempt, outcome: attempt.outcome, httpStatus: attempt.httpStatus, error: attempt.error };
        const level = attempt.outcome === 'delivered' ? 'info' : attempt.outcome === 'gave-up' ? 'error' : 'warn';
        writeLog(logger, level, fields, `${attempt.kind} callback for ${attempt.ticketId}: ${attempt.outcome}`);
      }
      feed.emit('callback');
    },
  });
  const simulator = createDeliverySimulator({
    clock: theClock,
    feed,
    dispatcher,
    isLive: (record) => store.messages.get(record.ticketId) === record,
    timestampOffset: () => settings.callbackTimestampOffset,
    onFinalPart: (code) => metrics.finalPart(code),
    callbackAuthorization,
  });
  const directory = createOperatorDirectory(table.value);
  const newTicketId = createTicketIdFactory(store.hasTicket);
  const streams = new Set<() => void>();
  let closed = false;

  const injectInbound = (raw: InboundInput): { ok: true; value: { ticketIds: string[] } } | { ok: false; error: InboundError } => {
    const checked = checkInboundInput(raw);
    if (!checked.ok) return checked;
    const input = checked.value;
    const account = input.accountId === undefined ? accounts[0] : accounts.find((a) => a.accountId === input.accountId);
    if (account === undefined) return { ok: false, error: { code: 'invalid-inbound', description: `no account ${JSON.stringify(input.accountId ?? '')}` } };
    const parts = buildInboundParts(input, (max) => Math.floor(Math.random() * max));
    if (!parts.ok) return parts;
    const url = input.url ?? account.inboundUrl;
    if (input.url !== undefined) {
      const target = callbackTarget(input.url);
      if (!target.ok) return { ok: false, error: { code: 'invalid-inbound', description: `url: ${target.error}` } };
      if (!callbackAllowed(target.url)) {
        return { ok: false, error: { code: 'invalid-inbound', description: `url: posting to ${target.url.host} is not allowed (loopback, the accounts' URLs and the callbackHosts option only)` } };
      }
    }
    const format = input.format ?? account.inboundFormat ?? 'xml';
    const now = theClock.now();
    const sourceOperator = directory.route(input.from).operator;
    const ticketIds: string[] = [];
    for (const part of parts.value) {
      const ticketId = newTicketId();
      ticketIds.push(ticketId);
      metrics.inbound();
      store.addInbound({
        ticketId,
        accountId: account.accountId,
        submittedAt: now,
        from: input.from,
        to: input.to,
        type: part.message.type,
        udh: part.message.udh === true,
        content: part.message.content,
        ...(part.text === undefined ? {} : { text: part.text }),
        ...(url === undefined ? {} : { url: redactUrl(url) }),
        status: url === undefined ? 'no-url' : 'pending',
      });
      if (url === undefined) continue;
      const body = encodeMobileOriginate(
        {
          submittedDate: formatTimestamp(now, settings.callbackTimestampOffset),
          ticketId,
          source: { ton: 1, address: input.from, ...(sourceOperator === undefined ? {} : { mobileOperatorId: sourceOperator.mobileOperatorId }) },
          destination: { ton: tonOf(input.to), address: input.to },
          message: part.message,
        },
        format,
      );
      dispatcher.dispatch({
        kind: 'inbound',
        ticketId,
        url,
        format,
        body,
        authorization: () => callbackAuthorization(account.accountId),
        onAttempt(attempt) {
          const record = store.inbound.get(ticketId);
          if (record === undefined) return;
          record.status = attempt.outcome === 'delivered' ? 'delivered' : attempt.outcome === 'pending-retry' ? 'retrying' : 'gave-up';
          feed.emit('inbound');
        },
      });
    }
    feed.emit('inbound');
    return { ok: true, value: { ticketIds } };
  };

  const snapshot = (): SandboxSnapshot => ({
    now: new Date(theClock.now()).toISOString(),
    timeScale: clock === undefined ? timeScale : 1,
    messages: newestFirst(store.messages.values(), SNAPSHOT_LIMITS.messages).map(messageView),
    callbacks: newestFirst(store.callbacks, SNAPSHOT_LIMITS.callbacks),
    inbound: newestFirst(store.inbound.values(), SNAPSHOT_LIMITS.inbound).map((r) => ({ ...r, submittedAt: new Date(r.submittedAt).toISOString() })),
    invocations: newestFirst(store.invocations, SNAPSHOT_LIMITS.invocations),
    accounts: accounts.map((a) => accountView(a.accountId)),
    settings: { ...settings },
    metrics: metrics.view(),
  });

  const updateSettings: SandboxInternals['updateSettings'] = (patch) => {
    const parsed = parseSettingsPatch(patch);
    if (!parsed.ok) return parsed;
    Object.assign(settings, parsed.value);
    feed.emit('settings');
    return { ok: true, value: { ...settings } };
  };

  const listMessages = ({ offset = 0, limit = MESSAGE_PAGE_LIMIT }: { readonly offset?: number; readonly limit?: number } = {}): MessagePage => {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new TypeError(`offset must be a non-negative integer, got ${String(offset)}`);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MESSAGE_PAGE_LIMIT) throw new TypeError(`limit must be an integer from 1 to ${MESSAGE_PAGE_LIMIT}, got ${String(limit)}`);
    const messages: MessageView[] = [];
    let index = 0;
    for (const record of store.messages.values()) {
      if (index >= offset + limit) break;
      if (index >= offset) messages.push(messageView(record));
      index++;
    }
    return { total: store.messages.size, offset, messages };
  };

  const reset = (): void => {
    dispatcher.reset();
    store.clear();
    metrics.reset();
    scenarioMap.clear();
    faultQueue.clear();
    feed.emit('reset');
  };

  const internals: SandboxInternals = {
    accounts,
    clock: theClock,
    timeScale,
    store,
    feed,
    faults: faultQueue,
    scenarios: scenarioMap,
    dispatcher,
    simulator,
    operators: directory,
    globalRoute,
    mlcRejectCode,
    demoShortCode,
    defaultDemoExpiry: startedAt + DEMO_PERIOD_MS,
    invokeValidation,
    adminToken,
    dashboardPage,
    dashboardHeaders,
    newTicketId,
    scenarioFor: (destination) => scenarioMap.get(destination) ?? scenarioMap.get(ANY_DESTINATION) ?? { kind: 'delivered' },
    snapshot,
    listMessages,
    injectInbound,
    reset,
    settings: () => ({ ...settings }),
    updateSettings,
    setCallbackCredentials,
    accountViews: () => accounts.map((a) => accountView(a.accountId)),
    metrics,
    async faultBefore(operation: FaultOperation) {
      const fault = faultQueue.takeBefore(operation);
      if (fault === undefined) return undefined;
      if (fault.kind === 'latency') {
        await new Promise<void>((resolve) => setTimeout(resolve, fault.latencyMs));
        return undefined;
      }
      return fault.kind;
    },
    streams,
  };

  const route = async (request: Request, context: SandboxRequestContext): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method;
    if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return handleAdmin(internals, request, path);
    if (path === '/service' || path.startsWith('/service/')) return counted('invokeService', await handleInvokeService(internals, request, context));
    const accept = formatForAccept(request.headers.get('accept'));
    if (path === '/sms/v4/mt') {
      if (method !== 'POST') return counted('send', urlError(12003, accept, smsRequestId(), 'POST'));
      return counted('send', await handleSend(internals, request));
    }
    const status = /^\/sms\/v4\/mt\/([^/]+)\/status$/.exec(path);
    if (status !== null) {
      if (method !== 'GET') return counted('status', urlError(12003, accept, smsRequestId(), 'GET'));
      return counted('status', await handleStatus(internals, request, safeDecode(status[1] as string)));
    }
    const lookup = /^\/sms\/v4\/preview\/([^/]+)$/.exec(path);
    if (lookup !== null) {
      if (method !== 'GET') return counted('lookup', urlError(12003, accept, smsRequestId(), 'GET'));
      return counted('lookup', await handleLookup(internals, request, safeDecode(lookup[1] as string)));
    }
    return counted('other', urlError(12006, accept, smsRequestId()));
  };

  /** Counts an answer of the emulated service. */
  const counted = (operation: string, response: Response): Response => {
    const code = errorCodeOf(response);
    metrics.request(operation, response.status, code);
    if (logger !== undefined) {
      const fields = { operation, status: response.status, code, requestId: response.headers.get('x-request-id') ?? undefined, ticketId: response.headers.get('location')?.split('/').pop() };
      writeLog(logger, code === undefined ? 'info' : 'warn', fields, code === undefined ? `${operation} answered ${response.status}` : `${operation} answered ${response.status} with ${code}`);
    }
    return response;
  };

  const handle = async (request: Request, context: SandboxRequestContext = {}): Promise<Response> => {
    if (request === null || typeof request !== 'object' || typeof request.url !== 'string' || typeof request.method !== 'string') {
      throw new TypeError('sandbox.fetch takes a Request');
    }
    const host = request.headers.get('host');
    if (!hostAllowed(host, allowedHosts)) {
      await request.body?.cancel().catch(() => undefined);
      return adminError(
        403,
        'host-not-allowed',
        `Host ${JSON.stringify(host)} is not allowed (against DNS rebinding): use a loopback name or an IP address, or list the name in allowedHosts (--allowed-host)`,
        smsRequestId(),
      );
    }
    try {
      const response = await route(request, context);
      if (closed) void response.body?.cancel().catch(() => undefined);
      return response;
    } catch (error) {
      if (error instanceof ConnectionDroppedError) throw error;
      // Never a crash: an unexpected failure is the service's temporary error.
      let invoke = false;
      try {
        invoke = new URL(request.url).pathname.startsWith('/service');
      } catch {
        invoke = false;
      }
      return invoke ? invokeError({ code: 1000 }, invokeRequestId()) : smsError('1000', formatForAccept(request.headers.get('accept')), smsRequestId());
    }
  };

  const sandbox: Sandbox = {
    fetch: handle,
    async listen(options = {}) {
      const { listenSandbox } = await import('./listen/node-listener.js');
      return listenSandbox(sandbox, options);
    },
    snapshot,
    listMessages,
    subscribe: (listener) => feed.subscribe(listener),
    injectInbound(input) {
      const result = injectInbound(input);
      if (!result.ok) throw new TypeError(result.error.description);
      return result.value;
    },
    setScenario: armScenario,
    clearScenario(destination) {
      scenarioMap.delete(destination);
    },
    addFault: armFault,
    clearFaults: () => faultQueue.clear(),
    reset,
    settings: () => ({ ...settings }),
    updateSettings(patch) {
      const result = updateSettings(patch);
      if (!result.ok) throw new TypeError(result.error.description);
      return result.value;
    },
    setCallbackCredentials(accountId, credentials) {
      const result = setCallbackCredentials(accountId, credentials);
      if (!result.ok) throw new TypeError(result.error.description);
    },
    async close() {
      if (closed) return;
      closed = true;
      dispatcher.close();
      nodePoster?.close();
      for (const record of store.messages.values()) {
        for (const timer of record.timers) theClock.clearTimeout(timer);
        record.timers.clear();
      }
      for (const end of [...streams]) end();
      feed.clear();
    },
    clock: theClock,
    adminToken,
  };
  return sandbox;
}

/** A random admin token: 24 random octets, base64url (32 characters). */
function generateToken(): string {
  const octets = crypto.getRandomValues(new Uint8Array(24));
  let binary = '';
  for (const octet of octets) binary += String.fromCharCode(octet);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether the sandbox runs on Node (whose HTTP client then posts the callbacks). */
function isNode(): boolean {
  const versions = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions;
  return typeof versions?.node === 'string';
}

/** Node's callback poster, its module loaded with the first callback. */
function lazyNodePost(): { post: CallbackPost; close(): void } {
  let loading: Promise<{ post: CallbackPost; close(): void }> | undefined;
  return {
    post: async (url, request) => {
      loading ??= import('./engine/node-callback-post.js').then(({ createNodeCallbackPost }) => createNodeCallbackPost());
      return (await loading).post(url, request);
    },
    close() {
      void loading?.then((poster) => poster.close());
    },
  };
}

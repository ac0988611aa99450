/**
 * `startSandbox()`: the sandbox in-process on a free loopback port, on a manual clock that moves
 * only when the test moves it (and waits for the callbacks it starts), closed by the test runner.
 */
import {
  basicAuthorization,
  buildSendRequest,
  parseSendResponse,
  type ApiFailure,
  type MtRequest,
  type Result,
  type SendAccepted,
  type WireFormat,
} from '@smsv4/core';
import { createSandbox, DEFAULT_ACCOUNTS, type CallbackAttemptView, type ManualClock, type Sandbox, type SandboxOptions, type SandboxServer } from '@smsv4/sandbox';
import { instantOf, type InstantInput } from '../builders/timestamps.js';
import { once, prepareTeardown, type Teardown } from './teardown.js';
import { createSteppingClock } from './stepping-clock.js';
import { createTrackedFetch } from './tracked-fetch.js';

/** Options of {@link startSandbox}: the sandbox's own (but its clock), and where and how long it runs. */
export interface StartSandboxOptions extends Omit<SandboxOptions, 'clock' | 'timeScale'> {
  /** The simulated time at start (default 2025-01-01T00:00:00.000Z). */
  readonly start?: InstantInput;
  /** Interface to listen on (default `127.0.0.1`). */
  readonly host?: string;
  /** Port (default 0: a free one). */
  readonly port?: number;
  /** How it is closed (default `'auto'`: by the runner entry of the setup files). */
  readonly teardown?: Teardown;
}

/** The credentials and URL a client needs (transport-fetch's `createClient`, Nest's `SmsModule`). */
export interface SandboxClientOptions {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly password: string;
}

/** A running test sandbox. */
export interface TestSandbox {
  /** Base URL of the API (`http://127.0.0.1:<port>`); the dashboard is under `/__sandbox/`. */
  readonly url: string;
  readonly port: number;
  /** The sandbox itself: snapshot, scenarios, faults, injected inbound messages, reset. */
  readonly sandbox: Sandbox;
  /**
   * Its manual clock. `advance` and `advanceTo` stop at every timer that falls due and wait for
   * the callbacks it starts to be answered, so retries within one step happen on time.
   */
  readonly clock: ManualClock;
  /** The first account (default `sandbox` / `sandbox-password`) as client options. */
  readonly client: SandboxClientOptions;
  /** `Basic …` of the first account. */
  readonly authorization: string;
  /** Moves the clock by `ms` simulated milliseconds (see {@link TestSandbox.clock}). */
  advance(ms: number): Promise<void>;
  /** Waits until no callback is in flight (each answered, or failed, and recorded). */
  settle(): Promise<void>;
  /**
   * Sends an MT request as the first account, in-process, in JSON (default) or XML; the accepted
   * send (its ticket ID) or the failure, as core's `parseSendResponse` reads the answer.
   */
  send(request: MtRequest, options?: { readonly format?: WireFormat }): Promise<Result<SendAccepted, ApiFailure>>;
  /** The callback attempts recorded (oldest first), of a ticket ID when given. */
  callbacks(ticketId?: string): CallbackAttemptView[];
  /** Stops the server and the sandbox (once; later calls wait for the same close). */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a sandbox for a test: in-process, listening on a free loopback port, on a manual clock.
 * Closed by the test runner when the runner entry is in the setup files (after the test that
 * started it, or after the file when started in `beforeAll` or at the top), otherwise as
 * `teardown` says.
 *
 * @example
 * const sms = await startSandbox();
 * const sent = await sms.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' }, delivery: { receiptRequested: 'final', url: receiverUrl } });
 * await sms.advance(60_000); // the receipt is posted, and answered, before this resolves
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const { start = Date.UTC(2025, 0, 1), host = '127.0.0.1', port = 0, teardown, fetch: base = globalThis.fetch, ...sandboxOptions } = options;
  const register = prepareTeardown(teardown, 'startSandbox');
  if (typeof base !== 'function') throw new TypeError('fetch must be a function');
  const account = (sandboxOptions.accounts ?? DEFAULT_ACCOUNTS)[0];
  if (account === undefined) throw new TypeError('accounts must hold at least one account');
  const credentials = { accountId: account.accountId, password: account.password };
  const tracked = createTrackedFetch(base);
  const settle = async (): Promise<void> => {
    // A macrotask turn lets answered callbacks be recorded and the next ones start.
    for (let rounds = 0; rounds < 10_000; rounds++) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      if (tracked.inFlight() === 0) {
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        if (tracked.inFlight() === 0) return;
      }
      await tracked.drain();
    }
  };
  const clock = createSteppingClock(instantOf(start, 'start'), settle);
  const sandbox = createSandbox({ ...sandboxOptions, clock, fetch: tracked.fetch });
  let server: SandboxServer;
  try {
    server = await sandbox.listen({ host, port });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const close = once(async () => {
    await sandbox.close();
    await server.close();
  });
  const handle: TestSandbox = {
    url: server.url,
    port: server.port,
    sandbox,
    clock,
    client: { baseUrl: server.url, ...credentials },
    authorization: basicAuthorization(credentials),
    advance: (ms) => clock.advance(ms),
    settle,
    async send(request, { format = 'json' } = {}) {
      const built = buildSendRequest({ endpoints: { baseUrl: server.url }, credentials }, request, format);
      const response = await sandbox.fetch(new Request(built.url, { method: built.method, headers: built.headers, body: built.body ?? null }));
      return parseSendResponse({ status: response.status, headers: response.headers, body: await response.text() });
    },
    callbacks: (ticketId) => sandbox.snapshot().callbacks.filter((c) => ticketId === undefined || c.ticketId === ticketId).reverse(),
    close,
    [Symbol.asyncDispose]: close,
  };
  register(close);
  return handle;
}

/** The parts of one sandbox that its request handlers share (not exported from the package). */
import type { InvokeValidationOptions } from '@smsv4/core';
import type { SandboxAccount } from './state/accounts.js';
import type { CallbackDispatcher } from './engine/callbacks.js';
import type { ChangeFeed } from './state/change-feed.js';
import type { SandboxClock } from './engine/clock.js';
import type { DeliverySimulator } from './engine/delivery.js';
import type { FaultOperation, FaultQueue } from './engine/faults.js';
import type { InboundError, InboundInput } from './engine/inbound.js';
import type { GlobalRoute, OperatorDirectory } from './state/operators.js';
import type { Scenario } from './engine/scenarios.js';
import type { SandboxMetrics } from './state/metrics.js';
import type { SandboxStore } from './state/store.js';
import type { SettingsError, SandboxSettings } from './state/settings.js';
import type { AccountView, MessagePage, SandboxSnapshot } from './state/views.js';

/** Shared state and services of a sandbox. */
export interface SandboxInternals {
  readonly accounts: readonly SandboxAccount[];
  readonly clock: SandboxClock;
  readonly timeScale: number;
  readonly store: SandboxStore;
  readonly feed: ChangeFeed;
  readonly faults: FaultQueue;
  readonly scenarios: Map<string, Scenario>;
  readonly dispatcher: CallbackDispatcher;
  readonly simulator: DeliverySimulator;
  readonly operators: OperatorDirectory;
  readonly globalRoute: GlobalRoute | null;
  readonly mlcRejectCode: number;
  readonly demoShortCode: string;
  readonly defaultDemoExpiry: number;
  readonly invokeValidation: InvokeValidationOptions;
  readonly adminToken: string | undefined;
  readonly dashboardPage: (() => string) | undefined;
  readonly dashboardHeaders: Readonly<Record<string, string>>;
  newTicketId(): string;
  scenarioFor(destination: string): Scenario;
  snapshot(): SandboxSnapshot;
  listMessages(options?: { readonly offset?: number; readonly limit?: number }): MessagePage;
  injectInbound(input: InboundInput): { ok: true; value: { ticketIds: string[] } } | { ok: false; error: InboundError };
  reset(): void;
  /** The current settings (a copy). */
  settings(): SandboxSettings;
  /** Checks and applies a change of settings (a parsed JSON body). */
  updateSettings(patch: unknown): { ok: true; value: SandboxSettings } | { ok: false; error: SettingsError };
  /** Sets (or, with `null`, removes) an account's callback credentials (a parsed JSON body). */
  setCallbackCredentials(accountId: string, credentials: unknown): { ok: true; value: AccountView } | { ok: false; error: { code: 'no-account' | 'invalid-credentials'; description: string } };
  /** The accounts as the admin API lists them (no password). */
  accountViews(): AccountView[];
  /** The counters (`/__sandbox/metrics`). */
  readonly metrics: SandboxMetrics;
  /** Waits out a `latency` fault and answers a `1010`/`1000` one: what `takeBefore` gave. */
  faultBefore(operation: FaultOperation): Promise<'1010' | '1000' | undefined>;
  /** Subscribers of open SSE streams, closed with the sandbox. */
  readonly streams: Set<() => void>;
}

// Public entry point of @smsv4/sandbox. Every public symbol is exported here by name.
import { renderDashboardPage } from './dashboard/page.js';
import { createSandbox as createSandboxHandler, type Sandbox, type SandboxOptions } from './sandbox.js';

/**
 * Creates a sandbox: the whole service (send, status, lookup, receipts, inbound messages, Invoke
 * Service) in memory on one origin, with the admin API and the dashboard page under `/__sandbox`.
 * See {@link SandboxOptions} for every option and its default.
 *
 * @example
 * import { createSandbox } from '@smsv4/sandbox';
 *
 * const sandbox = createSandbox({ timeScale: 3600 });
 * const server = await sandbox.listen({ port: 4010 });
 * console.log(`API ${server.url}, dashboard ${server.url}/__sandbox/`);
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandboxHandler({
    dashboardPage: renderDashboardPage,
    ...options,
  });
}

export type { Sandbox, SandboxOptions } from './sandbox.js';
export type { ListenOptions, ListenTlsOptions, SandboxServer } from './listen/listen-types.js';
export type { SandboxRequestContext, SandboxTlsInfo } from './http/account-checks.js';

export type { SandboxAccount, AccountKind, CallbackCredentials, DemoLimits } from './state/accounts.js';
export { DEFAULT_ACCOUNTS, DEFAULT_DEMO_SHORT_CODE, SandboxAccountSchema, SandboxAccountsFileSchema, parseAccounts } from './state/accounts.js';

export type { OperatorEntry, OperatorTable, OperatorTableError, GlobalRoute } from './state/operators.js';
export { OperatorEntrySchema, OperatorTableSchema, SAMPLE_OPERATORS, DEFAULT_GLOBAL_ROUTE, parseOperatorTable } from './state/operators.js';

export type { Scenario } from './engine/scenarios.js';
export { ScenarioSchema, parseScenario, ANY_DESTINATION } from './engine/scenarios.js';

export type { Fault, FaultOperation } from './engine/faults.js';
export { FaultSchema, parseFault, ConnectionDroppedError } from './engine/faults.js';

export type { SandboxClock, TimerHandle, ScaledClockOptions, ManualClock, ManualClockOptions } from './engine/clock.js';
export { createScaledClock, createManualClock } from './engine/clock.js';

export type { RetryPolicy } from './engine/callbacks.js';
export { CALLBACK_SETTLING_STATUSES, DEFAULT_RETRY_POLICY } from './engine/callbacks.js';
export { redactUrl } from './engine/callback-url.js';
export type { AllowedHosts } from './http/request-guard.js';

export type { InboundInput, InboundError } from './engine/inbound.js';
export type { SandboxSettings, SettingsError } from './state/settings.js';

export { DEFAULT_DELIVERY_DELAY_MS, DEFAULT_EXPIRY_MS } from './engine/delivery.js';
export { ADMIN_PREFIX } from './http/admin-api.js';

export type { ChangeListener } from './state/change-feed.js';
export type { SandboxMetricsView } from './state/metrics.js';
export type {
  SandboxSnapshot,
  MessagePage,
  MessageView,
  MessagePartView,
  TimelineEntry,
  CallbackAttemptView,
  InboundView,
  InvocationView,
  AccountView,
  SandboxChange,
} from './state/views.js';

export { renderDashboardPage } from './dashboard/page.js';
export { DEFAULT_SANDBOX_URL, SANDBOX_DEFAULTS, SANDBOX_ENVIRONMENT, openAdminWarning } from './server-defaults.js';

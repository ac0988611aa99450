// Public entry point of @smsv4/sandbox. Every public symbol is exported here by name.
import { DASHBOARD_CONTENT_SECURITY_POLICY, renderDashboardPage } from './dashboard/page.js';
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
    dashboardHeaders: { 'content-security-policy': DASHBOARD_CONTENT_SECURITY_POLICY },
    ...options,
  });
}

export type { Sandbox, SandboxOptions } from './sandbox.js';
export type { ListenOptions, ListenTlsOptions, SandboxServer } from './listen-types.js';
export type { SandboxRequestContext, SandboxTlsInfo } from './account-checks.js';

export type { SandboxAccount, AccountKind, DemoLimits } from './accounts.js';
export { DEFAULT_ACCOUNTS, DEFAULT_DEMO_SHORT_CODE, SandboxAccountSchema, SandboxAccountsFileSchema, parseAccounts } from './accounts.js';

export type { OperatorEntry, OperatorTable, OperatorTableError, GlobalRoute } from './operators.js';
export { OperatorEntrySchema, OperatorTableSchema, SAMPLE_OPERATORS, DEFAULT_GLOBAL_ROUTE, parseOperatorTable } from './operators.js';

export type { Scenario } from './scenarios.js';
export { ScenarioSchema, parseScenario, ANY_DESTINATION } from './scenarios.js';

export type { Fault, FaultOperation } from './faults.js';
export { FaultSchema, parseFault, ConnectionDroppedError } from './faults.js';

export type { SandboxClock, TimerHandle, ScaledClockOptions, ManualClock, ManualClockOptions } from './clock.js';
export { createScaledClock, createManualClock } from './clock.js';

export type { RetryPolicy } from './callbacks.js';
export { DEFAULT_RETRY_POLICY } from './callbacks.js';

export type { InboundInput, InboundError } from './inbound.js';

export { DEFAULT_DELIVERY_DELAY_MS, DEFAULT_EXPIRY_MS } from './delivery.js';
export { ADMIN_PREFIX } from './admin-api.js';

export type { ChangeListener } from './change-feed.js';
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
} from './views.js';

export { renderDashboardPage } from './dashboard/page.js';
export { DEFAULT_SANDBOX_URL, SANDBOX_DEFAULTS, SANDBOX_ENVIRONMENT } from './server-defaults.js';

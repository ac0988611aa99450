import { ADMIN_PREFIX, createSandbox, DEFAULT_ACCOUNTS, openAdminWarning as sandboxOpenAdminWarning, type Sandbox, type SandboxServer } from '@smsv4/sandbox';
import { formatBanner } from './banner.js';
import type { AppOptions } from './cli-options.js';
import type { FileSettings } from './config-files.js';

/** A running sandbox app. */
export interface RunningApp {
  readonly sandbox: Sandbox;
  readonly server: SandboxServer;
  /** Base URL of the API, for clients (loopback when bound to every interface). */
  readonly apiUrl: string;
  /** URL of the dashboard page (with `#token=` when an admin token is set). */
  readonly dashboardUrl: string;
  /** What the app prints once ready. */
  readonly banner: string;
  /** Stops listening, then stops the sandbox's timers and callbacks. */
  close(): Promise<void>;
}

/** An error that comes from the user's settings (exit status 2), not from the machine. */
export class AppSettingsError extends Error {
  override readonly name = 'AppSettingsError';
}

/** The banner's warning when the admin API is open (no token) on an address other than loopback. */
export function openAdminWarning(boundUrl: string, adminToken: string | undefined): { warning: string } | undefined {
  const warning = sandboxOpenAdminWarning(boundUrl, adminToken);
  return warning === undefined ? undefined : { warning };
}

/** The URL clients use: a wildcard bind address is reached through loopback. */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.origin;
}

/**
 * Creates the sandbox from the options and file settings and starts listening. A setting the
 * sandbox refuses (an invalid account) is an {@link AppSettingsError}; a port already in use is
 * the listener's own error.
 */
export async function startSandboxApp(
  options: Pick<AppOptions, 'port' | 'host' | 'timeScale' | 'adminToken' | 'noAdminToken' | 'allowedHosts' | 'callbackHosts' | 'accountsFile' | 'operatorsFile' | 'callbackOffset'>,
  files: FileSettings = {},
): Promise<RunningApp> {
  const { port, host, timeScale, accountsFile, operatorsFile, callbackOffset, noAdminToken = false, allowedHosts, callbackHosts } = options;
  const givenToken = options.adminToken ?? files.adminToken;
  const accounts = files.accounts ?? DEFAULT_ACCOUNTS;
  let sandbox: Sandbox;
  try {
    sandbox = createSandbox({
      accounts,
      timeScale,
      ...(files.operators ? { operators: files.operators } : {}),
      adminToken: noAdminToken ? false : givenToken,
      ...(allowedHosts !== undefined ? { allowedHosts } : {}),
      ...(callbackHosts !== undefined ? { callbackHosts } : {}),
      ...(callbackOffset !== undefined ? { callbackTimestampOffset: callbackOffset } : {}),
    });
  } catch (error) {
    if (error instanceof TypeError) {
      const where = accountsFile === undefined ? '' : ` (accounts file ${accountsFile})`;
      throw new AppSettingsError(`invalid settings${where}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  let server: SandboxServer;
  try {
    server = await sandbox.listen({ port, host });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const apiUrl = reachableUrl(server.url);
  const { adminToken } = sandbox;
  const dashboardUrl = `${apiUrl}${ADMIN_PREFIX}/${adminToken === undefined ? '' : `#token=${encodeURIComponent(adminToken)}`}`;
  const boundTo = apiUrl === server.url ? undefined : `${server.url} (every interface)`;
  const banner = formatBanner({
    apiUrl,
    dashboardUrl,
    accounts,
    timeScale,
    ...(callbackOffset !== undefined ? { callbackOffset } : {}),
    ...(accountsFile !== undefined ? { accountsFile } : {}),
    ...(operatorsFile !== undefined ? { operatorsFile } : {}),
    ...(boundTo !== undefined ? { boundTo } : {}),
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(openAdminWarning(server.url, adminToken) ?? {}),
  });
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    server,
    apiUrl,
    dashboardUrl,
    banner,
    close() {
      return (closing ??= server.close().then(() => sandbox.close()));
    },
  };
}

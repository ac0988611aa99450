/** Where a sandbox server listens unless told otherwise (the app and `smsv4 sandbox` alike). */
export const SANDBOX_DEFAULTS = Object.freeze({ port: 4010, host: '127.0.0.1' });

/** The base URL of a sandbox server at its defaults. */
export const DEFAULT_SANDBOX_URL = `http://${SANDBOX_DEFAULTS.host}:${SANDBOX_DEFAULTS.port}`;

/** The environment variables a sandbox server reads, by option (a command-line flag wins over them). */
export const SANDBOX_ENVIRONMENT = Object.freeze({
  port: 'SMSV4_PORT',
  host: 'SMSV4_HOST',
  accounts: 'SMSV4_ACCOUNTS',
  operators: 'SMSV4_OPERATORS',
  timeScale: 'SMSV4_TIME_SCALE',
  adminToken: 'SMSV4_ADMIN_TOKEN',
  adminTokenFile: 'SMSV4_ADMIN_TOKEN_FILE',
  allowedHosts: 'SMSV4_ALLOWED_HOSTS',
  callbackHosts: 'SMSV4_CALLBACK_HOSTS',
  callbackTimestampOffset: 'SMSV4_CALLBACK_OFFSET',
});

/**
 * The warning a sandbox server's banner gives when its admin API and dashboard are open (no admin
 * token) on an address other than loopback, where anyone who reaches the port can read and change
 * the sandbox; `undefined` with a token, or on loopback. `boundUrl` is the server's own URL.
 *
 * @example
 * openAdminWarning('http://0.0.0.0:4010', undefined);
 * // 'the admin API and dashboard are open to anyone who reaches http://0.0.0.0:4010 (--no-admin-token off loopback)'
 */
export function openAdminWarning(boundUrl: string, adminToken: string | undefined): string | undefined {
  if (adminToken !== undefined) return undefined;
  const host = new URL(boundUrl).hostname.toLowerCase();
  if (/^127(?:\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === 'localhost') return undefined;
  return `the admin API and dashboard are open to anyone who reaches ${boundUrl} (--no-admin-token off loopback)`;
}

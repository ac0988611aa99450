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

import { parseArgs } from 'node:util';
import { parseUtcOffset } from '@smsv4/core';
import { SANDBOX_DEFAULTS, SANDBOX_ENVIRONMENT } from '@smsv4/sandbox';

/** What the command line and the environment ask for. */
export interface AppOptions {
  /** TCP port (0: any free port). */
  readonly port: number;
  /** Interface to bind. */
  readonly host: string;
  /** JSON file of accounts (replaces the default accounts). */
  readonly accountsFile?: string;
  /** JSON file of the operator table (replaces the sample table). */
  readonly operatorsFile?: string;
  /** Simulated milliseconds per real millisecond. */
  readonly timeScale: number;
  /** Bearer token required on the admin API (default: one generated at start). */
  readonly adminToken?: string;
  /** File holding the admin token (its first line), read at start. */
  readonly adminTokenFile?: string;
  /** `--no-admin-token`: the admin API open to anyone who reaches the port. */
  readonly noAdminToken?: boolean;
  /** Host names requests may use beside loopback names and IP addresses (`any`: no check). */
  readonly allowedHosts?: readonly string[] | 'any';
  /** Hosts callbacks may go to beside loopback and the accounts' URLs (`any`: every host). */
  readonly callbackHosts?: readonly string[] | 'any';
  /** Time zone of callback timestamps: `Z` or `±hh:mm` (default `Z`). */
  readonly callbackOffset?: string;
  /** `--help` was given. */
  readonly help: boolean;
}

/** The defaults of {@link AppOptions}. */
export const DEFAULT_APP_OPTIONS = { port: SANDBOX_DEFAULTS.port, host: SANDBOX_DEFAULTS.host, timeScale: 1 } as const;

/** The environment variables read, by option. */
export const ENVIRONMENT_VARIABLES = SANDBOX_ENVIRONMENT;

const HELP_ROWS: readonly [flag: string, text: string, variable?: string][] = [
  ['--port <n>', `TCP port, 0 for any free port. Default ${DEFAULT_APP_OPTIONS.port}.`, ENVIRONMENT_VARIABLES.port],
  ['--host <address>', `Interface to bind. Default ${DEFAULT_APP_OPTIONS.host}.`, ENVIRONMENT_VARIABLES.host],
  ['--accounts <file>', 'JSON file of accounts. Default: the built-in accounts.', ENVIRONMENT_VARIABLES.accounts],
  ['--operators <file>', 'JSON file of the operator table. Default: the sample table.', ENVIRONMENT_VARIABLES.operators],
  ['--time-scale <n>', `Simulated ms per real ms (3600: an hour per second). Default ${DEFAULT_APP_OPTIONS.timeScale}.`, ENVIRONMENT_VARIABLES.timeScale],
  ['--admin-token <text>', 'Bearer token of the admin API. Default: a new random one, printed. (Visible to other local users in the process list: prefer the variable or --admin-token-file.)', ENVIRONMENT_VARIABLES.adminToken],
  ['--admin-token-file <file>', 'Read the admin token from the first line of this file.', ENVIRONMENT_VARIABLES.adminTokenFile],
  ['--no-admin-token', 'Leave the admin API and dashboard open to anyone who reaches the port.'],
  ['--allowed-host <name>', 'Host name clients may use beside localhost and IP addresses (repeatable; any: no check).', ENVIRONMENT_VARIABLES.allowedHosts],
  ['--callback-host <host>', 'Host callbacks may go to beside loopback and the accounts\' URLs (repeatable; any: every host).', ENVIRONMENT_VARIABLES.callbackHosts],
  ['--callback-offset=<zone>', 'Callback timestamps: Z or ±hh:mm up to ±14:00 (--callback-offset=-05:00). Default Z.', ENVIRONMENT_VARIABLES.callbackTimestampOffset],
  ['-h, --help', 'Show this help.'],
];

const FLAG_WIDTH = Math.max(...HELP_ROWS.map(([flag]) => flag.length)) + 2;

/** The text of `--help`. */
export const USAGE = `Usage: smsv4-sandbox [options]

Runs the smsv4 sandbox: the Global SMS API v4 and Invoke Service emulator, with its dashboard.

Options (a flag wins over its environment variable):
${HELP_ROWS.map(([flag, text, variable]) => `  ${flag.padEnd(FLAG_WIDTH)}${text}${variable ? `\n  ${''.padEnd(FLAG_WIDTH)}Environment: ${variable}` : ''}`).join('\n')}

Exit status: 0 after a clean stop (Ctrl+C, SIGTERM), 1 when the server cannot start,
2 on bad options or files.
`;

/** The outcome of {@link parseAppOptions}: the options, or a message for the user. */
export type AppOptionsResult = { ok: true; value: AppOptions } | { ok: false; error: string };

function parsePort(raw: string, from: string): number | string {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65_535) return `${from} must be a port number from 0 to 65535, not ${JSON.stringify(raw)}`;
  return Number(raw);
}

function parseTimeScale(raw: string, from: string): number | string {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) return `${from} must be a positive number, not ${JSON.stringify(raw)}`;
  return value;
}

/**
 * Reads the options from the command line (`argv` without the node and script paths) and the
 * environment. Never throws: an unknown flag, a missing value or an invalid number is an error
 * message naming the flag or variable.
 */
export function parseAppOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): AppOptionsResult {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        accounts: { type: 'string' },
        operators: { type: 'string' },
        'time-scale': { type: 'string' },
        'admin-token': { type: 'string' },
        'admin-token-file': { type: 'string' },
        'no-admin-token': { type: 'boolean' },
        'allowed-host': { type: 'string', multiple: true },
        'callback-host': { type: 'string', multiple: true },
        'callback-offset': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const pick = (flag: string, variable: string): { raw: string; from: string } | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === 'string') return { raw: fromFlag, from: `--${flag}` };
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv !== '') return { raw: fromEnv, from: variable };
    return undefined;
  };

  let port: number = DEFAULT_APP_OPTIONS.port;
  const portInput = pick('port', ENVIRONMENT_VARIABLES.port);
  if (portInput) {
    const parsed = parsePort(portInput.raw, portInput.from);
    if (typeof parsed === 'string') return { ok: false, error: parsed };
    port = parsed;
  }
  let timeScale: number = DEFAULT_APP_OPTIONS.timeScale;
  const scaleInput = pick('time-scale', ENVIRONMENT_VARIABLES.timeScale);
  if (scaleInput) {
    const parsed = parseTimeScale(scaleInput.raw, scaleInput.from);
    if (typeof parsed === 'string') return { ok: false, error: parsed };
    timeScale = parsed;
  }
  const hostInput = pick('host', ENVIRONMENT_VARIABLES.host);
  if (hostInput && hostInput.raw.trim() === '') return { ok: false, error: `${hostInput.from} must not be empty` };
  const host = hostInput?.raw.trim() ?? DEFAULT_APP_OPTIONS.host;
  const accounts = pick('accounts', ENVIRONMENT_VARIABLES.accounts);
  const operators = pick('operators', ENVIRONMENT_VARIABLES.operators);
  const token = pick('admin-token', ENVIRONMENT_VARIABLES.adminToken);
  const tokenFile = pick('admin-token-file', ENVIRONMENT_VARIABLES.adminTokenFile);
  const noToken = values['no-admin-token'] === true;
  if (noToken && (token || tokenFile)) return { ok: false, error: `--no-admin-token contradicts ${(token ?? tokenFile)?.from}` };
  if (token && tokenFile) return { ok: false, error: `${token.from} and ${tokenFile.from} both give the admin token: keep one` };
  const hostList = (flag: string, variable: string): readonly string[] | 'any' | undefined => {
    const fromFlag = values[flag];
    const raw = Array.isArray(fromFlag) ? fromFlag : (env[variable] ?? '').split(',');
    const list = raw.map((entry) => entry.trim()).filter((entry) => entry !== '');
    if (list.length === 0) return undefined;
    return list.includes('any') ? 'any' : list;
  };
  const allowedHosts = hostList('allowed-host', ENVIRONMENT_VARIABLES.allowedHosts);
  const callbackHosts = hostList('callback-host', ENVIRONMENT_VARIABLES.callbackHosts);
  const offset = pick('callback-offset', ENVIRONMENT_VARIABLES.callbackTimestampOffset);
  if (offset) {
    const read = parseUtcOffset(offset.raw);
    if (!read.ok) return { ok: false, error: `${offset.from} must be Z or an offset ±hh:mm up to ±14:00, not ${JSON.stringify(offset.raw)} (${read.error.message})` };
  }
  return {
    ok: true,
    value: {
      port,
      host,
      timeScale,
      help: values.help === true,
      ...(accounts ? { accountsFile: accounts.raw } : {}),
      ...(operators ? { operatorsFile: operators.raw } : {}),
      ...(token ? { adminToken: token.raw } : {}),
      ...(tokenFile ? { adminTokenFile: tokenFile.raw } : {}),
      ...(noToken ? { noAdminToken: true } : {}),
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
      ...(callbackHosts === undefined ? {} : { callbackHosts }),
      ...(offset ? { callbackOffset: offset.raw } : {}),
    },
  };
}

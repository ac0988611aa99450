import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ADMIN_PREFIX, createSandbox, DEFAULT_ACCOUNTS, DEFAULT_SANDBOX_URL, openAdminWarning, SANDBOX_DEFAULTS, SANDBOX_ENVIRONMENT, parseAccounts, parseOperatorTable, type OperatorTable, type Sandbox, type SandboxAccount, type SandboxServer } from '@smsv4/sandbox';
import { parseUtcOffset } from '@smsv4/core';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { jsonLinesLogger } from '../terminal/json-lines-logger.js';
import type { CliIo } from '../cli-io.js';
import type { Colors } from '../terminal/colors.js';
import type { CommandContext } from './command-context.js';


interface SandboxFlags {
  readonly port?: string;
  readonly host?: string;
  readonly accounts?: string;
  readonly operators?: string;
  readonly timeScale?: string;
  /** The token, or `false` with `--no-admin-token`. */
  readonly adminToken?: string | false;
  readonly adminTokenFile?: string;
  readonly allowedHost?: readonly string[];
  readonly callbackHost?: readonly string[];
  readonly callbackOffset?: string;
  readonly log?: boolean;
}

const EXAMPLES = `
Examples:
  $ smsv4 sandbox                                   http://127.0.0.1:4010, real time
  $ smsv4 sandbox --port 0 --time-scale 3600        any free port; an hour of retries per second
  $ smsv4 sandbox --accounts accounts.json --operators operators.json
  $ smsv4 sandbox --callback-offset -05:00          receipts and inbound messages dated like 2015-08-29T15:10:03.029-05:00

Every flag has an environment variable (a flag wins): ${Object.values(SANDBOX_ENVIRONMENT).join(', ')}.
Ctrl+C (SIGINT) or SIGTERM stops it (exit status 0). Exit status 1 when it cannot listen, 2 on bad
flags or files.`;

/** Collects a repeatable flag's values. */
function collect(value: string, previous: readonly string[] | undefined): readonly string[] {
  return [...(previous ?? []), value];
}

/** A flag, else its environment variable (empty ones ignored), with the name to report. */
function pick(flag: string | undefined, name: string, variable: string, env: CliIo['env']): { raw: string; from: string } | undefined {
  if (flag !== undefined) return { raw: flag, from: `--${name}` };
  const value = env[variable];
  return value === undefined || value === '' ? undefined : { raw: value, from: variable };
}

async function readJsonFile(path: string, what: string, io: CliIo): Promise<string> {
  try {
    return await readFile(resolve(io.cwd, path), 'utf8');
  } catch (error) {
    throw new CliError('input', `cannot read the ${what} file ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function scaleText(timeScale: number): string {
  return timeScale === 1 ? 'real time' : `×${timeScale} (${timeScale} simulated ms per real ms)`;
}

function banner(url: string, accounts: readonly SandboxAccount[], timeScale: number, adminToken: string | undefined, callbackOffset: string, colors: Colors, warning?: string): string {
  const dashboard = `${url}${ADMIN_PREFIX}/${adminToken === undefined ? '' : `#token=${encodeURIComponent(adminToken)}`}`;
  const row = (label: string, value: string): string => `  ${label.padEnd(11)} ${value}\n`;
  let out = `${colors.bold('smsv4 sandbox is running')}\n\n`;
  if (warning !== undefined) out += `WARNING: ${warning}\n\n`;
  out += row('API', url) + row('Dashboard', dashboard);
  out += row('Admin API', adminToken === undefined ? 'open (no token)' : `Authorization: Bearer ${adminToken}`);
  out += row('Clock', `simulated, ${scaleText(timeScale)}`);
  if (callbackOffset !== 'Z') out += row('Callbacks', `timestamps at ${callbackOffset}`);
  out += `\nAccounts (account ID : password):\n`;
  const width = Math.max(...accounts.map((account) => account.accountId.length + account.password.length + 3));
  for (const account of accounts) out += `  ${`${account.accountId} : ${account.password}`.padEnd(width)}   ${account.label ?? ''}\n`;
  const base = url === DEFAULT_SANDBOX_URL ? '' : ` --base-url ${url}`;
  out += `\nTry it:\n  smsv4 send${base} --to 14155550100 --text 'Hello from the sandbox' --wait\n`;
  out += `\nCtrl+C stops the sandbox.\n`;
  return out;
}

/** `smsv4 sandbox`: runs the emulator until SIGINT or SIGTERM. */
export function sandboxCommand(context: CommandContext, command: Command): Command {
  return command
    .option('--port <n>', `TCP port, 0 for any free port (env ${SANDBOX_ENVIRONMENT.port}; default ${SANDBOX_DEFAULTS.port})`)
    .option('--host <address>', `interface to bind (env ${SANDBOX_ENVIRONMENT.host}; default ${SANDBOX_DEFAULTS.host})`)
    .option('--accounts <file>', `JSON file of accounts replacing the default ones (env ${SANDBOX_ENVIRONMENT.accounts})`)
    .option('--operators <file>', `JSON file of the operator table replacing the sample one (env ${SANDBOX_ENVIRONMENT.operators})`)
    .option('--time-scale <n>', `simulated ms per real ms, 3600 = an hour per second (env ${SANDBOX_ENVIRONMENT.timeScale}; default 1)`)
    .option('--admin-token <text>', `Bearer token of the admin API (env ${SANDBOX_ENVIRONMENT.adminToken}; default: a random one, printed)`)
    .option('--admin-token-file <file>', `read the admin token from the first line of this file (env ${SANDBOX_ENVIRONMENT.adminTokenFile})`)
    .option('--no-admin-token', 'leave the admin API and dashboard open to anyone who reaches the port')
    .option('--allowed-host <name>', `host name clients may use beside localhost and IP addresses, repeatable; any: no check (env ${SANDBOX_ENVIRONMENT.allowedHosts})`, collect)
    .option('--callback-host <host>', `host callbacks may go to beside loopback and the accounts' URLs, repeatable; any: every host (env ${SANDBOX_ENVIRONMENT.callbackHosts})`, collect)
    .option('--callback-offset <zone>', `time zone of callback timestamps, Z or ±hh:mm up to ±14:00 (env ${SANDBOX_ENVIRONMENT.callbackTimestampOffset}; default Z)`)
    .option('--log', 'write structured log lines (JSON) of every answer and callback attempt to standard output; no credentials, numbers or content')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: SandboxFlags, cmd: Command) => {
      const { io } = context;
      const portInput = pick(flags.port, 'port', SANDBOX_ENVIRONMENT.port, io.env);
      let port = 4010;
      if (portInput !== undefined) {
        if (!/^[0-9]{1,5}$/.test(portInput.raw) || Number(portInput.raw) > 65_535) throw new CliError('usage', `${portInput.from} must be a port number from 0 to 65535, not ${JSON.stringify(portInput.raw)}`);
        port = Number(portInput.raw);
      }
      const scaleInput = pick(flags.timeScale, 'time-scale', SANDBOX_ENVIRONMENT.timeScale, io.env);
      let timeScale = 1;
      if (scaleInput !== undefined) {
        timeScale = Number(scaleInput.raw);
        if (scaleInput.raw.trim() === '' || !Number.isFinite(timeScale) || timeScale <= 0) throw new CliError('usage', `${scaleInput.from} must be a positive number, not ${JSON.stringify(scaleInput.raw)}`);
      }
      const host = pick(flags.host, 'host', SANDBOX_ENVIRONMENT.host, io.env)?.raw ?? '127.0.0.1';
      const noAdminToken = flags.adminToken === false;
      let adminToken = noAdminToken ? undefined : pick(flags.adminToken || undefined, 'admin-token', SANDBOX_ENVIRONMENT.adminToken, io.env)?.raw;
      const tokenFile = pick(flags.adminTokenFile, 'admin-token-file', SANDBOX_ENVIRONMENT.adminTokenFile, io.env)?.raw;
      if (tokenFile !== undefined && !noAdminToken) {
        if (adminToken !== undefined) throw new CliError('usage', 'the admin token is given twice (--admin-token and --admin-token-file): keep one');
        adminToken = (await readJsonFile(tokenFile, 'admin token', io)).split(/\r?\n/, 1)[0]?.trim();
        if (!adminToken) throw new CliError('input', `the admin token file ${tokenFile} is empty`);
      }
      const hosts = (list: readonly string[] | undefined, variable: string): readonly string[] | 'any' | undefined => {
        const entries = (list ?? (io.env[variable] ?? '').split(',')).map((entry) => entry.trim()).filter((entry) => entry !== '');
        if (entries.length === 0) return undefined;
        return entries.includes('any') ? 'any' : entries;
      };
      const allowedHosts = hosts(flags.allowedHost, SANDBOX_ENVIRONMENT.allowedHosts);
      const callbackHosts = hosts(flags.callbackHost, SANDBOX_ENVIRONMENT.callbackHosts);
      const offsetInput = pick(flags.callbackOffset, 'callback-offset', SANDBOX_ENVIRONMENT.callbackTimestampOffset, io.env);
      const callbackOffset = offsetInput?.raw ?? 'Z';
      if (offsetInput !== undefined) {
        const offset = parseUtcOffset(offsetInput.raw);
        if (!offset.ok) throw new CliError('usage', `${offsetInput.from} must be Z or an offset ±hh:mm up to ±14:00, not ${JSON.stringify(offsetInput.raw)} (${offset.error.message})`);
      }
      let accounts: readonly SandboxAccount[] = DEFAULT_ACCOUNTS;
      const accountsFile = pick(flags.accounts, 'accounts', SANDBOX_ENVIRONMENT.accounts, io.env)?.raw;
      if (accountsFile !== undefined) {
        const parsed = parseAccounts(await readJsonFile(accountsFile, 'accounts', io));
        if (!parsed.ok) throw new CliError('input', `the accounts file ${accountsFile} is not valid: ${parsed.error.description}`);
        accounts = parsed.value;
      }
      let operators: OperatorTable | undefined;
      const operatorsFile = pick(flags.operators, 'operators', SANDBOX_ENVIRONMENT.operators, io.env)?.raw;
      if (operatorsFile !== undefined) {
        const parsed = parseOperatorTable(await readJsonFile(operatorsFile, 'operators', io));
        if (!parsed.ok) throw new CliError('input', `the operators file ${operatorsFile} is not valid: ${parsed.error.description}`);
        operators = parsed.value;
      }
      let sandbox: Sandbox;
      try {
        sandbox = createSandbox({
          accounts,
          timeScale,
          callbackTimestampOffset: callbackOffset,
          ...(flags.log === true ? { logger: jsonLinesLogger((line) => io.stdout.write(line)) } : {}),
          ...(operators === undefined ? {} : { operators }),
          adminToken: noAdminToken ? false : adminToken,
          ...(allowedHosts === undefined ? {} : { allowedHosts }),
          ...(callbackHosts === undefined ? {} : { callbackHosts }),
        });
      } catch (error) {
        throw new CliError('input', `invalid settings: ${(error as Error).message}`, { cause: error });
      }
      let server: SandboxServer;
      try {
        server = await sandbox.listen({ port, host });
      } catch (error) {
        await sandbox.close();
        const { code, message } = error as NodeJS.ErrnoException;
        if (code === 'EADDRINUSE') throw new CliError('server', `port ${port} on ${host} is already in use (choose another with --port, or 0 for any free port)`, { cause: error });
        throw new CliError('server', `cannot listen on ${host}:${port}: ${message}`, { cause: error });
      }
      const stop = new AbortController();
      const signal = io.waitForStop(stop.signal);
      const url = new URL(server.url);
      if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
      else if (url.hostname === '[::]') url.hostname = '[::1]';
      const warning = openAdminWarning(server.url, sandbox.adminToken);
      io.stdout.write(banner(url.origin, accounts, timeScale, sandbox.adminToken, callbackOffset, context.colors(cmd, 'stdout'), warning));
      const name = await signal;
      io.stdout.write(`\n${name} received, stopping the sandbox…\n`);
      await server.close();
      await sandbox.close();
      stop.abort();
      io.stdout.write('Stopped.\n');
    });
}

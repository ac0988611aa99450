import { createClient, SmsApiError, type SmsClient } from '@smsv4/transport-fetch';
import type { Command } from 'commander';
import { apiSettings, API_ENVIRONMENT, credentialWarnings, redactUserinfo, type ApiFlags } from '../api/api-settings.js';
import { readPassword } from '../api/password-source.js';
import { apiErrorJson, formatApiError } from '../api/format-api.js';
import { CliError } from '../cli-error.js';
import { jsonLinesLogger } from '../terminal/json-lines-logger.js';
import { writeJson, type CommandContext } from './command-context.js';
import { DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';

/** The flags every API command has. */
export interface CommonApiFlags extends ApiFlags {
  readonly passwordFile?: string;
  readonly passwordStdin?: boolean;
  readonly json?: boolean;
  readonly log?: boolean;
}

/** Adds `--base-url`, `--account-id`, the password flags, `--timeout` and `--json`. */
export function addApiOptions(command: Command): Command {
  return command
    .option('--base-url <url>', `base URL of the API (env ${API_ENVIRONMENT.baseUrl}; default ${DEFAULT_SANDBOX_URL}, the sandbox)`)
    .option('--account-id <id>', `account ID (env ${API_ENVIRONMENT.accountId}; on a loopback URL without credentials: the sandbox account)`)
    .option('--password-stdin', 'read the password from standard input (one line)')
    .option('--password-file <path>', 'read the password from a file (its first line)')
    .option('--password <password>', `password (env ${API_ENVIRONMENT.password}); on the command line it is visible to other users (ps): prefer the environment, --password-file or --password-stdin`)
    .option('--timeout <ms>', 'longest wait for an answer, ms', '30000')
    .option('--json', 'print the answer (or the failure) as JSON')
    .option('--log', 'write structured log lines (JSON, one per call and attempt retried) to standard error; no credentials, numbers or content');
}

/**
 * A client for the flags and the run's environment. No retries: a person is trying things out.
 * Warnings (a password on the command line, credentials over plain HTTP to another machine) go to
 * standard error before anything is sent. `stdinTaken`: the command reads its input from standard
 * input, which `--password-stdin` then cannot share.
 */
export async function apiClient(
  flags: CommonApiFlags,
  context: CommandContext,
  extra: { format?: 'json' | 'xml'; accept?: 'json' | 'xml' } = {},
  { stdinTaken = false }: { readonly stdinTaken?: boolean } = {},
): Promise<SmsClient> {
  const source = await readPassword(flags, context.io, { stdinTaken });
  const settings = apiSettings(
    {
      ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
      ...(flags.accountId === undefined ? {} : { accountId: flags.accountId }),
      ...(source.password === undefined ? {} : { password: source.password }),
      ...(flags.timeout === undefined ? {} : { timeout: flags.timeout }),
    },
    context.io.env,
  );
  for (const warning of [...source.warnings, ...credentialWarnings(settings)]) context.io.stderr.write(`smsv4: warning: ${warning}\n`);
  try {
    return createClient({
      baseUrl: settings.baseUrl,
      accountId: settings.accountId,
      password: settings.password,
      timeoutMs: settings.timeoutMs,
      retry: false,
      ...(flags.log === true ? { logger: jsonLinesLogger((line) => context.io.stderr.write(line)) } : {}),
      ...extra,
    });
  } catch (error) {
    throw new CliError('usage', redactUserinfo((error as Error).message), { cause: error });
  }
}

/**
 * Runs one call: a client failure is printed (to standard error, or as JSON on standard output)
 * and ends the command with exit status 1; misuse (a malformed ticket ID, phone number, service
 * ID) is a usage error.
 */
export async function callApi<T>(call: () => Promise<T>, flags: CommonApiFlags, context: CommandContext, command: Command): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SmsApiError) {
      if (flags.json === true) writeJson(context.io, { ok: false, error: apiErrorJson(error) });
      else context.io.stderr.write(formatApiError(error, context.colors(command, 'stderr')));
      throw new CliError('failed', error.message, { cause: error, reported: true });
    }
    if (error instanceof TypeError) throw new CliError('usage', error.message, { cause: error });
    throw error;
  }
}

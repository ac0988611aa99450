/**
 * Where the API commands go and with which credentials: flags first, then `SMSV4_BASE_URL`,
 * `SMSV4_ACCOUNT_ID`, `SMSV4_PASSWORD`, then the sandbox (`http://127.0.0.1:4010`). Against a
 * loopback address without credentials, the sandbox's standard account is used.
 */
import { DEFAULT_ACCOUNTS } from '@smsv4/sandbox';
import { CliError } from '../cli-error.js';
import { positiveInteger } from '../text/estimate-flags.js';
import { DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';

/** The environment variables the API commands read. */
export const API_ENVIRONMENT = Object.freeze({ baseUrl: 'SMSV4_BASE_URL', accountId: 'SMSV4_ACCOUNT_ID', password: 'SMSV4_PASSWORD' });

/** The connection flags of the API commands. */
export interface ApiFlags {
  readonly baseUrl?: string;
  readonly accountId?: string;
  readonly password?: string;
  readonly timeout?: string;
}

/** Where and how to call the API. */
export interface ApiSettings {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly password: string;
  readonly timeoutMs: number;
  /** The credentials are the sandbox's default ones (none were given). */
  readonly sandboxCredentials: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

/**
 * A text with the userinfo of every URL in it replaced (`https://user:secret@host` →
 * `https://***@host`), for messages that show a URL the user gave.
 */
export function redactUserinfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/gi, '$1***@');
}

/** Whether a URL's host is this machine (127.0.0.0/8, `localhost`, `::1`). */
function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname) || url.hostname.endsWith('.localhost');
}

/**
 * What to warn about before the credentials are sent: plain HTTP to another machine carries them
 * readable by anyone on the path (Basic auth is only encoded).
 */
export function credentialWarnings(settings: ApiSettings): string[] {
  const url = new URL(settings.baseUrl);
  if (url.protocol !== 'http:' || isLoopback(url) || settings.sandboxCredentials) return [];
  return [`the credentials go to ${url.origin} over plain HTTP, readable by anyone on the way: use https`];
}

/** Resolves the settings (a usage error for a bad URL, half-given credentials or a bad timeout). */
export function apiSettings(flags: ApiFlags, env: Readonly<Record<string, string | undefined>>): ApiSettings {
  const baseUrl = nonEmpty(flags.baseUrl) ?? nonEmpty(env[API_ENVIRONMENT.baseUrl]) ?? DEFAULT_SANDBOX_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CliError('usage', `the base URL ${JSON.stringify(redactUserinfo(baseUrl))} is not a URL (--base-url or ${API_ENVIRONMENT.baseUrl})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('usage', `the base URL must be http or https: ${redactUserinfo(baseUrl)}`);
  if (url.username !== '' || url.password !== '') {
    throw new CliError(
      'usage',
      `the base URL ${redactUserinfo(baseUrl)} carries credentials, which are never sent from there: give --account-id (or ${API_ENVIRONMENT.accountId}) and the password (${API_ENVIRONMENT.password}, --password-file or --password-stdin)`,
    );
  }
  const timeoutMs = positiveInteger(flags.timeout, '--timeout') ?? DEFAULT_TIMEOUT_MS;
  const accountId = nonEmpty(flags.accountId) ?? nonEmpty(env[API_ENVIRONMENT.accountId]);
  const password = flags.password ?? nonEmpty(env[API_ENVIRONMENT.password]);
  if (accountId !== undefined && password !== undefined) return { baseUrl, accountId, password, timeoutMs, sandboxCredentials: false };
  const sandbox = DEFAULT_ACCOUNTS.find((account) => account.kind === undefined || account.kind === 'standard');
  if (accountId === undefined && password === undefined && LOOPBACK.has(url.hostname) && sandbox !== undefined) {
    return { baseUrl, accountId: sandbox.accountId, password: sandbox.password, timeoutMs, sandboxCredentials: true };
  }
  const missing = accountId === undefined ? `--account-id (or ${API_ENVIRONMENT.accountId})` : `the password (${API_ENVIRONMENT.password}, --password-file, --password-stdin or --password)`;
  throw new CliError('usage', `${baseUrl} needs credentials: give ${missing}`);
}

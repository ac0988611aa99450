import { buildSendRequest, buildStatusRequest, type HttpRequestData } from '@smsv4/core';
import type { SandboxAccount } from '@smsv4/sandbox';

/** The destination of the printed send example: a fictional `555` number of the sample US operator table. */
export const SAMPLE_DESTINATION = '14155550100';

/** The stand-in for the ticket ID in the printed status example. */
export const TICKET_PLACEHOLDER = 'TICKET-ID';

/** What the start-up banner shows. */
export interface BannerInput {
  /** Base URL of the SMS API and Invoke Service. */
  readonly apiUrl: string;
  /** URL of the dashboard page. */
  readonly dashboardUrl: string;
  readonly accounts: readonly SandboxAccount[];
  /** Where the accounts come from (a file path), when not the built-in ones. */
  readonly accountsFile?: string;
  readonly operatorsFile?: string;
  readonly timeScale: number;
  /** The time zone of callback timestamps, when not UTC (`Z`). */
  readonly callbackOffset?: string;
  /** The address actually bound, when it differs from the URLs' host (all interfaces). */
  readonly boundTo?: string;
  /** The admin API's Bearer token, when it has one. */
  readonly adminToken?: string;
  /** A warning printed first (an open admin API off loopback). */
  readonly warning?: string;
}

/** `value` as one shell word (POSIX single quotes). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

const headerName = (name: string): string => name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * A `curl` command line for a request built by core: Basic credentials as `-u`, the other headers
 * as `-H`, the body as `--data-binary`. `-i` shows the response headers (the `Location` of a send).
 */
export function curlCommand(request: HttpRequestData, credentials: { accountId: string; password: string }): string {
  const words = ['curl', '-i', '-u', shellQuote(`${credentials.accountId}:${credentials.password}`)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'authorization') continue;
    words.push('-H', shellQuote(`${headerName(name)}: ${value}`));
  }
  if (request.body !== undefined) words.push('--data-binary', shellQuote(request.body));
  else if (request.method !== 'GET') words.push('-X', request.method);
  words.push(shellQuote(request.url));
  return words.join(' ');
}

/** The account of the printed examples: the first standard one (or the first at all). */
export function exampleAccount(accounts: readonly SandboxAccount[]): SandboxAccount | undefined {
  return accounts.find((account) => account.kind === undefined || account.kind === 'standard') ?? accounts[0];
}

/** The example requests of the banner: a JSON send and a status request for {@link TICKET_PLACEHOLDER}. */
export function exampleCommands(apiUrl: string, account: SandboxAccount): { send: string; status: string } {
  const context = { endpoints: { baseUrl: apiUrl }, credentials: { accountId: account.accountId, password: account.password } };
  const send = buildSendRequest(
    context,
    { destination: { address: SAMPLE_DESTINATION }, message: { type: 'text', content: 'Hello from the smsv4 sandbox' } },
    'json',
  );
  const status = buildStatusRequest(context, TICKET_PLACEHOLDER, 'xml');
  return { send: curlCommand(send, account), status: curlCommand(status, account) };
}

function scaleText(timeScale: number): string {
  if (timeScale === 1) return 'real time';
  if (timeScale === 3600) return '×3600 (one simulated hour per second)';
  return `×${timeScale}`;
}

/** The text printed when the sandbox is ready. */
export function formatBanner(input: BannerInput): string {
  const { apiUrl, dashboardUrl, accounts, accountsFile, operatorsFile, timeScale, boundTo, adminToken, warning, callbackOffset = 'Z' } = input;
  const lines: string[] = ['smsv4 sandbox is running', ''];
  if (warning !== undefined) lines.splice(1, 0, '', `WARNING: ${warning}`);
  const row = (label: string, value: string): string => `  ${label.padEnd(11)} ${value}`;
  lines.push(row('API', apiUrl), row('Dashboard', dashboardUrl));
  lines.push(row('Admin API', adminToken === undefined ? 'open (no token)' : `Authorization: Bearer ${adminToken}`));
  lines.push(row('Clock', `simulated, ${scaleText(timeScale)}`));
  lines.push(row('Operators', operatorsFile ?? 'sample table (made-up US, CA, GB and AU operators)'));
  if (callbackOffset !== 'Z') lines.push(row('Callbacks', `timestamps at ${callbackOffset}`));
  if (boundTo !== undefined) lines.push(row('Listening', boundTo));
  lines.push('', accountsFile === undefined ? 'Default credentials (account ID : password):' : `Accounts from ${accountsFile} (account ID : password):`);
  const width = Math.max(...accounts.map((a) => a.accountId.length + a.password.length + 3));
  for (const account of accounts) {
    const pair = `${account.accountId} : ${account.password}`;
    lines.push(`  ${pair.padEnd(width)}   ${account.label ?? account.kind ?? 'standard'}`);
  }
  const account = exampleAccount(accounts);
  if (account !== undefined) {
    const { send, status } = exampleCommands(apiUrl, account);
    lines.push('', 'Send a message (JSON):', `  ${send}`);
    lines.push('', `Ask for its status (put the ticket ID, the last segment of the Location header, in place of ${TICKET_PLACEHOLDER}):`, `  ${status}`);
  }
  lines.push('', 'Ctrl+C stops the sandbox.', '');
  return lines.join('\n');
}

/**
 * The exit statuses of `smsv4`: one table, read by the code (`EXIT_STATUS` in cli-error.ts), the
 * program's help and the CLI guide (apps/docs/guide/send-cli.md; a test compares them).
 */

/** Why a command stopped, as a closed set; each has its exit status in {@link EXIT_CODES}. */
export type CliErrorCode =
  /** Bad flags or arguments: exit status 2. */
  | 'usage'
  /** An input file, option file or directory that cannot be read or used: exit status 2. */
  | 'input'
  /** The command ran and its answer is a failure (invalid payload, failed lint, API error): exit status 1. */
  | 'failed'
  /** The sandbox could not start (port in use, address not available): exit status 1. */
  | 'server';

/** One exit status and when it is given. */
export interface ExitCode {
  readonly status: 0 | 1 | 2;
  /** The {@link CliErrorCode}s that end a run with it. */
  readonly codes: readonly CliErrorCode[];
  /** When, in one line (the help's wording). */
  readonly when: string;
}

/** Every exit status of `smsv4`. */
export const EXIT_CODES: readonly ExitCode[] = [
  { status: 0, codes: [], when: 'success: every payload valid, every template passes, the call accepted, a clean stop of the sandbox' },
  {
    status: 1,
    codes: ['failed', 'server'],
    when: 'a failure: an invalid payload, a failed template, a call refused or failed, no final status within --wait-timeout, the sandbox cannot listen',
  },
  {
    status: 2,
    codes: ['usage', 'input'],
    when: 'bad usage or input: an unknown command or option, a bad option value, a file or directory that cannot be read, a directory without matching files',
  },
];

/** The exit statuses as the help prints them. */
export function exitCodesHelp(): string {
  return ['Exit status:', ...EXIT_CODES.map(({ status, when }) => `  ${status}  ${when}`)].join('\n');
}

/** The exit statuses as the CLI guide's Markdown table. */
export function exitCodesMarkdown(): string {
  return ['| status | when |', '|---|---|', ...EXIT_CODES.map(({ status, when }) => `| \`${status}\` | ${when.replace(/--[\w-]+/g, (flag) => `\`${flag}\``)} |`)].join('\n');
}

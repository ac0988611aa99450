/**
 * Where the password comes from, and what to say about the way it came: `--password-stdin`
 * (standard input), `--password-file <path>`, the `SMSV4_PASSWORD` environment variable, or
 * `--password <password>` on the command line, which other users of the machine can read
 * (`ps`, `/proc/<pid>/cmdline`, shell history): it is taken, with a warning.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { API_ENVIRONMENT } from './api-settings.js';

/** The password flags of the API commands. */
export interface PasswordFlags {
  readonly password?: string;
  readonly passwordFile?: string;
  readonly passwordStdin?: boolean;
}

/** The password read (absent: none given, the environment decides), and the warnings to print. */
export interface PasswordSource {
  readonly password?: string;
  readonly warnings: readonly string[];
}

/** The warning printed when the password is given on the command line. */
export const ARGV_PASSWORD_WARNING = `--password on the command line is visible to other users of this machine (ps, shell history): prefer ${API_ENVIRONMENT.password}, --password-file <path> or --password-stdin`;

/** The text read, without the line break that ends a file or an `echo`. */
const oneLine = (text: string): string => text.replace(/\r?\n$/, '');

/**
 * Reads the password from the one source the flags name. A usage error for two sources at once, a
 * password file that cannot be read, an empty password, or `--password-stdin` when standard input
 * already carries the command's input (`stdinTaken`).
 */
export async function readPassword(flags: PasswordFlags, io: CliIo, { stdinTaken = false }: { readonly stdinTaken?: boolean } = {}): Promise<PasswordSource> {
  const given = [flags.password !== undefined, flags.passwordFile !== undefined, flags.passwordStdin === true].filter(Boolean).length;
  if (given > 1) throw new CliError('usage', 'give the password one way: --password-stdin, --password-file <path>, or --password <password>');
  if (flags.passwordStdin === true) {
    if (stdinTaken) throw new CliError('usage', '--password-stdin: standard input already carries the command\'s input (-): give the password with --password-file or ' + API_ENVIRONMENT.password);
    const password = oneLine(new TextDecoder().decode(await io.readStdin()));
    if (password === '') throw new CliError('usage', '--password-stdin: standard input was empty');
    return { password, warnings: [] };
  }
  if (flags.passwordFile !== undefined) {
    let text: string;
    try {
      text = await readFile(resolve(io.cwd, flags.passwordFile), 'utf8');
    } catch (error) {
      throw new CliError('usage', `--password-file: cannot read ${flags.passwordFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
    }
    const password = oneLine(text);
    if (password === '') throw new CliError('usage', `--password-file: ${flags.passwordFile} is empty`);
    return { password, warnings: [] };
  }
  if (flags.password !== undefined) return { password: flags.password, warnings: [ARGV_PASSWORD_WARNING] };
  return { warnings: [] };
}

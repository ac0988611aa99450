import { EXIT_CODES, type CliErrorCode } from './exit-codes.js';

export type { CliErrorCode } from './exit-codes.js';

/** The exit status of each {@link CliErrorCode}, from the one table of exit statuses (`EXIT_CODES`). */
export const EXIT_STATUS: Readonly<Record<CliErrorCode, number>> = Object.freeze(
  Object.fromEntries(EXIT_CODES.flatMap(({ status, codes }) => codes.map((code) => [code, status]))) as Record<CliErrorCode, number>,
);

/** Options of {@link CliError}. */
export interface CliErrorOptions {
  /** The error that caused it. */
  readonly cause?: unknown;
  /** `true` when the message has already been written (the error only carries the exit status). */
  readonly reported?: boolean;
}

/**
 * A command that cannot go on, with the message for the user and the exit status its code implies.
 *
 * @example
 * throw new CliError('usage', '--max-parts must be a positive integer, not "0"');
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  /** What kind of stop it is (closed set). */
  readonly code: CliErrorCode;
  /** The process exit status for it. */
  readonly exitStatus: number;
  /** The message has already been written. */
  readonly reported: boolean;

  constructor(code: CliErrorCode, message: string, { cause, reported = false }: CliErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.exitStatus = EXIT_STATUS[code];
    this.reported = reported;
  }
}

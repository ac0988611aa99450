import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { readTextInput } from '../input/collect-inputs.js';
import { stripFinalNewline } from '../text/lint-templates.js';

/**
 * The text of `segments` / `explain`: the argument, `-` for standard input, or `--file`. Text read
 * from a file or standard input loses one final line break.
 */
export async function readMessageText(argument: string | undefined, file: string | undefined, io: CliIo): Promise<string> {
  if (argument !== undefined && file !== undefined) throw new CliError('usage', 'give the text or --file, not both');
  if (argument === undefined && file === undefined) throw new CliError('usage', 'give the text, - for standard input, or --file <path>');
  if (argument !== undefined && argument !== '-') return argument;
  const path = file ?? '-';
  try {
    return stripFinalNewline(await readTextInput(path, io));
  } catch (error) {
    throw new CliError('input', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { colorsFor, type Colors } from '../terminal/colors.js';

/** What every command gets: the outside world and the colours for each stream. */
export interface CommandContext {
  readonly io: CliIo;
  /** The colours of standard output or error, honouring `--no-color`, `NO_COLOR`, `FORCE_COLOR` and the terminal. */
  colors(command: Command, stream: 'stdout' | 'stderr'): Colors;
}

/** Creates the context of one run. */
export function createCommandContext(io: CliIo): CommandContext {
  return {
    io,
    colors(command, stream) {
      const { color } = command.optsWithGlobals<{ color?: boolean }>();
      return colorsFor(stream === 'stdout' ? io.stdout : io.stderr, io.env, color);
    },
  };
}

/** Collects a repeatable option's values. */
export const collect = (value: string, previous: readonly string[]): string[] => [...previous, value];

/** Writes a value as indented JSON and a line break. */
export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** `--progress` / `--no-progress`, else automatic. */
export function progressEnabled(flag: boolean | undefined, io: CliIo): boolean {
  return flag ?? io.stderr.isTTY === true;
}

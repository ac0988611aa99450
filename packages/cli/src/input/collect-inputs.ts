/**
 * Turns the file arguments of a command into inputs: `-` is standard input, a directory stands for
 * the files in it (recursively) whose extension the command takes, anything else is a file.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';

/** One input of a command. */
export interface Input {
  /** The path as given (or found under a directory given), or `-`. */
  readonly source: string;
  /** Reads its bytes; rejects when it cannot be read. */
  read(): Promise<Uint8Array>;
}

/** Options of {@link collectInputs}. */
export interface CollectOptions {
  /** Extensions (with the dot, lower case) of the files taken from a directory. */
  readonly extensions: readonly string[];
}

async function filesUnder(directory: string, shown: string, extensions: readonly string[], out: string[]): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(directory, entry.name);
    const display = join(shown, entry.name);
    if (entry.isDirectory()) await filesUnder(path, display, extensions, out);
    else if (extensions.some((ext) => entry.name.toLowerCase().endsWith(ext))) out.push(display);
  }
}

/**
 * The inputs named by `args`, in order (a directory's files sorted by path). A path that does not
 * exist is kept: reading it fails, and the command reports it as unreadable.
 */
export async function collectInputs(args: readonly string[], io: CliIo, { extensions }: CollectOptions): Promise<Input[]> {
  const inputs: Input[] = [];
  let stdin: Promise<Uint8Array> | undefined;
  for (const arg of args) {
    if (arg === '-') {
      inputs.push({ source: '-', read: () => (stdin ??= io.readStdin()) });
      continue;
    }
    const absolute = resolve(io.cwd, arg);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isDirectory()) {
      const found: string[] = [];
      await filesUnder(absolute, arg, extensions, found);
      for (const source of found) inputs.push(fileInput(source, io));
    } else {
      inputs.push(fileInput(arg, io));
    }
  }
  return inputs;
}

function fileInput(source: string, io: CliIo): Input {
  return { source, read: async () => new Uint8Array(await readFile(resolve(io.cwd, source))) };
}

/** Reads one file or `-` as UTF-8 text (for `--file` options). */
export async function readTextInput(path: string, io: CliIo): Promise<string> {
  const bytes = path === '-' ? await io.readStdin() : new Uint8Array(await readFile(resolve(io.cwd, path)));
  return new TextDecoder().decode(bytes);
}

/** Reads one file or `-` as bytes. */
export async function readBytesInput(path: string, io: CliIo): Promise<Uint8Array> {
  return path === '-' ? io.readStdin() : new Uint8Array(await readFile(resolve(io.cwd, path)));
}

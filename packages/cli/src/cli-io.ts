/**
 * What the command line reads from and writes to. The binary passes the process's streams and
 * environment ({@link createProcessIo}); tests and programs embedding the CLI pass their own.
 */

/** A stream the CLI writes text to. */
export interface CliOutput {
  /** Writes text as it is (no line break added). */
  write(text: string): void;
  /** Whether the stream is a terminal: colours and progress are shown only on one. */
  readonly isTTY?: boolean;
}

/** The outside world of one run of the CLI. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Reads the whole standard input (for the `-` argument). */
  readStdin(): Promise<Uint8Array>;
  /** Environment variables (`SMSV4_*`, `NO_COLOR`, `FORCE_COLOR`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against. */
  readonly cwd: string;
  /**
   * Resolves with the signal's name when the user asks a long-running command (`smsv4 sandbox`) to
   * stop. Listening goes on until `signal` aborts (the command has stopped): a second request in
   * between ends the process at once.
   */
  waitForStop(signal: AbortSignal): Promise<string>;
}

/** The {@link CliIo} of the current process: its streams, environment, directory and SIGINT / SIGTERM. */
export function createProcessIo(): CliIo {
  const { stdout, stderr, stdin } = process;
  // A closed pipe (`smsv4 openapi | head`) must not crash the command: output is best effort.
  stdout.on('error', () => undefined);
  stderr.on('error', () => undefined);
  return {
    stdout: { write: (text) => void stdout.write(text), isTTY: stdout.isTTY === true },
    stderr: { write: (text) => void stderr.write(text), isTTY: stderr.isTTY === true },
    async readStdin() {
      const chunks: Uint8Array[] = [];
      for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
      return concatBytes(chunks);
    },
    env: process.env,
    cwd: process.cwd(),
    waitForStop(signal) {
      return new Promise((resolve) => {
        let stopping = false;
        const onSignal = (name: NodeJS.Signals): void => {
          if (!stopping) {
            stopping = true;
            resolve(name);
            return;
          }
          // A second signal while stopping: stop at once.
          stderr.write(`${name} again, exiting at once\n`);
          process.exit(1);
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        signal.addEventListener('abort', () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        });
      });
    },
  };
}

/** Joins byte chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

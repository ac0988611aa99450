#!/usr/bin/env node
// The sandbox app's command: reads flags and environment, starts the sandbox, prints where it
// is and how to call it, and stops cleanly on SIGINT / SIGTERM.
import { parseAppOptions, USAGE } from './cli-options.js';
import { loadFileSettings } from './config-files.js';
import { AppSettingsError, startSandboxApp, type RunningApp } from './start-app.js';

const PROGRAM = 'smsv4-sandbox';

function fail(message: string, status: number, usage = false): void {
  process.stderr.write(`${PROGRAM}: ${message}\n${usage ? `\n${USAGE}` : ''}`);
  process.exitCode = status;
}

async function main(): Promise<void> {
  // A closed terminal or pipe (EPIPE) must not bring the sandbox down: output is informative only.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const options = parseAppOptions(process.argv.slice(2), process.env);
  if (!options.ok) return fail(options.error, 2, true);
  if (options.value.help) {
    process.stdout.write(USAGE);
    return;
  }
  const files = await loadFileSettings(options.value);
  if (!files.ok) return fail(files.error, 2);

  let app: RunningApp;
  try {
    app = await startSandboxApp(options.value, files.value);
  } catch (error) {
    if (error instanceof AppSettingsError) return fail(error.message, 2);
    const { code, message } = error as NodeJS.ErrnoException;
    const { host, port } = options.value;
    if (code === 'EADDRINUSE') return fail(`port ${port} on ${host} is already in use (choose another with --port, or 0 for any free port)`, 1);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return fail(`cannot listen on ${host}: ${message}`, 1);
    return fail(`cannot start: ${message}`, 1);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${PROGRAM}: ${signal} again, exiting at once\n`);
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`\n${signal} received, stopping the sandbox…\n`);
    app.close().then(
      () => {
        process.stdout.write('Stopped.\n');
        process.exitCode = 0;
        // Everything is closed; should a stray handle remain, do not hang on it.
        setTimeout(() => process.exit(0), 1000).unref();
      },
      (error: unknown) => fail(`error while stopping: ${(error as Error).message}`, 1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Printed once the signals are handled: whoever reads it may stop the sandbox at once.
  process.stdout.write(app.banner);
}

main().catch((error: unknown) => fail(`unexpected error: ${(error as Error).stack ?? String(error)}`, 1));

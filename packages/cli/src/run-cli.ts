/**
 * The `smsv4` program: its commands, help and exit statuses. `runCli` runs it against any
 * {@link CliIo}, so it can be embedded and tested without a process.
 */
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { createCommandContext } from './commands/command-context.js';
import { invokeCommand } from './commands/invoke-command.js';
import { lintCommand } from './commands/lint-command.js';
import { lookupCommand } from './commands/lookup-command.js';
import { openapiCommand } from './commands/openapi-command.js';
import { sandboxCommand } from './commands/sandbox-command.js';
import { schemaCommand } from './commands/schema-command.js';
import { explainCommand, segmentsCommand } from './commands/segments-command.js';
import { sendCommand } from './commands/send-command.js';
import { statusCommand } from './commands/status-command.js';
import { validateCommand } from './commands/validate-command.js';
import { colorsFor } from './terminal/colors.js';

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** What `--version` prints (the binary passes its package's version). */
  readonly version?: string;
}

const PROGRAM_HELP = `
Exit status: 0 success, 1 a failure (invalid payload, failed lint, refused or failed call),
2 bad usage or unreadable input. Colours only on a terminal (NO_COLOR, FORCE_COLOR, --no-color).
Run smsv4 <command> --help for a command's options and examples.`;

/** Builds the program for one run (commander writes through `io`, never exits the process). */
export function createProgram(io: CliIo, { version = '0.0.0' }: RunCliOptions = {}): Command {
  const context = createCommandContext(io);
  const program = new Command('smsv4')
    .description('The Global SMS API v4 and Invoke Service from the command line: validate payloads and templates, count segments, generate the JSON Schemas and the OpenAPI document, call the API, run the sandbox.')
    .version(version, '-V, --version', 'print the version')
    .option('--no-color', 'no colours, even on a terminal')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(smsv4 <command> --help shows the usage)')
    .addHelpText('after', PROGRAM_HELP)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(colorsFor(io.stderr, io.env).red(text)),
    })
    .exitOverride();
  for (const command of [
    validateCommand(context),
    segmentsCommand(context),
    explainCommand(context),
    lintCommand(context),
    schemaCommand(context),
    openapiCommand(context),
    sendCommand(context),
    statusCommand(context),
    lookupCommand(context),
    invokeCommand(context),
    sandboxCommand(context),
  ]) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()).showHelpAfterError(`(smsv4 ${command.name()} --help shows the usage)`));
  }
  return program;
}

/**
 * Runs the CLI with `argv` (the arguments after the program name) and returns the exit status:
 * 0 success, 1 failure, 2 bad usage or unreadable input. Never throws and never exits the process.
 *
 * @example
 * import { createProcessIo, runCli } from 'smsv4';
 *
 * process.exitCode = await runCli(['validate', 'payloads/'], createProcessIo());
 */
export async function runCli(argv: readonly string[], io: CliIo, options: RunCliOptions = {}): Promise<number> {
  const program = createProgram(io, options);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2;
    }
    if (error instanceof CliError) {
      if (!error.reported) io.stderr.write(`${colorsFor(io.stderr, io.env).red('smsv4:')} ${error.message}\n`);
      return error.exitStatus;
    }
    io.stderr.write(`smsv4: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

/**
 * The `smsv4` program: its commands, help and exit statuses. `runCli` runs it against any
 * {@link CliIo}, so it can be embedded and tested without a process.
 */
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { createCommandContext } from './commands/command-context.js';
import { COMMANDS, type CommandEntry } from './commands/command-list.js';
import { exitCodesHelp } from './exit-codes.js';
import { colorsFor } from './terminal/colors.js';

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** What `--version` prints (the binary passes its package's version). */
  readonly version?: string;
}

const PROGRAM_HELP = `
${exitCodesHelp()}

Colours only on a terminal (NO_COLOR, FORCE_COLOR, --no-color).
Run smsv4 <command> --help for a command's options and examples; smsv4 completion <shell> for
shell completion (bash, zsh, fish).`;

/**
 * Builds the program for one run (commander writes through `io`, never exits the process). Each
 * command is configured (options, help, action) when it is dispatched to, by a `preSubcommand`
 * hook that loads its module: parse with `parseAsync`.
 */
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
  const entries = new Map<Command, CommandEntry>();
  const configured = new Set<Command>();
  /** Configures a command from its module, once. */
  const configure = async (command: Command): Promise<void> => {
    const entry = entries.get(command);
    if (entry === undefined || configured.has(command)) return;
    configured.add(command);
    (await entry.load())(context, command);
  };
  for (const entry of COMMANDS) {
    const command = new Command(entry.name).description(entry.description);
    entries.set(command, entry);
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()).showHelpAfterError(`(smsv4 ${entry.name} --help shows the usage)`));
  }
  program.hook('preSubcommand', async (_program, command) => configure(command));
  // `smsv4 help <command>` shows the command's help once its module has configured it.
  program.helpCommand(false);
  program.addCommand(
    new Command('help')
      .description('show help for a command')
      .argument('[command]', 'the command')
      .exitOverride()
      .configureOutput(program.configureOutput())
      .action(async (name: string | undefined) => {
        const command = name === undefined ? undefined : program.commands.find((c) => c.name() === name && entries.has(c));
        if (command === undefined) {
          if (name !== undefined) return program.error(`error: unknown command '${name}'`, { code: 'commander.unknownCommand' });
          return program.help();
        }
        await configure(command);
        command.help();
      }),
  );
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
      // `smsv4 help [command]` asked for help (exit code 0); help shown for a usage error has another.
      if (error.code === 'commander.help' && error.exitCode === 0) return 0;
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

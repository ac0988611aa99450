import { Option, type Command } from 'commander';
import { formatStatus } from '../api/format-api.js';
import { CliError } from '../cli-error.js';
import { positiveInteger } from '../text/estimate-flags.js';
import { createProgress } from '../terminal/progress.js';
import { addApiOptions, apiClient, callApi, type CommonApiFlags } from './api-options.js';
import { writeJson, type CommandContext } from './command-context.js';
import { waitForFinal } from './wait-for-final.js';

interface StatusFlags extends CommonApiFlags {
  readonly accept: 'json' | 'xml';
  readonly wait?: boolean;
  readonly waitTimeout: string;
  readonly interval: string;
  readonly raw?: boolean;
}

const EXAMPLES = `
Examples:
  $ smsv4 status 7K2QD-0M4ZP-V8X1A-93TRC
  $ smsv4 status 7K2QD-0M4ZP-V8X1A-93TRC --wait --json
  $ smsv4 status 7K2QD-0M4ZP-V8X1A-93TRC --raw --accept json      the body as the service sent it`;

/** `smsv4 status <ticketId>`. */
export function statusCommand(context: CommandContext, command: Command): Command {
  command
    .argument('<ticketId>', 'the ticket ID of the send (last segment of its Location)')
    .addOption(new Option('--accept <format>', 'format to ask for').choices(['xml', 'json']).default('xml'))
    .option('--raw', 'print the body as the service sent it')
    .option('--wait', 'ask again until the status is final')
    .option('--wait-timeout <ms>', 'longest wait for a final status, ms', '60000')
    .option('--interval <ms>', 'time between two status requests, ms', '1000');
  addApiOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (ticketId: string, flags: StatusFlags, cmd: Command) => {
      const client = await apiClient(flags, context, { accept: flags.accept });
      const progress = createProgress(context.io.stderr);
      const { result, final } =
        flags.wait === true
          ? await callApi(
              () =>
                waitForFinal(client, ticketId, {
                  intervalMs: positiveInteger(flags.interval, '--interval') ?? 1000,
                  timeoutMs: positiveInteger(flags.waitTimeout, '--wait-timeout') ?? 60_000,
                  progress,
                }),
              flags,
              context,
              cmd,
            ).finally(() => progress.finish())
          : { result: await callApi(() => client.getStatus(ticketId), flags, context, cmd), final: true };
      if (flags.raw === true) context.io.stdout.write(result.body.endsWith('\n') ? result.body : `${result.body}\n`);
      else if (flags.json === true) writeJson(context.io, { ok: true, httpStatus: result.httpStatus, requestId: result.requestId, ...(flags.wait === true ? { final } : {}), status: result.status });
      else context.io.stdout.write(formatStatus(result.status, context.colors(cmd, 'stdout')));
      if (!final) throw new CliError('failed', 'the status is not final yet (--wait-timeout)');
    });
  return command;
}

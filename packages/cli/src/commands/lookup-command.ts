import { Option, type Command } from 'commander';
import { formatPreview } from '../api/format-api.js';
import { addApiOptions, apiClient, callApi, type CommonApiFlags } from './api-options.js';
import { writeJson, type CommandContext } from './command-context.js';

const EXAMPLES = `
Examples:
  $ smsv4 lookup 14155550100
  $ smsv4 lookup 447700900123 --json`;

/** `smsv4 lookup <phoneNumber>`. */
export function lookupCommand(context: CommandContext, command: Command): Command {
  command
    .argument('<phoneNumber>', 'international format with the country code, digits only, no +')
    .addOption(new Option('--accept <format>', 'format to ask for').choices(['xml', 'json']).default('xml'))
    .option('--raw', 'print the body as the service sent it');
  addApiOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (phoneNumber: string, flags: CommonApiFlags & { accept: 'json' | 'xml'; raw?: boolean }, cmd: Command) => {
      const client = await apiClient(flags, context, { accept: flags.accept });
      const result = await callApi(() => client.lookup(phoneNumber), flags, context, cmd);
      if (flags.raw === true) context.io.stdout.write(result.body.endsWith('\n') ? result.body : `${result.body}\n`);
      else if (flags.json === true) writeJson(context.io, { ok: true, httpStatus: result.httpStatus, requestId: result.requestId, preview: result.preview });
      else context.io.stdout.write(formatPreview(result.preview, context.colors(cmd, 'stdout')));
    });
  return command;
}

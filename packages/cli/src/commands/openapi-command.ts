import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { stringify } from 'yaml';
import { CliError } from '../cli-error.js';
import { DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';
import { buildOpenApiDocument } from '../contract/openapi-document.js';
import type { CommandContext } from './command-context.js';

const EXAMPLES = `
Examples:
  $ smsv4 openapi --out smsv4.openapi.json
  $ smsv4 openapi --out smsv4.openapi.yaml          YAML, from the extension
  $ smsv4 openapi --format yaml | less

The document covers send, status, lookup and Invoke Service in JSON and XML (the XML layout as
xml hints), every error code of the catalogue with an example each, and the delivery receipts and
inbound messages as webhooks.`;

/** `smsv4 openapi [--out <file>]`. */
export function openapiCommand(context: CommandContext, command: Command): Command {
  return command
    .option('-o, --out <file>', 'write to this file instead of standard output')
    .addOption(new Option('--format <format>', 'json or yaml (default: from the --out extension, else json)').choices(['json', 'yaml']))
    .option('--sandbox-url <url>', 'the sandbox server listed beside the real hosts', DEFAULT_SANDBOX_URL)
    .addHelpText('after', EXAMPLES)
    .action(async (flags: { out?: string; format?: 'json' | 'yaml'; sandboxUrl: string }) => {
      const { io } = context;
      const format = flags.format ?? (flags.out !== undefined && /\.ya?ml$/i.test(flags.out) ? 'yaml' : 'json');
      const document = buildOpenApiDocument({ sandboxUrl: flags.sandboxUrl });
      const text = format === 'yaml' ? stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }) : `${JSON.stringify(document, null, 2)}\n`;
      if (flags.out === undefined) {
        io.stdout.write(text);
        return;
      }
      try {
        await writeFile(resolve(io.cwd, flags.out), text);
      } catch (error) {
        throw new CliError('input', `cannot write ${flags.out}: ${(error as Error).message}`, { cause: error });
      }
      io.stdout.write(`${flags.out}\n`);
    });
}

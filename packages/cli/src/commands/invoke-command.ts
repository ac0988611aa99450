import { decodeInvokeServiceRequest, type InvokeServiceRequest } from '@smsv4/core';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { readBytesInput } from '../input/collect-inputs.js';
import { addApiOptions, apiClient, callApi, type CommonApiFlags } from './api-options.js';
import { collect, writeJson, type CommandContext } from './command-context.js';

interface InvokeFlags extends CommonApiFlags {
  readonly phone?: string;
  readonly operator?: string;
  readonly var: string[];
  readonly file?: string;
}

const EXAMPLES = `
Examples:
  $ smsv4 invoke 1a2b3c --phone 14155550100
  $ smsv4 invoke 1a2b3c --phone 14155550100 --operator 383 --var user.FIRST_NAME=Ada --var session.ORDER=5567
  $ smsv4 invoke 1a2b3c --file body.json

The body is checked as the service would before it leaves (12002, 12007). Exit status: 0 accepted,
1 refused or failed, 2 bad usage.`;

/** `--var scope.key=value` → the variables. */
function variablesOf(pairs: readonly string[]): Record<string, Record<string, string>> | undefined {
  if (pairs.length === 0) return undefined;
  const variables: Record<string, Record<string, string>> = {};
  for (const pair of pairs) {
    const dot = pair.indexOf('.');
    const equals = pair.indexOf('=');
    if (dot < 1 || equals < dot + 2) throw new CliError('usage', `--var takes scope.key=value, not ${JSON.stringify(pair)}`);
    // Scope names are not case-sensitive on the wire; the request value holds them in lower case.
    const scope = pair.slice(0, dot).toLowerCase();
    (variables[scope] ??= {})[pair.slice(dot + 1, equals)] = pair.slice(equals + 1);
  }
  return variables;
}

async function requestFromFile(path: string, context: CommandContext): Promise<InvokeServiceRequest> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytesInput(path, context.io);
  } catch (error) {
    throw new CliError('input', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const decoded = decodeInvokeServiceRequest(bytes);
  if (!decoded.ok) {
    context.io.stderr.write(`✖ invokeService: refused before it left: ${decoded.error.code} ${decoded.error.description}\n`);
    throw new CliError('failed', decoded.error.description, { reported: true });
  }
  return decoded.value;
}

/** `smsv4 invoke <serviceId>`: triggers an engagement-platform service for an end user. */
export function invokeCommand(context: CommandContext, command: Command): Command {
  command
    .argument('<serviceId>', 'the service ID (hexadecimal)')
    .option('--phone <number>', "end user's phone number: 6 to 16 digits with the country code")
    .option('--operator <id>', "end user's mobile operator ID")
    .option('--var <scope.key=value>', 'a variable to set (scopes: request, session, user, userservice, userservicecoll; repeatable)', collect, [])
    .option('--file <path>', 'send this request body (JSON) instead of the flags; - for standard input');
  addApiOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (serviceId: string, flags: InvokeFlags, cmd: Command) => {
      let request: InvokeServiceRequest;
      if (flags.file !== undefined) request = await requestFromFile(flags.file, context);
      else {
        if (flags.phone === undefined) throw new CliError('usage', 'give --phone <number> (or --file <body>)');
        const variables = variablesOf(flags.var);
        const operator = flags.operator === undefined ? undefined : /^[0-9]{1,15}$/.test(flags.operator) ? Number(flags.operator) : flags.operator;
        request = {
          endUser: { phoneNumber: flags.phone, ...(operator === undefined ? {} : { mobileOperatorId: operator as number }) },
          ...(variables === undefined ? {} : { variables }),
        };
      }
      const client = await apiClient(flags, context);
      const result = await callApi(() => client.invokeService(serviceId, request), flags, context, cmd);
      if (flags.json === true) writeJson(context.io, { ok: true, httpStatus: result.httpStatus, requestId: result.requestId });
      else context.io.stdout.write(`Accepted (HTTP ${result.httpStatus})${result.requestId === undefined ? '' : `, request ID ${result.requestId}`}\n`);
    });
  return command;
}

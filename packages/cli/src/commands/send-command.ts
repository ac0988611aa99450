import { decodeMtRequest, type MtRequest } from '@smsv4/core';
import type { SendResult } from '@smsv4/transport-fetch';
import { Option, type Command } from 'commander';
import { formatStatus } from '../api/format-api.js';
import { CliError } from '../cli-error.js';
import { readBytesInput } from '../input/collect-inputs.js';
import { positiveInteger } from '../text/estimate-flags.js';
import { createProgress } from '../terminal/progress.js';
import { detectFormat } from '../validation/detect-resource.js';
import { addApiOptions, apiClient, callApi, type CommonApiFlags } from './api-options.js';
import { writeJson, type CommandContext } from './command-context.js';
import { waitForFinal } from './wait-for-final.js';

interface SendFlags extends CommonApiFlags {
  readonly to?: string;
  readonly text?: string;
  readonly file?: string;
  readonly type?: string;
  readonly charset?: string;
  readonly udh?: boolean;
  readonly url?: string;
  readonly mlc?: string;
  readonly validityPeriod?: string;
  readonly from?: string;
  readonly ton?: string;
  readonly operator?: string;
  readonly receipt?: boolean;
  readonly receiptUrl?: string;
  readonly note1?: string;
  readonly note2?: string;
  readonly programId?: string;
  readonly flash?: boolean;
  readonly promotional?: boolean;
  readonly interaction?: string;
  readonly format: 'json' | 'xml';
  readonly wait?: boolean;
  readonly waitTimeout: string;
  readonly interval: string;
}

const EXAMPLES = `
Examples:
  $ smsv4 send --to 14155550100 --text 'Hello'                      to the sandbox on 127.0.0.1:4010
  $ smsv4 send --to 14155550100 --text 'Hello' --receipt-url http://127.0.0.1:3000/receipts --wait
  $ smsv4 send --file mt.xml --format xml
  $ SMSV4_BASE_URL=https://smsc-cie.openmarket.com SMSV4_ACCOUNT_ID=... SMSV4_PASSWORD=... smsv4 send --to ... --text ...

The request is checked against every 540 rule before it leaves; a refused one is printed with the
service's code and description. Exit status: 0 accepted, 1 refused or failed, 2 bad usage.`;

/** Numbers given as flags stay digit strings: core's validator reads them as the service would. */
const wire = (value: string | undefined): string | undefined => value;

/** The MT request the flags describe (members left out when not given). */
function requestFromFlags(flags: SendFlags): MtRequest {
  if (flags.to === undefined) throw new CliError('usage', 'give --to <number> (or --file <request>)');
  if (flags.text === undefined) throw new CliError('usage', 'give --text <content> (or --file <request>)');
  const options = { programId: flags.programId, note1: flags.note1, note2: flags.note2, flash: flags.flash };
  const hasOptions = Object.values(options).some((value) => value !== undefined);
  const deliveryWanted = flags.receipt === true || flags.receiptUrl !== undefined;
  const request = {
    interaction: flags.interaction,
    promotional: flags.promotional,
    options: hasOptions ? options : undefined,
    destination: { address: flags.to, mobileOperatorId: wire(flags.operator) },
    source: flags.from === undefined ? undefined : { address: flags.from, ton: wire(flags.ton) },
    message: {
      type: flags.type ?? 'text',
      content: flags.text,
      charset: flags.charset,
      validityPeriod: wire(flags.validityPeriod),
      url: flags.url,
      mlc: flags.mlc,
      udh: flags.udh,
    },
    delivery: deliveryWanted ? { receiptRequested: 'final', url: flags.receiptUrl } : undefined,
  };
  return JSON.parse(JSON.stringify(request)) as MtRequest; // drops the members left undefined
}

async function requestFromFile(path: string, context: CommandContext): Promise<MtRequest> {
  let bytes: Uint8Array;
  try {
    bytes = await readBytesInput(path, context.io);
  } catch (error) {
    throw new CliError('input', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const format = detectFormat(path, new TextDecoder().decode(bytes.subarray(0, 64)));
  const decoded = decodeMtRequest(bytes, format);
  if (!decoded.ok) {
    context.io.stderr.write(`✖ send: refused before it left: ${decoded.error.code} ${decoded.error.description}\n`);
    throw new CliError('failed', decoded.error.description, { reported: true });
  }
  return decoded.value;
}

function formatAccepted(result: SendResult): string {
  let out = `Accepted: ticket ${result.ticketId}\n`;
  out += `  Location     ${result.location}\n`;
  if (result.requestId !== undefined) out += `  Request ID   ${result.requestId}\n`;
  return out;
}

/** `smsv4 send`: sends one message (flags or a request file) and optionally waits for its final status. */
export function sendCommand(context: CommandContext, command: Command): Command {
  command
    .option('--to <number>', 'destination number with country code, digits only')
    .option('--text <content>', 'the content (hex for --type hexEncodedText and binary)')
    .option('--file <path>', 'send this MT request file (JSON or XML) instead of the flags; - for standard input')
    .addOption(new Option('--type <type>', 'message type').choices(['text', 'hexEncodedText', 'binary', 'wapPush']))
    .option('--charset <charset>', 'charset of hexEncodedText: GSM, Latin-1, UTF-8, UTF-16')
    .option('--udh', 'the content starts with a user data header')
    .option('--url <url>', 'the link of a wapPush message')
    .option('--mlc <mlc>', 'content longer than one part: reject, truncate or segment')
    .option('--validity-period <seconds>', 'seconds the message may wait for the handset (0 to 259200)')
    .option('--from <address>', 'source address (short code, long code, alphanumeric)')
    .option('--ton <ton>', 'type of the source address: 1, 3 or 5')
    .option('--operator <id>', 'destination mobile operator ID')
    .option('--receipt', 'ask for a delivery receipt (to the provisioned URL)')
    .option('--receipt-url <url>', 'ask for a delivery receipt to this URL')
    .option('--note1 <text>', 'note returned in receipts and status')
    .option('--note2 <text>', 'note returned in receipts')
    .option('--program-id <id>', 'US short-code program ID')
    .option('--flash', 'send a flash message')
    .option('--promotional', 'mark the message promotional (India)')
    .option('--interaction <interaction>', 'one-way or two-way')
    .addOption(new Option('--format <format>', 'body format of the request').choices(['json', 'xml']).default('json'))
    .option('--wait', 'then ask for the status until it is final')
    .option('--wait-timeout <ms>', 'longest wait for a final status, ms', '60000')
    .option('--interval <ms>', 'time between two status requests, ms', '1000');
  addApiOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (flags: SendFlags, cmd: Command) => {
      const request = flags.file === undefined ? requestFromFlags(flags) : await requestFromFile(flags.file, context);
      const client = await apiClient(flags, context, { format: flags.format }, { stdinTaken: flags.file === '-' });
      const colors = context.colors(cmd, 'stdout');
      const sent = await callApi(() => client.send(request), flags, context, cmd);
      if (flags.wait !== true) {
        if (flags.json === true) writeJson(context.io, { ok: true, httpStatus: sent.httpStatus, ticketId: sent.ticketId, location: sent.location, requestId: sent.requestId });
        else context.io.stdout.write(formatAccepted(sent));
        return;
      }
      if (flags.json !== true) context.io.stdout.write(formatAccepted(sent));
      const progress = createProgress(context.io.stderr);
      const waited = await callApi(
        () =>
          waitForFinal(client, sent.ticketId, {
            intervalMs: positiveInteger(flags.interval, '--interval') ?? 1000,
            timeoutMs: positiveInteger(flags.waitTimeout, '--wait-timeout') ?? 60_000,
            progress,
          }),
        flags,
        context,
        cmd,
      ).finally(() => progress.finish());
      if (flags.json === true) {
        writeJson(context.io, { ok: true, httpStatus: sent.httpStatus, ticketId: sent.ticketId, location: sent.location, requestId: sent.requestId, final: waited.final, status: waited.result.status });
      } else {
        context.io.stdout.write(`\n${formatStatus(waited.result.status, colors)}`);
        if (!waited.final) context.io.stderr.write('the status is not final yet (--wait-timeout)\n');
      }
      if (!waited.final) throw new CliError('failed', 'no final status in time', { reported: true });
    });
  return command;
}

import { estimateSegments, explain, type HexEstimateOptions, type TextEstimateOptions } from '@smsv4/core';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { estimateOptions, type EstimateFlags } from '../text/estimate-flags.js';
import { formatEstimate, formatExplanation } from '../text/format-estimate.js';
import type { CommandContext } from './command-context.js';
import { writeJson } from './command-context.js';
import { addEstimateOptions } from './estimate-options.js';
import { readMessageText } from './text-input.js';

interface TextFlags extends EstimateFlags {
  readonly file?: string;
  readonly json?: boolean;
}

const SEGMENTS_EXAMPLES = `
Examples:
  $ smsv4 segments 'Your code is 123456'
  $ smsv4 segments --file template.txt --text-length 153 --max-parts 4
  $ smsv4 segments --type hexEncodedText --charset UTF-16 00480069
  $ echo 'Olá' | smsv4 segments - --national portuguese --json`;

const EXPLAIN_EXAMPLES = `
Examples:
  $ smsv4 explain 'It’s “great” — isn’t it?'
  $ smsv4 explain --file promo.txt --json`;

/** `smsv4 segments <text>`: encoding, parts, units left, what forces UCS-2 and what substitutions save. */
export function segmentsCommand(context: CommandContext, command: Command): Command {
  command
    .argument('[text]', 'the message (hex for hexEncodedText and binary), or - for standard input')
    .option('--file <path>', 'read the message from a file (one final line break is dropped)')
    .option('--json', 'print the estimate as JSON');
  addEstimateOptions(command)
    .addHelpText('after', SEGMENTS_EXAMPLES)
    .action(async (text: string | undefined, flags: TextFlags, cmd: Command) => {
      const options = estimateOptions(flags);
      const content = await readMessageText(text, flags.file, context.io);
      const colors = context.colors(cmd, 'stdout');
      if (options.type === 'text' || options.type === undefined) {
        const explanation = explain(content, options as TextEstimateOptions);
        if (flags.json === true) writeJson(context.io, explanation);
        else context.io.stdout.write(formatEstimate(explanation.estimate, colors, explanation));
        return;
      }
      const hexOptions = options as HexEstimateOptions;
      const estimate = estimateSegments(content, hexOptions);
      if (!estimate.ok) throw new CliError('failed', `the content is not valid ${hexOptions.type === 'binary' ? 'hex' : `${String(hexOptions.charset)} hex`}: ${estimate.error.message} (at ${estimate.error.offset})`);
      if (flags.json === true) writeJson(context.io, { estimate: estimate.value });
      else context.io.stdout.write(formatEstimate(estimate.value, colors));
    });
  return command;
}

/** `smsv4 explain <text>`: the estimate, every part, every substitutable character and the substituted text. */
export function explainCommand(context: CommandContext, command: Command): Command {
  command
    .argument('[text]', 'the text, or - for standard input')
    .option('--file <path>', 'read the text from a file (one final line break is dropped)')
    .option('--json', 'print the explanation as JSON');
  addEstimateOptions(command, { hex: false })
    .addHelpText('after', EXPLAIN_EXAMPLES)
    .action(async (text: string | undefined, flags: TextFlags, cmd: Command) => {
      const options = estimateOptions(flags) as TextEstimateOptions;
      const content = await readMessageText(text, flags.file, context.io);
      const explanation = explain(content, options);
      if (flags.json === true) writeJson(context.io, explanation);
      else context.io.stdout.write(formatExplanation(explanation, context.colors(cmd, 'stdout')));
    });
  return command;
}

import { Option, type Command } from 'commander';
import { CliError } from '../cli-error.js';
import { collectInputs } from '../input/collect-inputs.js';
import { RESOURCE_NAMES, type ResourceName } from '../resources.js';
import { createProgress } from '../terminal/progress.js';
import type { Colors } from '../terminal/colors.js';
import { validatePayload, type ValidationResult } from '../validation/validate-payload.js';
import { progressEnabled, writeJson, type CommandContext } from './command-context.js';

interface ValidateFlags {
  readonly resource?: ResourceName;
  readonly format?: 'json' | 'xml';
  readonly json?: boolean;
  readonly quiet?: boolean;
  readonly reservedWords?: string;
  readonly builtInVariables?: string;
  readonly progress?: boolean;
}

const list = (raw: string | undefined): string[] | undefined => (raw === undefined ? undefined : raw.split(',').map((word) => word.trim()).filter((word) => word !== ''));

function formatResult(result: ValidationResult, colors: Colors): string {
  const what = result.resource === undefined ? '' : colors.dim(` (${result.resource}${result.format === undefined ? '' : `, ${result.format.toUpperCase()}`})`);
  if (result.valid) return `${colors.green('✔ valid  ')}  ${result.source}${what}\n`;
  const { code, description, path } = result.error ?? { code: '?', description: '' };
  const at = path === undefined ? '' : colors.dim(` at ${path}`);
  return `${colors.red('✖ invalid')}  ${result.source}${what}\n    ${colors.bold(String(code))} ${description}${at}\n`;
}

const EXAMPLES = `
Examples:
  $ smsv4 validate payloads/                      every .json and .xml file under payloads/
  $ smsv4 validate mt.json --json                 machine-readable verdicts
  $ cat body.xml | smsv4 validate - --resource mt-request

The resource is told by the JSON root member or the XML root element (mobileTerminate, mtStatus,
deliveryReceipt, mobileOriginate, preview, error; endUser for an Invoke Service request); the format by
the extension (.json, .xml), else the first character. Exit status: 0 all valid, 1 any invalid,
2 bad usage.`;

/** `smsv4 validate <files...>`. */
export function validateCommand(context: CommandContext, command: Command): Command {
  return command
    .argument('<files...>', 'payload files, directories (their .json and .xml files), or - for standard input')
    .addOption(new Option('-r, --resource <name>', 'validate as this resource instead of telling it from the root').choices(RESOURCE_NAMES))
    .addOption(new Option('-f, --format <format>', 'read in this format instead of telling it from the extension').choices(['json', 'xml']))
    .option('--json', 'print the verdicts as JSON')
    .option('-q, --quiet', 'print only the invalid payloads and the summary')
    .option('--reserved-words <words>', 'comma-separated reserved words of the account (Invoke Service keys)')
    .option('--built-in-variables <names>', 'comma-separated built-in variables of the account (Invoke Service keys)')
    .option('--progress', 'show progress on standard error even when it is not a terminal')
    .option('--no-progress', 'never show progress')
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], flags: ValidateFlags, command: Command) => {
      const { io } = context;
      const inputs = await collectInputs(files, io, { extensions: ['.json', '.xml'] });
      if (inputs.length === 0) throw new CliError('input', `no .json or .xml file under ${files.join(', ')}`);
      const reservedWords = list(flags.reservedWords);
      const builtInVariables = list(flags.builtInVariables);
      const invokeValidation = { ...(reservedWords === undefined ? {} : { reservedWords }), ...(builtInVariables === undefined ? {} : { builtInVariables }) };
      const progress = createProgress(io.stderr, { enabled: progressEnabled(flags.progress, io) && inputs.length > 1 });
      const colors = context.colors(command, 'stdout');
      const results: ValidationResult[] = [];
      for (const input of inputs) {
        let result: ValidationResult;
        try {
          const bytes = await input.read();
          result = validatePayload(bytes, input.source, {
            ...(flags.resource === undefined ? {} : { resource: flags.resource }),
            ...(flags.format === undefined ? {} : { format: flags.format }),
            invokeValidation,
          });
        } catch (error) {
          result = { source: input.source, valid: false, error: { code: 'unreadable', description: `cannot read: ${(error as Error).message}` } };
        }
        results.push(result);
        progress.update(results.length, inputs.length, 'validated');
        if (flags.json !== true && !(flags.quiet === true && result.valid)) {
          progress.finish();
          io.stdout.write(formatResult(result, colors));
        }
      }
      progress.finish();
      const invalid = results.filter((result) => !result.valid).length;
      const summary = { files: results.length, valid: results.length - invalid, invalid };
      if (flags.json === true) writeJson(io, { valid: invalid === 0, summary, results });
      else {
        const counts = `${summary.files} ${summary.files === 1 ? 'payload' : 'payloads'}: ${colors.green(`${summary.valid} valid`)}, ${invalid > 0 ? colors.red(`${invalid} invalid`) : `${invalid} invalid`}`;
        io.stdout.write(`\n${counts}\n`);
      }
      if (invalid > 0) throw new CliError('failed', `${invalid} invalid`, { reported: true });
    });
}

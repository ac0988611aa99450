import { Option, type Command } from 'commander';
import { CliError } from '../cli-error.js';
import { exitCodesHelp } from '../exit-codes.js';
import { collectInputs } from '../input/collect-inputs.js';
import { isNdjsonPath, ndjsonRecords } from '../input/ndjson-records.js';
import { RESOURCE_NAMES, type ResourceName } from '../resources.js';
import { createProgress } from '../terminal/progress.js';
import type { Colors } from '../terminal/colors.js';
import { validatePayload, type ValidatePayloadOptions, type ValidationResult } from '../validation/validate-payload.js';
import { formatJunit, summarize, syntaxAt } from '../validation/validation-report.js';
import { progressEnabled, writeJson, type CommandContext } from './command-context.js';

interface ValidateFlags {
  readonly resource?: ResourceName;
  readonly inputFormat?: 'json' | 'xml' | 'ndjson';
  readonly format?: 'text' | 'json' | 'junit';
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
  const syntax = syntaxAt(result);
  return `${colors.red('✖ invalid')}  ${result.source}${what}\n    ${colors.bold(String(code))} ${description}${at}\n${syntax === '' ? '' : `    ${colors.dim(syntax)}\n`}`;
}

const EXAMPLES = `
Examples:
  $ smsv4 validate payloads/                      every .json, .xml, .ndjson and .jsonl file under payloads/
  $ smsv4 validate events.ndjson                  one payload per line, each validated
  $ smsv4 validate payloads/ --format junit > validate.xml   a report CI systems show
  $ cat body.xml | smsv4 validate - --resource mt-request

The resource is told by the JSON root member or the XML root element (mobileTerminate, mtStatus,
deliveryReceipt, mobileOriginate, preview, error; endUser for an Invoke Service request); the format by
the extension (.json, .xml; .ndjson and .jsonl hold one JSON payload per line), else the first character.
A JSON payload that is not JSON is reported with the line and column of its first syntax error.

${exitCodesHelp()}`;

/** `smsv4 validate <files...>`. */
export function validateCommand(context: CommandContext, command: Command): Command {
  return command
    .argument('<files...>', 'payload files, directories (their .json, .xml, .ndjson and .jsonl files), or - for standard input')
    .addOption(new Option('-r, --resource <name>', 'validate as this resource instead of telling it from the root').choices(RESOURCE_NAMES))
    .addOption(new Option('-i, --input-format <format>', 'read in this format instead of telling it from the extension').choices(['json', 'xml', 'ndjson']))
    .addOption(new Option('--format <format>', 'the report: text, json (one document) or junit (JUnit XML)').choices(['text', 'json', 'junit']).default('text'))
    .option('--json', 'the same as --format json')
    .option('-q, --quiet', 'print only the invalid payloads and the summary (text report)')
    .option('--reserved-words <words>', 'comma-separated reserved words of the account (Invoke Service keys)')
    .option('--built-in-variables <names>', 'comma-separated built-in variables of the account (Invoke Service keys)')
    .option('--progress', 'show progress on standard error even when it is not a terminal')
    .option('--no-progress', 'never show progress')
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], flags: ValidateFlags, command: Command) => {
      const { io } = context;
      const report = flags.json === true ? 'json' : (flags.format ?? 'text');
      const inputs = await collectInputs(files, io, { extensions: ['.json', '.xml', '.ndjson', '.jsonl'] });
      if (inputs.length === 0) throw new CliError('input', `no .json, .xml, .ndjson or .jsonl file under ${files.join(', ')}`);
      const reservedWords = list(flags.reservedWords);
      const builtInVariables = list(flags.builtInVariables);
      const options: ValidatePayloadOptions = {
        ...(flags.resource === undefined ? {} : { resource: flags.resource }),
        ...(flags.inputFormat === undefined || flags.inputFormat === 'ndjson' ? {} : { format: flags.inputFormat }),
        invokeValidation: { ...(reservedWords === undefined ? {} : { reservedWords }), ...(builtInVariables === undefined ? {} : { builtInVariables }) },
      };
      const progress = createProgress(io.stderr, { enabled: progressEnabled(flags.progress, io) });
      const colors = context.colors(command, 'stdout');
      const results: ValidationResult[] = [];
      const emit = (result: ValidationResult): void => {
        results.push(result);
        if (report === 'text' && !(flags.quiet === true && result.valid)) {
          progress.finish();
          io.stdout.write(formatResult(result, colors));
        }
      };
      for (const [index, input] of inputs.entries()) {
        let bytes: Uint8Array;
        try {
          bytes = await input.read();
        } catch (error) {
          emit({ source: input.source, valid: false, error: { code: 'unreadable', description: `cannot read: ${(error as Error).message}` } });
          continue;
        }
        if (flags.inputFormat === 'ndjson' || (flags.inputFormat === undefined && isNdjsonPath(input.source))) {
          const records = ndjsonRecords(bytes);
          for (const [done, record] of records.entries()) {
            const result = validatePayload(record.bytes, `${input.source}:${record.line}`, { ...options, format: 'json' });
            // A syntax error's line is the record's line in the file.
            emit(result.error?.line === undefined ? result : { ...result, error: { ...result.error, line: record.line + result.error.line - 1 } });
            progress.update(done + 1, records.length, `validated ${input.source}`);
          }
        } else {
          emit(validatePayload(bytes, input.source, options));
        }
        if (inputs.length > 1) progress.update(index + 1, inputs.length, 'validated');
      }
      progress.finish();
      const summary = summarize(results);
      if (report === 'json') writeJson(io, { valid: summary.invalid === 0, summary, results });
      else if (report === 'junit') io.stdout.write(formatJunit(results));
      else {
        const { invalid } = summary;
        const counts = `${summary.files} ${summary.files === 1 ? 'payload' : 'payloads'}: ${colors.green(`${summary.valid} valid`)}, ${invalid > 0 ? colors.red(`${invalid} invalid`) : `${invalid} invalid`}`;
        const unreadable = summary.unreadable > 0 ? `, ${summary.unreadable} unreadable` : '';
        io.stdout.write(`\n${counts}${unreadable}\n`);
      }
      if (summary.unreadable > 0) throw new CliError('input', `${summary.unreadable} unreadable`, { reported: true });
      if (summary.invalid > 0) throw new CliError('failed', `${summary.invalid} invalid`, { reported: true });
    });
}

import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { collectInputs } from '../input/collect-inputs.js';
import { estimateOptions, positiveInteger, type EstimateFlags } from '../text/estimate-flags.js';
import { forcedList, parts, substitutionList } from '../text/format-estimate.js';
import { lintTemplate, templatesOf, unreadableTemplate, type LintResult } from '../text/lint-templates.js';
import type { Colors } from '../terminal/colors.js';
import { createProgress } from '../terminal/progress.js';
import { collect, progressEnabled, writeJson, type CommandContext } from './command-context.js';
import { addEstimateOptions } from './estimate-options.js';

interface LintFlags extends EstimateFlags {
  readonly allowUcs2?: boolean;
  readonly var: string[];
  readonly json?: boolean;
  readonly progress?: boolean;
}

const EXAMPLES = `
Examples:
  $ smsv4 lint templates/                          every .txt and .json file under templates/
  $ smsv4 lint otp.txt --max-parts 1 --var code=123456
  $ smsv4 lint i18n/messages.json --max-parts 2 --national spanish,portuguese

A .json file holds templates as the string values of an object (nested objects and arrays too),
reported as file#key.path; any other file is one template (one final line break dropped).
{{name}} placeholders are filled by --var name=value; unfilled ones are counted as written, so give
the longest value a placeholder can take. Exit status: 0 all pass, 1 any fails, 2 bad usage.`;

function formatLint(result: LintResult, colors: Colors): string {
  const summary = result.encoding === undefined ? '' : colors.dim(` (${result.encoding}, ${parts(result.segments ?? 0)})`);
  if (result.ok) return `${colors.green('✔ pass')}  ${result.template}${summary}\n`;
  let out = `${colors.red('✖ fail')}  ${result.template}${summary}\n`;
  for (const problem of result.problems) {
    out += `    ${colors.bold(problem.code)}: ${problem.description}\n`;
    if (problem.code === 'leaves-gsm' && result.ucs2Characters !== undefined && result.ucs2Characters.length > 0) {
      out += `      forced by ${colors.yellow(forcedList(result.ucs2Characters))}\n`;
    }
  }
  if (result.substitutions !== undefined && result.substitutions.length > 0) {
    out += `      substitutes ${substitutionList(result.substitutions)} give ${result.substitutedEncoding}, ${parts(result.substitutedSegments ?? 0)} (smsv4 explain shows the text)\n`;
  }
  return out;
}

function variables(pairs: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals < 1) throw new CliError('usage', `--var takes name=value, not ${JSON.stringify(pair)}`);
    map.set(pair.slice(0, equals), pair.slice(equals + 1));
  }
  return map;
}

/** `smsv4 lint <templates...>`: fails when a template leaves GSM or exceeds its part budget. */
export function lintCommand(context: CommandContext, command: Command): Command {
  command
    .argument('<templates...>', 'template files (.txt, .json, any text file), directories (their .txt and .json files), or - for standard input')
    .option('--max-parts <parts>', 'part budget of each template', '1')
    .option('--allow-ucs2', 'accept templates sent in UCS-2 (check the budget only)')
    .option('--var <name=value>', 'value of a {{name}} placeholder (repeatable)', collect, [])
    .option('--json', 'print the verdicts as JSON')
    .option('--progress', 'show progress on standard error even when it is not a terminal')
    .option('--no-progress', 'never show progress');
  addEstimateOptions(command, { hex: false, operatorMaxParts: false })
    .addHelpText('after', EXAMPLES)
    .action(async (files: string[], flags: LintFlags, cmd: Command) => {
      const { io } = context;
      const budget = positiveInteger(flags.maxParts, '--max-parts') ?? 1;
      const { type: _type, ...estimate } = estimateOptions({ ...flags, maxParts: undefined });
      const values = variables(flags.var);
      const inputs = await collectInputs(files, io, { extensions: ['.txt', '.json'] });
      if (inputs.length === 0) throw new CliError('input', `no .txt or .json file under ${files.join(', ')}`);
      const colors = context.colors(cmd, 'stdout');
      const progress = createProgress(io.stderr, { enabled: progressEnabled(flags.progress, io) && inputs.length > 1 });
      const results: LintResult[] = [];
      let done = 0;
      for (const input of inputs) {
        let found: LintResult[];
        try {
          const templates = templatesOf(input.source, await input.read());
          found = templates.ok
            ? templates.value.map(({ name, text }) => lintTemplate(name, text, { maxParts: budget, allowUcs2: flags.allowUcs2 === true, estimate, variables: values }))
            : [unreadableTemplate(input.source, templates.error)];
        } catch (error) {
          found = [unreadableTemplate(input.source, `cannot read: ${(error as Error).message}`)];
        }
        results.push(...found);
        progress.update(++done, inputs.length, 'linted');
        if (flags.json !== true) {
          progress.finish();
          for (const result of found) io.stdout.write(formatLint(result, colors));
        }
      }
      progress.finish();
      const failed = results.filter((result) => !result.ok).length;
      const summary = { templates: results.length, passed: results.length - failed, failed };
      if (flags.json === true) writeJson(io, { ok: failed === 0, budget, summary, results });
      else io.stdout.write(`\n${summary.templates} ${summary.templates === 1 ? 'template' : 'templates'}: ${colors.green(`${summary.passed} passed`)}, ${failed > 0 ? colors.red(`${failed} failed`) : '0 failed'}\n`);
      if (failed > 0) throw new CliError('failed', `${failed} failed`, { reported: true });
    });
  return command;
}

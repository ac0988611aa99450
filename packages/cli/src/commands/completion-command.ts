/**
 * `smsv4 completion bash|zsh|fish`: the shell completion script, generated from the commands'
 * own definitions (names, options, the values an option takes), so it cannot drift from them.
 */
import { Argument, Command } from 'commander';
import type { CommandContext } from './command-context.js';
import { COMMAND_ENTRIES, COMPLETION_DESCRIPTION } from './command-entries.js';

/** A command as completion sees it. */
interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly { readonly long?: string; readonly short?: string; readonly description: string; readonly takesValue: boolean; readonly choices?: readonly string[] }[];
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;

type Shell = (typeof SHELLS)[number];
const GLOBAL_OPTIONS = ['--help', '--version', '--no-color'];

/** Every command's name, description and options, read from the commands' own modules. */
async function commandSpecs(context: CommandContext): Promise<CommandSpec[]> {
  const specs: CommandSpec[] = [];
  const entries = [
    ...COMMAND_ENTRIES.map((entry) => ({ ...entry, configure: async (command: Command) => (await entry.load())(context, command) })),
    // This command, as command-list.ts describes it.
    { name: 'completion', description: COMPLETION_DESCRIPTION, configure: async (command: Command) => completionCommand(context, command) },
  ];
  for (const entry of entries) {
    const command = new Command(entry.name);
    await entry.configure(command);
    specs.push({
      name: entry.name,
      description: entry.description,
      options: [
        ...command.options.map((option) => ({
          ...(option.long === undefined ? {} : { long: option.long }),
          ...(option.short === undefined ? {} : { short: option.short }),
          description: option.description,
          takesValue: option.required || option.optional,
          ...(option.argChoices === undefined ? {} : { choices: option.argChoices }),
        })),
        { long: '--help', short: '-h', description: 'show help', takesValue: false },
      ],
    });
  }
  return specs;
}

const words = (list: readonly string[]): string => list.join(' ');

function bashScript(specs: readonly CommandSpec[]): string {
  const flags = (spec: CommandSpec): string[] => spec.options.flatMap((o) => [o.long, o.short].filter((flag): flag is string => flag !== undefined));
  const commandCases = specs.map((spec) => `    ${spec.name}) opts="${words(flags(spec))}" ;;`);
  const valueCases = specs.flatMap((spec) =>
    spec.options
      .filter((o) => o.choices !== undefined)
      .map((o) => `    ${[o.long, o.short].filter((flag) => flag !== undefined).map((flag) => `${spec.name}:${flag}`).join('|')}) COMPREPLY=($(compgen -W "${words(o.choices ?? [])}" -- "$cur")); return ;;`),
  );
  return `# smsv4 completion for bash: add to ~/.bashrc
#   source <(smsv4 completion bash)
_smsv4() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="\${COMP_WORDS[1]}" opts=""
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words([...specs.map((s) => s.name), 'help', ...GLOBAL_OPTIONS])}" -- "$cur"))
    return
  fi
  case "$command:$prev" in
${valueCases.join('\n')}
  esac
  case "$command" in
${commandCases.join('\n')}
    help) COMPREPLY=($(compgen -W "${words(specs.map((s) => s.name))}" -- "$cur")); return ;;
  esac
  if [ "$command" = completion ]; then
    COMPREPLY=($(compgen -W "${words(SHELLS)} $opts" -- "$cur"))
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _smsv4 smsv4
`;
}

function zshScript(specs: readonly CommandSpec[]): string {
  // zsh runs the bash function through its bash completion layer.
  return `#compdef smsv4
# smsv4 completion for zsh: add to ~/.zshrc
#   source <(smsv4 completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(specs).split('\n').slice(2).join('\n')}`;
}

const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishScript(specs: readonly CommandSpec[]): string {
  const lines = [
    '# smsv4 completion for fish: save as ~/.config/fish/completions/smsv4.fish',
    '#   smsv4 completion fish > ~/.config/fish/completions/smsv4.fish',
    'complete -c smsv4 -n __fish_use_subcommand -l help -s h -d \'show help\'',
    'complete -c smsv4 -n __fish_use_subcommand -l version -s V -d \'print the version\'',
    'complete -c smsv4 -l no-color -d \'no colours, even on a terminal\'',
    ...specs.map((spec) => `complete -c smsv4 -f -n __fish_use_subcommand -a ${spec.name} -d ${fishQuote(spec.description)}`),
  ];
  for (const spec of specs) {
    const when = `-n '__fish_seen_subcommand_from ${spec.name}'`;
    if (spec.name === 'completion') lines.push(`complete -c smsv4 -f ${when} -a ${fishQuote(words(SHELLS))}`);
    for (const option of spec.options) {
      const flags = [option.long === undefined ? '' : `-l ${option.long.slice(2)}`, option.short === undefined ? '' : `-s ${option.short.slice(1)}`].filter((f) => f !== '').join(' ');
      const value = option.choices === undefined ? (option.takesValue ? ' -r' : '') : ` -x -a ${fishQuote(words(option.choices))}`;
      lines.push(`complete -c smsv4 ${when} ${flags}${value} -d ${fishQuote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `smsv4 completion <shell>`. */
export function completionCommand(context: CommandContext, command: Command): Command {
  return command
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  $ source <(smsv4 completion bash)                       in ~/.bashrc
  $ source <(smsv4 completion zsh)                        in ~/.zshrc
  $ smsv4 completion fish > ~/.config/fish/completions/smsv4.fish`,
    )
    .action(async (shell: Shell) => {
      const specs = await commandSpecs(context);
      const script = shell === 'bash' ? bashScript(specs) : shell === 'zsh' ? zshScript(specs) : fishScript(specs);
      context.io.stdout.write(script);
    });
}

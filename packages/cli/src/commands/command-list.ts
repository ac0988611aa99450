/**
 * The commands of `smsv4`, in the order of the program's help: those of command-entries.ts, then
 * `completion`, which reads them.
 */
import { COMMAND_ENTRIES, COMPLETION_DESCRIPTION, type CommandEntry } from './command-entries.js';

export type { CommandEntry, ConfigureCommand } from './command-entries.js';

/** Every command, in the order of the program's help. */
export const COMMANDS: readonly CommandEntry[] = [
  ...COMMAND_ENTRIES,
  {
    name: 'completion',
    description: COMPLETION_DESCRIPTION,
    load: async () => (await import('./completion-command.js')).completionCommand,
  },
];

/**
 * The commands of `smsv4`: each one's name and description, known at start-up, and how to load the
 * module that configures it (its options, help and action), loaded only when the command runs or
 * its help is asked for. So `smsv4 --version`, `smsv4 --help` and each command load only what they use.
 */
import type { Command } from 'commander';
import type { CommandContext } from './command-context.js';

/** Configures a command's options, help and action on the command `createProgram` made. */
export type ConfigureCommand = (context: CommandContext, command: Command) => Command;

/** A command of `smsv4`. */
export interface CommandEntry {
  readonly name: string;
  readonly description: string;
  readonly load: () => Promise<ConfigureCommand>;
}

/** Every command but `completion` (which reads this list), in the order of the program's help. */
export const COMMAND_ENTRIES: readonly CommandEntry[] = [
  {
    name: 'validate',
    description: "check payloads as the service would: valid, or the service's exact error (540, 12002, 12007)",
    load: async () => (await import('./validate-command.js')).validateCommand,
  },
  {
    name: 'segments',
    description: 'count the parts of a message: encoding, parts, units left, characters forcing UCS-2, substitutions that save parts',
    load: async () => (await import('./segments-command.js')).segmentsCommand,
  },
  {
    name: 'explain',
    description: 'explain why a text costs what it costs: its parts, the characters forcing UCS-2 and the GSM substitutes that save parts',
    load: async () => (await import('./segments-command.js')).explainCommand,
  },
  {
    name: 'lint',
    description: 'fail when a template leaves the GSM alphabet or costs more parts than its budget',
    load: async () => (await import('./lint-command.js')).lintCommand,
  },
  {
    name: 'schema',
    description: 'write the JSON Schema (draft 2020-12) of each resource, generated from the core schemas',
    load: async () => (await import('./schema-command.js')).schemaCommand,
  },
  {
    name: 'openapi',
    description: 'write the OpenAPI 3.1 document of every operation, error and callback',
    load: async () => (await import('./openapi-command.js')).openapiCommand,
  },
  { name: 'send', description: 'send a message (to the sandbox by default)', load: async () => (await import('./send-command.js')).sendCommand },
  {
    name: 'status',
    description: 'get the status of a sent message (the summary and every part of a multipart message)',
    load: async () => (await import('./status-command.js')).statusCommand,
  },
  {
    name: 'lookup',
    description: 'look up the operator of a number and its single-message limits',
    load: async () => (await import('./lookup-command.js')).lookupCommand,
  },
  {
    name: 'invoke',
    description: 'trigger an Invoke Service service for an end user',
    load: async () => (await import('./invoke-command.js')).invokeCommand,
  },
  {
    name: 'sandbox',
    description: 'run the sandbox: the whole service in memory, with its dashboard (receipts and inbound messages to your URLs)',
    load: async () => (await import('./sandbox-command.js')).sandboxCommand,
  },
];

/** What `smsv4 completion` does (command-list.ts lists it; completion-command.ts describes itself with it). */
export const COMPLETION_DESCRIPTION = 'print the shell completion script for bash, zsh or fish';

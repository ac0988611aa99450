import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Argument, type Command } from 'commander';
import { CliError } from '../cli-error.js';
import { buildJsonSchema, buildJsonSchemas } from '../contract/json-schemas.js';
import { RESOURCE_NAMES, type ResourceName } from '../resources.js';
import { writeJson, type CommandContext } from './command-context.js';

const EXAMPLES = `
Examples:
  $ smsv4 schema --out schemas/             one <resource>.schema.json per resource
  $ smsv4 schema mt-request                 print one schema
  $ smsv4 schema preview --out schemas/     write one schema

Each document is JSON Schema draft 2020-12 of the resource's JSON body, generated from the TypeBox
schemas of @smsv4/core: the forms the service accepts (numbers as digit strings, Booleans as
"true"/"false", the alternative spellings) included.`;

/** `smsv4 schema [resource] [--out <dir>]`. */
export function schemaCommand(context: CommandContext, command: Command): Command {
  return command
    .addArgument(new Argument('[resource]', 'only this resource').choices(RESOURCE_NAMES))
    .option('-o, --out <dir>', 'write <resource>.schema.json files into this directory (created if needed)')
    .addHelpText('after', EXAMPLES)
    .action(async (resource: ResourceName | undefined, flags: { out?: string }) => {
      const { io } = context;
      if (flags.out === undefined) {
        if (resource === undefined) throw new CliError('usage', `name a resource (${RESOURCE_NAMES.join(', ')}) or give --out <dir>`);
        writeJson(io, buildJsonSchema(resource).schema);
        return;
      }
      const documents = resource === undefined ? buildJsonSchemas() : [buildJsonSchema(resource)];
      const directory = resolve(io.cwd, flags.out);
      try {
        await mkdir(directory, { recursive: true });
        for (const document of documents) await writeFile(join(directory, document.fileName), `${JSON.stringify(document.schema, null, 2)}\n`);
      } catch (error) {
        throw new CliError('input', `cannot write into ${flags.out}: ${(error as Error).message}`, { cause: error });
      }
      for (const document of documents) io.stdout.write(`${join(flags.out, document.fileName)}\n`);
    });
}

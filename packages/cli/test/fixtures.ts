// The one helper that finds fixtures: the core's real payload files and the CLI's own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The core's fixtures (`packages/core/test/fixtures`). */
export const CORE_FIXTURES = fileURLToPath(new URL('../../core/test/fixtures/', import.meta.url));

/** The CLI's fixtures (`packages/cli/test/fixtures`). */
export const CLI_FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Absolute path of a core fixture. */
export const coreFixture = (path: string): string => join(CORE_FIXTURES, path);

/** Absolute path of a CLI fixture. */
export const cliFixture = (path: string): string => join(CLI_FIXTURES, path);

/** Every file under a folder, recursively, sorted, as absolute paths. */
export function filesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** A fixture's path relative to the core's fixture folder (for test names). */
export const coreName = (path: string): string => relative(CORE_FIXTURES, path);

/** The bytes of a file. */
export const bytesOf = (path: string): Uint8Array => new Uint8Array(readFileSync(path));

// The pnpm commands the Markdown of the repository shows run the root scripts they name. `pnpm <name>`
// runs the script <name> unless pnpm has a command of that name or hands the name to npm (`pnpm docs`
// opens a package's web page): such a script is shown as `pnpm run <name>`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../..', import.meta.url).pathname;
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
/** pnpm 10's own commands (`pnpm help --all`) other than those that run the script of their name (test, start). */
const PNPM_COMMANDS = 'add approve-builds audit bin cat-file cat-index config create dedupe deploy dlx doctor env exec fetch find-hash ignored-builds import init install install-test licenses link list outdated pack patch patch-commit patch-remove prune publish rebuild remove root run self-update server setup store unlink update why'.split(' ');
/** The names pnpm hands to npm. */
const NPM_PASSTHROUGH = 'access adduser bugs deprecate dist-tag docs edit home info login logout owner ping prefix profile pkg repo search set-script show star stars team token undeprecate unpublish unstar version view whoami xmas'.split(' ');
const TAKEN = new Set([...PNPM_COMMANDS, ...NPM_PASSTHROUGH]);

/** Each `pnpm@<version> <word>` of the tracked Markdown files, with where it is. */
function pnpmCommands(): { where: string; word: string }[] {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' }).split('\n').filter((file) => file !== '' && !file.includes('CHANGELOG'));
  return files.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => [...line.matchAll(/\bpnpm@[0-9.]+ ([a-z][a-z:-]*)/g)].map((match) => ({ where: `${file}:${index + 1}`, word: match[1] as string }))),
  );
}

describe('pnpm commands in the Markdown', () => {
  it('run a root script whose name pnpm takes for itself through pnpm run', () => {
    const commands = pnpmCommands();
    expect(commands.some(({ word }) => word === 'run')).toBe(true);
    expect(commands.some(({ word }) => word === 'test')).toBe(true);
    const shadowed = commands.filter(({ word }) => scripts.includes(word) && TAKEN.has(word));
    expect(shadowed.map(({ where, word }) => `${where}: pnpm ${word}`)).toEqual([]);
  });
});

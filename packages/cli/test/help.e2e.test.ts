// Help, version and usage errors of the binary.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { smsv4 } from './helpers.js';

const COMMANDS = ['validate', 'segments', 'explain', 'lint', 'schema', 'openapi', 'send', 'status', 'lookup', 'invoke', 'sandbox', 'completion'];

describe('smsv4 --help and --version', () => {
  it('lists every command, and every command has help with examples (exit 0)', async () => {
    const top = await smsv4(['--help']);
    expect(top.code).toBe(0);
    for (const name of COMMANDS) expect(top.stdout).toMatch(new RegExp(`\\n  ${name} `));
    const helps = await Promise.all(COMMANDS.map((name) => smsv4([name, '--help'])));
    for (const [index, help] of helps.entries()) {
      const name = COMMANDS[index] as string;
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toContain(`Usage: smsv4 ${name}`);
      expect(help.stdout, name).toContain('Examples:');
    }
  });

  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = await smsv4(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('answers an unknown command or option with exit status 2 and a hint', async () => {
    const command = await smsv4(['vaildate', 'x.json']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'vaildate'");
    expect(command.stderr).toContain('(Did you mean validate?)');
    const option = await smsv4(['segments', 'hi', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--bogus'");
    expect((await smsv4([])).code).toBe(2);
  });
});

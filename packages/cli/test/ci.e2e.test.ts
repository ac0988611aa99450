// The CLI in CI: syntax errors located, NDJSON and many files validated record by record, the
// JUnit and JSON reports, shell completion, and the one table of exit statuses. Exact outputs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, EXIT_STATUS, exitCodesHelp, exitCodesMarkdown } from '../src/index.js';
import { CLI_FIXTURES } from './fixtures.js';
import { smsv4 } from './helpers.js';

const inFixtures = { cwd: `${CLI_FIXTURES}ci` };

describe('smsv4 validate for CI', () => {
  it('gives the line and column of a JSON syntax error (exit 1)', async () => {
    const run = await smsv4(['validate', 'syntax-error.json'], inFixtures);
    expect(run.stdout).toBe(
      [
        '✖ invalid  syntax-error.json (mt-request, JSON)',
        '    540 Invalid request - invalid JSON in the payload',
        "    line 2, column 12: ':' expected",
        '',
        '1 payload: 0 valid, 1 invalid',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
  });

  it('validates NDJSON record by record and many files, with a summary; an unreadable file makes it exit 2', async () => {
    const run = await smsv4(['validate', 'valid.json', 'events.ndjson', 'missing.json'], inFixtures);
    expect(run.stdout).toBe(
      [
        '✔ valid    valid.json (mt-request, JSON)',
        '✔ valid    events.ndjson:1 (mt-request, JSON)',
        '✖ invalid  events.ndjson:3 (mt-request, JSON)',
        '    540 Invalid request - destination address value is invalid',
        '✖ invalid  events.ndjson:4 (mt-request, JSON)',
        '    540 Invalid request - invalid JSON in the payload',
        '    line 4, column 24: a value expected',
        '✖ invalid  missing.json',
        `    unreadable cannot read: ENOENT: no such file or directory, open '${CLI_FIXTURES}ci/missing.json'`,
        '',
        '5 payloads: 2 valid, 3 invalid, 1 unreadable',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(2);
    expect((await smsv4(['validate', 'valid.json', 'events.ndjson'], inFixtures)).code).toBe(1);
  });

  it('reads standard input as NDJSON with --input-format ndjson', async () => {
    const run = await smsv4(['validate', '-', '--input-format', 'ndjson', '--quiet'], { ...inFixtures, input: readFileSync(`${CLI_FIXTURES}ci/events.ndjson`) });
    expect(run.stdout).toBe(
      [
        '✖ invalid  -:3 (mt-request, JSON)',
        '    540 Invalid request - destination address value is invalid',
        '✖ invalid  -:4 (mt-request, JSON)',
        '    540 Invalid request - invalid JSON in the payload',
        '    line 4, column 24: a value expected',
        '',
        '3 payloads: 1 valid, 2 invalid',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(1);
  });

  it('--format junit: one test case per payload, failures and unreadable inputs as errors', async () => {
    const run = await smsv4(['validate', '--format', 'junit', 'valid.json', 'syntax-error.json', 'events.ndjson', 'missing.json'], inFixtures);
    expect(run.stdout).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="smsv4 validate" tests="6" failures="3" errors="1">
  <testsuite name="smsv4 validate" tests="6" failures="3" errors="1">
    <testcase name="valid.json" classname="mt-request"/>
    <testcase name="syntax-error.json" classname="mt-request">
      <failure type="540" message="Invalid request - invalid JSON in the payload">540 Invalid request - invalid JSON in the payload (line 2, column 12: &apos;:&apos; expected; rule invalidJson)</failure>
    </testcase>
    <testcase name="events.ndjson:1" classname="mt-request"/>
    <testcase name="events.ndjson:3" classname="mt-request">
      <failure type="540" message="Invalid request - destination address value is invalid">540 Invalid request - destination address value is invalid (rule destinationAddress)</failure>
    </testcase>
    <testcase name="events.ndjson:4" classname="mt-request">
      <failure type="540" message="Invalid request - invalid JSON in the payload">540 Invalid request - invalid JSON in the payload (line 4, column 24: a value expected; rule invalidJson)</failure>
    </testcase>
    <testcase name="missing.json" classname="unknown">
      <error type="unreadable" message="cannot read: ENOENT: no such file or directory, open &apos;${CLI_FIXTURES}ci/missing.json&apos;">unreadable cannot read: ENOENT: no such file or directory, open &apos;${CLI_FIXTURES}ci/missing.json&apos;</error>
    </testcase>
  </testsuite>
</testsuites>
`);
    expect(run.code).toBe(2);
  });

  it('--format json (and --json): one document with the location of a syntax error', async () => {
    const run = await smsv4(['validate', '--format', 'json', 'syntax-error.json'], inFixtures);
    expect(JSON.parse(run.stdout)).toEqual({
      valid: false,
      summary: { files: 1, valid: 0, invalid: 1, unreadable: 0 },
      results: [
        {
          source: 'syntax-error.json',
          resource: 'mt-request',
          format: 'json',
          valid: false,
          error: { code: '540', description: 'Invalid request - invalid JSON in the payload', rule: 'invalidJson', line: 2, column: 12, syntax: "':' expected" },
        },
      ],
    });
    expect((await smsv4(['validate', '--json', 'syntax-error.json'], inFixtures)).stdout).toBe(run.stdout);
  });
});

describe('smsv4 completion', () => {
  let script: string | undefined;
  const complete = async (line: string[], cword: number): Promise<string> => {
    script ??= (await smsv4(['completion', 'bash'])).stdout;
    const { spawnSync } = await import('node:child_process');
    const words = line.map((word) => `'${word}'`).join(' ');
    const run = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${words}); COMP_CWORD=${cword}; _smsv4; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8', timeout: 10_000 });
    if (run.status !== 0) throw new Error(run.stderr);
    return run.stdout.trim();
  };

  it('bash: completes commands, options and option values from the commands themselves', async () => {
    expect(await complete(['smsv4', 'va'], 1)).toBe('validate');
    expect(await complete(['smsv4', 'validate', '--in'], 2)).toBe('--input-format');
    expect(await complete(['smsv4', 'validate', '--format', ''], 3)).toBe('text json junit');
    expect(await complete(['smsv4', 'openapi', '--format', ''], 3)).toBe('json yaml');
    expect(await complete(['smsv4', 'completion', ''], 2)).toBe('bash zsh fish --help -h');
  });

  it('zsh and fish: their own scripts', async () => {
    const zsh = await smsv4(['completion', 'zsh']);
    expect(zsh.stdout.split('\n').slice(0, 5)).toEqual([
      '#compdef smsv4',
      '# smsv4 completion for zsh: add to ~/.zshrc',
      '#   source <(smsv4 completion zsh)',
      'autoload -U +X compinit && compinit',
      'autoload -U +X bashcompinit && bashcompinit',
    ]);
    const fish = await smsv4(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c smsv4 -n '__fish_seen_subcommand_from validate' -l format -x -a 'text json junit' -d 'the report: text, json (one document) or junit (JUnit XML)'\n");
    expect(fish.stdout).toContain("complete -c smsv4 -f -n __fish_use_subcommand -a validate -d 'check payloads as the service would: valid, or the service\\'s exact error (540, 12002, 12007)'\n");
  });

  it('refuses another shell with exit status 2', async () => {
    const run = await smsv4(['completion', 'tcsh']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
  });
});

describe('one table of exit statuses', () => {
  it('is what the code returns for each kind of stop', () => {
    for (const { status, codes } of EXIT_CODES) for (const code of codes) expect(EXIT_STATUS[code]).toBe(status);
    expect(Object.keys(EXIT_STATUS).sort()).toEqual(EXIT_CODES.flatMap(({ codes }) => codes).sort());
  });

  it('is printed by smsv4 --help and smsv4 validate --help, and is the README\'s and the CLI guide\'s table', async () => {
    expect((await smsv4(['--help'])).stdout).toContain(exitCodesHelp());
    expect((await smsv4(['validate', '--help'])).stdout).toContain(exitCodesHelp());
    expect(readFileSync(new URL('../../../apps/docs/guide/send-cli.md', import.meta.url), 'utf8')).toContain(`${exitCodesMarkdown()}\n`);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(/\n## Exit status\n[\s\S]*?\n(\| status \| when \|\n(?:\|.*\|\n)+)/.exec(readme)?.[1]).toBe(`${exitCodesMarkdown()}\n`);
  });
});

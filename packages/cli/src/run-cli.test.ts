import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { runCli } from './run-cli.js';

function memoryIo(stdin = ''): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: (text) => void (err += text) },
    readStdin: async () => new TextEncoder().encode(stdin),
    env: {},
    cwd: process.cwd(),
    waitForStop: () => new Promise(() => undefined),
    out: () => out,
    err: () => err,
  };
}

describe('runCli', () => {
  it('runs a command against the given streams and returns its exit status', async () => {
    const io = memoryIo('{"mobileTerminate":{"destination":{"address":"14155550100"},"message":{"type":"text","content":""}}}');
    expect(await runCli(['validate', '-'], io)).toBe(1);
    expect(io.out()).toContain('540 Invalid request - message content must have a value');
  });

  it('returns 0 for help and the version, 2 for usage errors, without exiting the process', async () => {
    const io = memoryIo();
    expect(await runCli(['--version'], io, { version: '1.2.3' })).toBe(0);
    expect(io.out()).toBe('1.2.3\n');
    expect(await runCli(['schema', '--help'], io)).toBe(0);
    expect(await runCli(['schema'], io)).toBe(2);
    expect(io.err()).toContain('smsv4: name a resource');
    expect(await runCli(['segments', 'x', '--type', 'nope'], io)).toBe(2);
  });

  it('shows a command\'s whole help with `help <command>` as with `<command> --help`, its module loaded on demand', async () => {
    const viaFlag = memoryIo();
    expect(await runCli(['schema', '--help'], viaFlag)).toBe(0);
    const viaHelp = memoryIo();
    expect(await runCli(['help', 'schema'], viaHelp)).toBe(0);
    expect(viaHelp.out()).toBe(viaFlag.out());
    expect(viaHelp.out()).toContain('--out <dir>');
    expect(viaHelp.out()).toContain('Examples:');
    const top = memoryIo();
    expect(await runCli(['help'], top)).toBe(0);
    expect(top.out()).toContain('validate');
    expect(top.out()).toContain('sandbox');
    const unknown = memoryIo();
    expect(await runCli(['help', 'nope'], unknown)).toBe(2);
    expect(unknown.err()).toContain("unknown command 'nope'");
  });

  it('flags lone surrogates in the text it is handed (segments and explain, not only with --json)', async () => {
    const segments = memoryIo();
    expect(await runCli(['segments', 'ok \ud83d then'], segments)).toBe(0);
    expect(segments.out()).toContain('\nLone surrogates  1 at 3: half of a surrogate pair, no character; no request can carry the text, fix it first\n');
    const explained = memoryIo();
    expect(await runCli(['explain', 'a\udc00b\ud800'], explained)).toBe(0);
    expect(explained.out()).toContain('\nLone surrogates  2 at 1, 3: halves of surrogate pairs, no characters; no request can carry the text, fix it first\n');
    const json = memoryIo();
    expect(await runCli(['segments', 'ok \ud83d', '--json'], json)).toBe(0);
    expect((JSON.parse(json.out()) as { estimate: { loneSurrogates: number[] } }).estimate.loneSurrogates).toEqual([3]);
  });
});

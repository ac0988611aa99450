import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { apiSettings, credentialWarnings, redactUserinfo } from './api-settings.js';
import { ARGV_PASSWORD_WARNING, readPassword } from './password-source.js';

const dir = mkdtempSync(join(tmpdir(), 'smsv4-password-'));
const io = (stdin = ''): CliIo => ({
  stdout: { write: () => undefined },
  stderr: { write: () => undefined },
  readStdin: async () => new TextEncoder().encode(stdin),
  env: {},
  cwd: dir,
  waitForStop: () => new Promise(() => undefined),
});

describe('readPassword', () => {
  it('reads one line of standard input with --password-stdin', async () => {
    expect(await readPassword({ passwordStdin: true }, io('s3cret\n'))).toEqual({ password: 's3cret', warnings: [] });
    expect(await readPassword({ passwordStdin: true }, io('with spaces \r\n'))).toEqual({ password: 'with spaces ', warnings: [] });
    await expect(readPassword({ passwordStdin: true }, io(''))).rejects.toThrow(/standard input was empty/);
    await expect(readPassword({ passwordStdin: true }, io('x'), { stdinTaken: true })).rejects.toThrow(/already carries the command's input/);
  });

  it('reads the first line of a file with --password-file, naming the file but never its content on failure', async () => {
    writeFileSync(join(dir, 'pw'), 'from-a-file\n');
    writeFileSync(join(dir, 'empty'), '');
    expect(await readPassword({ passwordFile: 'pw' }, io())).toEqual({ password: 'from-a-file', warnings: [] });
    await expect(readPassword({ passwordFile: 'empty' }, io())).rejects.toThrow(/empty is empty/);
    await expect(readPassword({ passwordFile: 'missing' }, io())).rejects.toThrow(/cannot read missing \(ENOENT\)/);
  });

  it('takes --password on the command line with a warning that ps shows it', async () => {
    expect(await readPassword({ password: 'argv' }, io())).toEqual({ password: 'argv', warnings: [ARGV_PASSWORD_WARNING] });
    expect(ARGV_PASSWORD_WARNING).toMatch(/visible to other users.*ps.*SMSV4_PASSWORD.*--password-file.*--password-stdin/);
  });

  it('refuses two sources at once, and leaves the environment to decide without any', async () => {
    await expect(readPassword({ password: 'a', passwordStdin: true }, io('b'))).rejects.toThrow(/give the password one way/);
    expect(await readPassword({}, io())).toEqual({ warnings: [] });
  });
});

describe('base URLs with credentials', () => {
  it('never shows a URL\'s userinfo in an error', () => {
    for (const baseUrl of ['https://acme:hunter2@smsc.example.com', 'ftp://acme:hunter2@x', 'nope://acme:hunter2@ bad']) {
      let message = '';
      try {
        apiSettings({ baseUrl, accountId: 'a', password: 'b' }, {});
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('acme:');
    }
    expect(redactUserinfo('see https://u:p@h/x and http://v@w')).toBe('see https://***@h/x and http://***@w');
  });
});

describe('credentialWarnings', () => {
  it('warns before credentials go over plain HTTP to another machine, not to loopback nor over HTTPS', () => {
    const settings = (baseUrl: string) => apiSettings({ baseUrl, accountId: 'a', password: 'b' }, {});
    expect(credentialWarnings(settings('http://smsc.example.com'))).toEqual(['the credentials go to http://smsc.example.com over plain HTTP, readable by anyone on the way: use https']);
    expect(credentialWarnings(settings('http://10.0.0.5:8080'))).toHaveLength(1);
    expect(credentialWarnings(settings('https://smsc.example.com'))).toEqual([]);
    expect(credentialWarnings(settings('http://127.0.0.1:4010'))).toEqual([]);
    expect(credentialWarnings(settings('http://127.1.2.3:4010'))).toEqual([]);
    expect(credentialWarnings(settings('http://localhost:4010'))).toEqual([]);
    expect(credentialWarnings(settings('http://[::1]:4010'))).toEqual([]);
  });
});

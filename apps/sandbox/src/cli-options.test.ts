import { describe, expect, it } from 'vitest';
import { parseAppOptions, USAGE } from './cli-options.js';

describe('parseAppOptions', () => {
  it('defaults to 127.0.0.1:4010 in real time', () => {
    expect(parseAppOptions([], {})).toEqual({ ok: true, value: { port: 4010, host: '127.0.0.1', timeScale: 1, help: false } });
  });

  it('reads every flag', () => {
    const argv = ['--port', '0', '--host', '0.0.0.0', '--accounts', 'a.json', '--operators=o.json', '--time-scale', '3600', '--admin-token', 's3cret', '--callback-offset=-05:00'];
    expect(parseAppOptions(argv, {})).toEqual({
      ok: true,
      value: { port: 0, host: '0.0.0.0', timeScale: 3600, help: false, accountsFile: 'a.json', operatorsFile: 'o.json', adminToken: 's3cret', callbackOffset: '-05:00' },
    });
  });

  it('reads the environment, and a flag wins over its variable', () => {
    const env = {
      SMSV4_PORT: '5000',
      SMSV4_HOST: '::1',
      SMSV4_ACCOUNTS: 'env-a.json',
      SMSV4_OPERATORS: 'env-o.json',
      SMSV4_TIME_SCALE: '60',
      SMSV4_ADMIN_TOKEN: 't',
      SMSV4_CALLBACK_OFFSET: '+05:30',
    };
    expect(parseAppOptions([], env)).toEqual({
      ok: true,
      value: { port: 5000, host: '::1', timeScale: 60, help: false, accountsFile: 'env-a.json', operatorsFile: 'env-o.json', adminToken: 't', callbackOffset: '+05:30' },
    });
    const flags = parseAppOptions(['--port', '6000', '--time-scale', '0.5'], env);
    expect(flags.ok && [flags.value.port, flags.value.timeScale, flags.value.host]).toEqual([6000, 0.5, '::1']);
  });

  it('ignores empty environment variables', () => {
    expect(parseAppOptions([], { SMSV4_PORT: '', SMSV4_ACCOUNTS: '' })).toEqual({ ok: true, value: { port: 4010, host: '127.0.0.1', timeScale: 1, help: false } });
  });

  it('recognises --help and -h', () => {
    expect(parseAppOptions(['--help'], {})).toMatchObject({ ok: true, value: { help: true } });
    expect(parseAppOptions(['-h'], {})).toMatchObject({ ok: true, value: { help: true } });
    for (const flag of ['--port', '--host', '--accounts', '--operators', '--time-scale', '--admin-token', '--callback-offset']) expect(USAGE).toContain(flag);
  });

  it('names the flag or variable at fault', () => {
    expect(parseAppOptions(['--port', '70000'], {})).toEqual({ ok: false, error: '--port must be a port number from 0 to 65535, not "70000"' });
    expect(parseAppOptions(['--port', 'http'], {})).toEqual({ ok: false, error: '--port must be a port number from 0 to 65535, not "http"' });
    expect(parseAppOptions([], { SMSV4_PORT: '-1' })).toEqual({ ok: false, error: 'SMSV4_PORT must be a port number from 0 to 65535, not "-1"' });
    expect(parseAppOptions(['--time-scale', '0'], {})).toEqual({ ok: false, error: '--time-scale must be a positive number, not "0"' });
    expect(parseAppOptions([], { SMSV4_TIME_SCALE: 'fast' })).toEqual({ ok: false, error: 'SMSV4_TIME_SCALE must be a positive number, not "fast"' });
    expect(parseAppOptions(['--host', ' '], {})).toEqual({ ok: false, error: '--host must not be empty' });
    expect(parseAppOptions(['--callback-offset', '+15:00'], {})).toEqual({
      ok: false,
      error: '--callback-offset must be Z or an offset ±hh:mm up to ±14:00, not "+15:00" (offset +15:00 is beyond ±14:00)',
    });
    expect(parseAppOptions([], { SMSV4_CALLBACK_OFFSET: '-5' })).toEqual({
      ok: false,
      error: 'SMSV4_CALLBACK_OFFSET must be Z or an offset ±hh:mm up to ±14:00, not "-5" (expected a time zone Z or ±hh:mm)',
    });
  });

  it('refuses unknown flags, positionals and missing values', () => {
    const unknown = parseAppOptions(['--prot', '1'], {});
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.error).toMatch(/--prot/);
    const positional = parseAppOptions(['serve'], {});
    expect(!positional.ok && positional.error).toMatch(/serve/);
    const missing = parseAppOptions(['--port'], {});
    expect(!missing.ok && missing.error).toMatch(/--port/);
  });

  it('reads the admin token from a file, turns it off with --no-admin-token, and lists hosts', () => {
    expect(parseAppOptions(['--admin-token-file', 't.txt'], {})).toMatchObject({ ok: true, value: { adminTokenFile: 't.txt' } });
    expect(parseAppOptions([], { SMSV4_ADMIN_TOKEN_FILE: 'env.txt' })).toMatchObject({ ok: true, value: { adminTokenFile: 'env.txt' } });
    expect(parseAppOptions(['--no-admin-token'], {})).toMatchObject({ ok: true, value: { noAdminToken: true } });
    expect(parseAppOptions(['--no-admin-token', '--admin-token', 'x'], {})).toEqual({ ok: false, error: '--no-admin-token contradicts --admin-token' });
    expect(parseAppOptions(['--admin-token-file', 'f'], { SMSV4_ADMIN_TOKEN: 'x' })).toEqual({ ok: false, error: 'SMSV4_ADMIN_TOKEN and --admin-token-file both give the admin token: keep one' });
    expect(parseAppOptions(['--allowed-host', 'sandbox', '--allowed-host', '.dev.test', '--callback-host', 'receiver:3000'], {})).toMatchObject({
      ok: true,
      value: { allowedHosts: ['sandbox', '.dev.test'], callbackHosts: ['receiver:3000'] },
    });
    expect(parseAppOptions([], { SMSV4_ALLOWED_HOSTS: 'a, b', SMSV4_CALLBACK_HOSTS: 'any' })).toMatchObject({ ok: true, value: { allowedHosts: ['a', 'b'], callbackHosts: 'any' } });
  });
});

// The test command's set-up step: with the tools on the PATH it passes; without them it stops with
// one message naming each missing tool and the command that installs it; as root with apt-get it
// installs them first.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = new URL('../prerequisites.mjs', import.meta.url).pathname;
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding fake executables, each a shell script. */
function binFolder(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'smsv4-prereq-'));
  folders.push(dir);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** Runs the step with exactly this PATH (plus the folder of node itself, so that node runs). */
function run(path: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { PATH: path, HOME: tmpdir(), ...env },
    timeout: 30_000,
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const isRoot = process.getuid?.() === 0;

describe('the set-up step of the test command', () => {
  it('passes when Redis, Chromium and OpenSSL are on the PATH', () => {
    const bin = binFolder({ 'redis-server': 'exit 0', 'redis-cli': 'exit 0', chromium: 'exit 0', openssl: 'exit 0' });
    const r = run(bin);
    expect(r.status).toBe(0);
    expect(r.out).toBe('prerequisites: redis-server, redis-cli, chromium, openssl found\n');
  });

  it('stops before any test with one message naming each missing tool and how to install it', () => {
    const bin = binFolder({ openssl: 'exit 0' });
    const r = run(bin, { SMSV4_NO_INSTALL: '1' });
    expect(r.status).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      [
        'The tests need redis-server, redis-cli, chromium, not found on the PATH (used by the Redis stores, the send queue; the Redis Cluster tests; the browser tests).',
        'Install them, then run the test command again:',
        '  Debian, Ubuntu: sudo apt-get install -y redis-server chromium',
        '  macOS:          brew install redis && brew install --cask chromium (then SMSV4_CHROMIUM=/Applications/Chromium.app/Contents/MacOS/Chromium)',
        '  A browser elsewhere: set SMSV4_CHROMIUM to its path.',
        '',
      ].join('\n'),
    );
  });

  it('names a single missing tool alone', () => {
    const bin = binFolder({ 'redis-server': 'exit 0', 'redis-cli': 'exit 0', chromium: 'exit 0' });
    const r = run(bin, { SMSV4_NO_INSTALL: '1' });
    expect(r.status).toBe(1);
    expect(r.err.split('\n').slice(0, 3)).toEqual([
      'The tests need openssl, not found on the PATH (used by the mutual-TLS certificates).',
      'Install it, then run the test command again:',
      '  Debian, Ubuntu: sudo apt-get install -y openssl',
    ]);
  });

  it('takes the browser from SMSV4_CHROMIUM, and names the variable when that path is not a program', () => {
    const bin = binFolder({ 'redis-server': 'exit 0', 'redis-cli': 'exit 0', openssl: 'exit 0', 'my-browser': 'exit 0' });
    expect(run(bin, { SMSV4_CHROMIUM: join(bin, 'my-browser') }).status).toBe(0);
    const r = run(bin, { SMSV4_CHROMIUM: join(bin, 'no-such-browser'), SMSV4_NO_INSTALL: '1' });
    expect(r.status).toBe(1);
    expect(r.err).toContain('The tests need chromium');
    expect(r.err).toContain('set SMSV4_CHROMIUM to its path');
  });

  it.runIf(isRoot)('as root with apt-get, installs the missing packages and then passes', () => {
    const log = join(binFolder({}), 'apt-get.log');
    const bin = binFolder({});
    // A stand-in apt-get: records its arguments and "installs" the tools into the same folder.
    writeFileSync(
      join(bin, 'apt-get'),
      `#!/bin/sh\necho "$@" >> ${log}\nif [ "$1" = install ]; then for t in redis-server redis-cli chromium; do printf '#!/bin/sh\\nexit 0\\n' > ${bin}/$t; /bin/chmod +x ${bin}/$t; done; fi\nexit 0\n`,
    );
    chmodSync(join(bin, 'apt-get'), 0o755);
    writeFileSync(join(bin, 'openssl'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'openssl'), 0o755);
    const r = run(bin);
    expect(r.status).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('update -qq\ninstall -y -qq redis-server chromium\n');
    expect(r.out).toBe('prerequisites: installing redis-server chromium with apt-get\nprerequisites: redis-server, redis-cli, chromium, openssl found\n');
  });

  it('as root with apt-get that fails, still stops with the message', () => {
    const bin = binFolder({ 'apt-get': 'exit 100', openssl: 'exit 0' });
    const r = run(bin);
    expect(r.status).toBe(1);
    expect(r.err).toContain('The tests need redis-server, redis-cli, chromium');
    if (isRoot) expect(r.err).toContain('prerequisites: apt-get update failed');
  });

});

// `smsv4 sandbox` end to end: flags, environment, files, a port in use, and a clean stop.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './fixtures.js';
import { decodeMobileOriginate, parseTimestamp } from '@smsv4/core';
import { smsv4, startReceiver, startSandbox } from './helpers.js';

describe('smsv4 sandbox', () => {
  it('listens on the port SMSV4_PORT names, with the accounts of --accounts, and stops on SIGINT', async () => {
    const sandbox = await startSandbox(['--accounts', cliFixture('sandbox/accounts.json'), '--time-scale', '3600'], { SMSV4_PORT: '0' });
    try {
      expect(sandbox.output()).toContain('acme : acme-secret');
      expect(sandbox.output()).toContain('ACME test account');
      expect(sandbox.output()).toContain('×3600');
      expect(sandbox.output()).toContain(`smsv4 send --base-url ${sandbox.url}`);
      const wrong = await smsv4(['lookup', '14155550100', '--base-url', sandbox.url]);
      expect(wrong.code).toBe(1); // the default sandbox account is not in this accounts file
      const right = await smsv4(['lookup', '14155550100', '--base-url', sandbox.url, '--account-id', 'acme', '--password', 'acme-secret']);
      expect(right.code, right.stderr).toBe(0);
      const page = await fetch(`${sandbox.url}/__sandbox/`);
      expect(page.status).toBe(200);
    } finally {
      const { code, output } = await sandbox.stop('SIGINT');
      expect(code).toBe(0);
      expect(output).toContain('SIGINT received');
    }
  });

  it('--log writes a JSON line per answer to standard output, without credentials, numbers or content', async () => {
    const sandbox = await startSandbox(['--port', '0', '--log']);
    try {
      const sent = await smsv4(['send', '--to', '14155550188', '--text', 'secret 4711', '--base-url', sandbox.url, '--json']);
      expect(sent.code, sent.stderr).toBe(0);
      const { ticketId } = JSON.parse(sent.stdout) as { ticketId: string };
      const logged = sandbox
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      const line = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.operation === 'send');
      expect(line).toMatchObject({ level: 'info', msg: 'send answered 202', status: 202, ticketId });
      // The banner lists the accounts; the log lines carry none of them, nor the number or the text.
      for (const secret of ['14155550188', 'secret 4711', 'sandbox-password']) expect(logged.join('\n')).not.toContain(secret);
    } finally {
      await sandbox.stop();
    }
  });

  it('requires the admin token it is given (a flag, or the first line of a file) or makes one, and --no-admin-token opens it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'smsv4-token-'));
    writeFileSync(join(directory, 'token'), 'from-a-file\n');
    const given = await startSandbox(['--port', '0', '--admin-token', 's3cret']);
    const fromFile = await startSandbox(['--port', '0'], { SMSV4_ADMIN_TOKEN_FILE: join(directory, 'token') });
    const made = await startSandbox(['--port', '0']);
    const open = await startSandbox(['--port', '0', '--no-admin-token']);
    try {
      expect(given.output()).toContain('/__sandbox/#token=s3cret');
      expect((await fetch(`${given.url}/__sandbox/api/state`)).status).toBe(401);
      expect((await fetch(`${given.url}/__sandbox/api/state`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
      expect((await fetch(`${fromFile.url}/__sandbox/api/state`, { headers: { authorization: 'Bearer from-a-file' } })).status).toBe(200);
      expect(made.output()).toMatch(/Admin API +Authorization: Bearer [A-Za-z0-9_-]{32}\n/);
      expect((await fetch(`${made.url}/__sandbox/api/state`)).status).toBe(401);
      expect((await fetch(`${made.url}/__sandbox/api/state`, { headers: made.admin() })).status).toBe(200);
      expect(open.output()).toContain('Admin API   open (no token)');
      expect((await fetch(`${open.url}/__sandbox/api/state`)).status).toBe(200);
    } finally {
      await Promise.all([given.stop(), fromFile.stop(), made.stop(), open.stop()]);
    }
  });

  it('dates callbacks at the offset of --callback-offset', async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox(['--port', '0', '--callback-offset', '-05:00']);
    try {
      expect(sandbox.output()).toMatch(/Callbacks\s+timestamps at -05:00/);
      expect(await (await fetch(`${sandbox.url}/__sandbox/api/settings`, { headers: sandbox.admin() })).json()).toStrictEqual({ callbackTimestampOffset: '-05:00' });
      const injected = await fetch(`${sandbox.url}/__sandbox/api/inbound`, {
        method: 'POST',
        headers: sandbox.admin(),
        body: JSON.stringify({ from: '447700900123', to: '12345', text: 'hello', url: receiver.url }),
      });
      expect(injected.status).toBe(202);
      const [request] = await receiver.waitFor(1);
      const message = decodeMobileOriginate(request?.body ?? '', 'xml');
      const date = message.ok ? (message.value.submittedDate ?? '') : '';
      expect(date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-05:00$/);
      expect(parseTimestamp(date)).toMatchObject({ ok: true, value: { offsetMinutes: -300 } });
    } finally {
      await sandbox.stop();
      await receiver.close();
    }
  });

  it('refuses bad flags and files with exit status 2, naming them', async () => {
    const port = await smsv4(['sandbox', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a port number from 0 to 65535');
    const scale = await smsv4(['sandbox', '--port', '0'], { env: { SMSV4_TIME_SCALE: '-1' } });
    expect(scale.code).toBe(2);
    expect(scale.stderr).toContain('SMSV4_TIME_SCALE must be a positive number');
    const accounts = await smsv4(['sandbox', '--port', '0', '--accounts', cliFixture('sandbox/accounts-invalid.json')]);
    expect(accounts.code).toBe(2);
    expect(accounts.stderr).toContain('accounts-invalid.json is not valid');
    const offset = await smsv4(['sandbox', '--port', '0', '--callback-offset', '+15:00']);
    expect(offset.code).toBe(2);
    expect(offset.stderr).toContain('--callback-offset must be Z or an offset ±hh:mm up to ±14:00, not "+15:00" (offset +15:00 is beyond ±14:00)');
    const offsetEnv = await smsv4(['sandbox', '--port', '0'], { env: { SMSV4_CALLBACK_OFFSET: 'EST' } });
    expect(offsetEnv.code).toBe(2);
    expect(offsetEnv.stderr).toContain('SMSV4_CALLBACK_OFFSET must be Z or an offset ±hh:mm up to ±14:00, not "EST"');
    const missing = await smsv4(['sandbox', '--port', '0', '--operators', cliFixture('sandbox/none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the operators file');
  });

  it('exits with status 1 when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as AddressInfo;
      const run = await smsv4(['sandbox', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

// `smsv4 sandbox` end to end: flags, environment, files, a port in use, and a clean stop.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './fixtures.js';
import { smsv4, startSandbox } from './helpers.js';

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

  it('requires the admin token it is given on the admin API', async () => {
    const sandbox = await startSandbox(['--port', '0', '--admin-token', 's3cret']);
    try {
      expect(sandbox.output()).toContain('/__sandbox/#token=s3cret');
      expect((await fetch(`${sandbox.url}/__sandbox/api/state`)).status).toBe(401);
      expect((await fetch(`${sandbox.url}/__sandbox/api/state`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    } finally {
      await sandbox.stop();
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

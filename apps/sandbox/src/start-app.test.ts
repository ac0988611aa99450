import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTS } from '@smsv4/sandbox';
import { formatBanner } from './banner.js';
import { openAdminWarning, startSandboxApp, type RunningApp } from './start-app.js';

describe('startSandboxApp', () => {
  let app: RunningApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('makes an admin token by default, prints it and puts it in the dashboard link', async () => {
    app = await startSandboxApp({ port: 0, host: '127.0.0.1', timeScale: 1 });
    const token = app.sandbox.adminToken ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(app.banner).toContain(`Admin API   Authorization: Bearer ${token}`);
    expect(app.dashboardUrl).toBe(`${app.apiUrl}/__sandbox/#token=${token}`);
    expect((await fetch(`${app.apiUrl}/__sandbox/api/state`)).status).toBe(401);
    expect((await fetch(`${app.apiUrl}/__sandbox/api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('takes the token of a file, and warns when --no-admin-token leaves the admin API open off loopback', async () => {
    app = await startSandboxApp({ port: 0, host: '127.0.0.1', timeScale: 1 }, { adminToken: 'from-file' });
    expect(app.sandbox.adminToken).toBe('from-file');
    await app.close();
    app = await startSandboxApp({ port: 0, host: '127.0.0.1', timeScale: 1, noAdminToken: true });
    expect(app.sandbox.adminToken).toBeUndefined();
    expect(app.banner).toContain('Admin API   open (no token)');
    expect(app.banner).not.toContain('WARNING');
    expect((await fetch(`${app.apiUrl}/__sandbox/api/state`)).status).toBe(200);
  });

  it('warns in the banner when the admin API is open off loopback', () => {
    expect(openAdminWarning('http://0.0.0.0:4010', undefined)).toEqual({ warning: 'the admin API and dashboard are open to anyone who reaches http://0.0.0.0:4010 (--no-admin-token off loopback)' });
    expect(openAdminWarning('http://192.0.2.5:4010', undefined)?.warning).toMatch(/^the admin API and dashboard are open/);
    for (const url of ['http://127.0.0.1:4010', 'http://[::1]:4010', 'http://localhost:4010']) expect(openAdminWarning(url, undefined), url).toBeUndefined();
    expect(openAdminWarning('http://0.0.0.0:4010', 'token')).toBeUndefined();
    expect(formatBanner({ apiUrl: 'http://127.0.0.1:4010', dashboardUrl: 'http://127.0.0.1:4010/__sandbox/', accounts: DEFAULT_ACCOUNTS, timeScale: 1, warning: 'open' })).toMatch(/^smsv4 sandbox is running\n\nWARNING: open\n/);
  });
});

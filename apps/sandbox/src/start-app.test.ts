import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxApp, type RunningApp } from './start-app.js';

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
    await app.close();
    app = await startSandboxApp({ port: 0, host: '0.0.0.0', timeScale: 1, noAdminToken: true });
    expect(app.banner).toMatch(/^WARNING: the admin API and dashboard are open to anyone who reaches http:\/\/0\.0\.0\.0:\d+/m);
  });
});

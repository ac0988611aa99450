import { describe, expect, it } from 'vitest';
import { openAdminWarning } from './server-defaults.js';

describe('openAdminWarning', () => {
  it('warns when the admin API is open on any address other than loopback', () => {
    for (const url of ['http://0.0.0.0:4010', 'http://[::]:4010', 'http://192.0.2.5:4010', 'http://sandbox.internal:4010', 'http://localhost.attacker.example:4010', 'http://127.example:4010']) {
      expect(openAdminWarning(url, undefined), url).toBe(`the admin API and dashboard are open to anyone who reaches ${url} (--no-admin-token off loopback)`);
    }
  });

  it('is silent on loopback, and whenever a token is set', () => {
    for (const url of ['http://127.0.0.1:4010', 'http://127.1.2.3:4010', 'http://[::1]:4010', 'http://localhost:4010', 'http://LOCALHOST:4010']) {
      expect(openAdminWarning(url, undefined), url).toBeUndefined();
    }
    expect(openAdminWarning('http://0.0.0.0:4010', 'token')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { apiSettings } from './api-settings.js';

describe('apiSettings', () => {
  it('defaults to the sandbox and its standard account', () => {
    expect(apiSettings({}, {})).toEqual({ baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password', timeoutMs: 30_000, sandboxCredentials: true });
  });

  it('takes flags over the environment, and empty variables as absent', () => {
    const env = { SMSV4_BASE_URL: 'https://smsc-cie.openmarket.com', SMSV4_ACCOUNT_ID: 'env-id', SMSV4_PASSWORD: 'env-pw' };
    expect(apiSettings({ accountId: 'flag-id' }, env)).toMatchObject({ baseUrl: 'https://smsc-cie.openmarket.com', accountId: 'flag-id', password: 'env-pw', sandboxCredentials: false });
    expect(apiSettings({ timeout: '500' }, { SMSV4_BASE_URL: '' })).toMatchObject({ baseUrl: 'http://127.0.0.1:4010', timeoutMs: 500 });
  });

  it('needs both credentials away from loopback, and a usable URL', () => {
    expect(() => apiSettings({ baseUrl: 'https://smsc.openmarket.com' }, {})).toThrow(/needs credentials: give --account-id/);
    expect(() => apiSettings({ accountId: 'a' }, {})).toThrow(/give the password \(SMSV4_PASSWORD, --password-file, --password-stdin or --password\)/);
    expect(() => apiSettings({ baseUrl: 'ftp://x' }, {})).toThrow(CliError);
    expect(() => apiSettings({ baseUrl: 'nope' }, {})).toThrow(/is not a URL/);
    expect(() => apiSettings({ timeout: '0' }, {})).toThrow(/--timeout must be a positive integer/);
  });
});

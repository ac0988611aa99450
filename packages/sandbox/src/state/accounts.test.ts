import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNTS, parseAccounts } from './accounts.js';

describe('parseAccounts', () => {
  it('takes a list or { accounts: [...] }, as text or a value', () => {
    expect(parseAccounts(JSON.stringify(DEFAULT_ACCOUNTS))).toEqual({ ok: true, value: DEFAULT_ACCOUNTS });
    expect(parseAccounts({ accounts: [{ accountId: 'a', password: 'b', demo: { expiresAt: '2025-01-01T00:00:00Z' } }] }).ok).toBe(true);
    expect(parseAccounts([{ accountId: 'a', password: 'b', callbackCredentials: { username: 'openmarket', password: 'change-me' } }]).ok).toBe(true);
  });

  it.each([
    ['not JSON', '[', 'not JSON'],
    ['an empty list', [], '/'],
    ['a colon in the ID', [{ accountId: 'a:b', password: 'x' }], '/0/accountId'],
    ['an unknown member', [{ accountId: 'a', password: 'x', role: 'admin' }], '/0'],
    ['a repeated ID', [{ accountId: 'a', password: 'x' }, { accountId: 'a', password: 'y' }], 'twice'],
    ['a colon in a callback user name', [{ accountId: 'a', password: 'x', callbackCredentials: { username: 'u:v', password: 'w' } }], '/0/callbackCredentials/username'],
    ['an empty callback password', [{ accountId: 'a', password: 'x', callbackCredentials: { username: 'u', password: '' } }], '/0/callbackCredentials/password'],
    ['a bad date', [{ accountId: 'a', password: 'x', kind: 'demo', demo: { expiresAt: '2025-13-45' } }], 'not a date'],
  ])('refuses %s', (_, input, mentions) => {
    const result = parseAccounts(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.description).toContain(mentions);
  });
});

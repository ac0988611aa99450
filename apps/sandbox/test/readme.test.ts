// The README's example files are files the app takes: the accounts file and the operators file
// parse as the app parses them at start.
import { readFileSync } from 'node:fs';
import { parseAccounts, parseOperatorTable } from '@smsv4/sandbox';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = (heading: string): string => {
  const start = readme.indexOf(`## ${heading}`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const block = /```json\n([\s\S]*?)\n```/.exec(readme.slice(start));
  expect(block, `a JSON block under ${heading}`).not.toBeNull();
  return block![1]!;
};

describe('README example files', () => {
  it('the accounts file parses, callback credentials included', () => {
    const accounts = parseAccounts(section('Accounts file'));
    expect(accounts.ok && accounts.value.find((a) => a.accountId === 'acme')?.callbackCredentials).toEqual({ username: 'openmarket', password: 'change-me' });
  });

  it('the operators file parses', () => {
    const operators = parseOperatorTable(JSON.parse(section('Operators file')) as never);
    expect(operators.ok).toBe(true);
  });
});

// The sandbox guide's example files are files the sandbox takes: the accounts file and the
// operators file parse as `smsv4 sandbox --accounts` and `--operators` parse them at start.
import { readFileSync } from 'node:fs';
import { parseAccounts, parseOperatorTable } from '@smsv4/sandbox';
import { describe, expect, it } from 'vitest';

const guide = readFileSync(new URL('../guide/sandbox.md', import.meta.url), 'utf8');

/** The first JSON block of the guide's section `heading`. */
const jsonBlock = (heading: string): string => {
  const start = guide.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const section = guide.slice(start + 1).split(/\n## /)[0] ?? '';
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  expect(block, `a JSON block under ${heading}`).not.toBeNull();
  return block![1]!;
};

describe('the sandbox guide: example files', () => {
  it('the accounts file parses, callback credentials included', () => {
    const accounts = parseAccounts(jsonBlock('Default accounts'));
    expect(accounts.ok && accounts.value.find((a) => a.accountId === 'acme')?.callbackCredentials).toEqual({ username: 'openmarket', password: 'change-me' });
  });

  it('the operators file parses', () => {
    const operators = parseOperatorTable(jsonBlock('Operator table (sample data)'));
    expect(operators.ok).toBe(true);
  });
});

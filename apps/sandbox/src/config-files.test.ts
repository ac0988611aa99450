import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_OPERATORS } from '@smsv4/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFileSettings } from './config-files.js';

describe('loadFileSettings', () => {
  let dir = '';
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsv4-app-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads nothing when no file is given', async () => {
    expect(await loadFileSettings({})).toEqual({ ok: true, value: {} });
  });

  it('reads accounts as an array or under "accounts"', async () => {
    const accounts = [{ accountId: 'acme', password: 'pw', invokeService: true }];
    expect(await loadFileSettings({ accountsFile: await file('a.json', JSON.stringify(accounts)) })).toEqual({ ok: true, value: { accounts } });
    expect(await loadFileSettings({ accountsFile: await file('b.json', JSON.stringify({ accounts })) })).toEqual({ ok: true, value: { accounts } });
  });

  it('reads and checks an operator table', async () => {
    const path = await file('ops.json', JSON.stringify(SAMPLE_OPERATORS));
    expect(await loadFileSettings({ operatorsFile: path })).toEqual({ ok: true, value: { operators: SAMPLE_OPERATORS } });
    const bad = await file('bad-ops.json', JSON.stringify({ operators: [{ mobileOperatorId: 1 }] }));
    const result = await loadFileSettings({ operatorsFile: bad });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^the operators file .*bad-ops\.json is not a valid operator table: \/operators\/0/);
  });

  it('explains unreadable, non-JSON and wrongly shaped files', async () => {
    const missing = await loadFileSettings({ accountsFile: join(dir, 'nope.json') });
    expect(!missing.ok && missing.error).toMatch(/^cannot read the accounts file .*nope\.json: ENOENT/);
    const notJson = await loadFileSettings({ operatorsFile: await file('x.json', '{ operators: ') });
    expect(!notJson.ok && notJson.error).toMatch(/^the operators file .*x\.json is not JSON/);
    const empty = await loadFileSettings({ accountsFile: await file('e.json', '[]') });
    expect(!empty.ok && empty.error).toMatch(/must hold a non-empty array of accounts/);
    const strings = await loadFileSettings({ accountsFile: await file('s.json', '["acme:pw"]') });
    expect(!strings.ok && strings.error).toMatch(/must list objects/);
  });

  it('reads the admin token from the first line of its file, and refuses an empty or missing one', async () => {
    const path = await file('token', 'from-a-file\nignored\n');
    expect(await loadFileSettings({ adminTokenFile: path })).toEqual({ ok: true, value: { adminToken: 'from-a-file' } });
    const empty = await file('empty-token', '\n');
    expect(await loadFileSettings({ adminTokenFile: empty })).toEqual({ ok: false, error: `the admin token file ${empty} is empty` });
    const missing = await loadFileSettings({ adminTokenFile: join(dir, 'nowhere') });
    expect(!missing.ok && missing.error).toMatch(/^cannot read the admin token file /);
  });
});

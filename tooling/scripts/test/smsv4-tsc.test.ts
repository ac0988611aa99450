// smsv4-tsc, the workspace's type check (TypeScript 7): it reports what tsc reports with tsc's exit
// status, and a check that outlives its bound is stopped with exit 1 and a message naming the bound.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const command = new URL('../../tsconfig/tsc.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'smsv4-tsc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const check = (source: string, env: Record<string, string> = {}) => {
  writeFileSync(join(dir, 'index.ts'), source);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ['index.ts'] }));
  return spawnSync(process.execPath, [command, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
};

it('passes what type-checks, and fails with the error tsc names', () => {
  expect(check('export const n: number = 1;\n').status).toBe(0);
  const failed = check('export const n: number = "one";\n');
  expect(failed.status).toBe(1);
  expect(failed.stdout).toMatch(/index\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\./);
});

it('is TypeScript 7', () => {
  const r = spawnSync(process.execPath, [command, '--version'], { encoding: 'utf8', timeout: 60_000 });
  expect(r.stdout).toMatch(/^Version 7\./);
});

it('stops a check that outlives SMSV4_TSC_TIMEOUT_MS: exit 1, the bound named', () => {
  const r = check('export const n: number = 1;\n', { SMSV4_TSC_TIMEOUT_MS: '1' });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe('smsv4-tsc: the type check did not end within 1 ms and was stopped\n');
});

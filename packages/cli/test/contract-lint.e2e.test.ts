// The OpenAPI document as the linters teams run in CI see it: Spectral (spectral:oas) and Redocly
// (recommended), both from this package's devDependencies with the rulesets kept beside it, no
// network needed. Zero errors and zero warnings. Slow (two CLIs start): a file of its own.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/index.js';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string): string => join(PACKAGE, 'node_modules', '.bin', name);
// Offline and quiet: no telemetry, no update check.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

let file = '';
beforeAll(() => {
  file = join(mkdtempSync(join(tmpdir(), 'smsv4-lint-')), 'smsv4.openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
});

/** Runs a CLI; a non-zero exit is an answer here, not an exception. */
async function lint(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: PACKAGE, env, maxBuffer: 32 * 1024 * 1024, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('the OpenAPI document under the linters', () => {
  it('passes Spectral (spectral:oas) with no error and no warning', async () => {
    const output = `${file}.spectral.json`;
    const result = await lint(bin('spectral'), ['lint', '--ruleset', join(PACKAGE, '.spectral.yaml'), '--format', 'json', '--output', output, '--fail-severity', 'hint', file]);
    const problems = JSON.parse(readFileSync(output, 'utf8')) as { code: string; message: string; path: string[] }[];
    expect(problems.map((p) => `${p.code} ${p.path.join('.')}: ${p.message}`)).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
  });

  it('passes Redocly (recommended) with no error and no warning', async () => {
    const result = await lint(bin('redocly'), ['lint', '--config', join(PACKAGE, 'redocly.yaml'), '--format', 'json', file]);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(result.code, result.stderr).toBe(0);
  });
});

/**
 * CommonJS consumers: a child process require()s the built package (dist/index.cjs, built with
 * tsup, which emits no decorator metadata), boots a module with a decorated handler and an
 * injected codec, sends to the sandbox and takes the receipt over loopback.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(root, 'test', 'support', 'cjs-consumer.cjs');
const preload = join(root, 'test', 'support', 'redirect-nest.cjs');
/** Set by the Nest 10 and Nest 12 runs (test-nest10/, test-nest12/) to the directory Nest is resolved from. */
const nestFrom = process.env.NEST_MODULES_FROM;

function run(): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-r', preload, script], { cwd: root, timeout: 20_000, env: { ...process.env, ...(nestFrom === undefined ? {} : { NEST_MODULES_FROM: nestFrom }) } }, (error, stdout, stderr) =>
      resolve({ stdout, stderr, code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1 }),
    );
  });
}

describe('a CommonJS application', () => {
  it('require()s the built package, boots a module, sends and takes the receipt', async () => {
    expect(existsSync(join(root, 'dist', 'index.cjs')), 'build the package first (turbo runs build before test)').toBe(true);
    const { stdout, stderr, code } = await run();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { ticketId: string; receipts: unknown[]; resolved: string; nestVersion: string };
    expect(result.resolved).toBe(join(root, 'dist', 'index.cjs'));
    expect(result.receipts).toEqual([{ ticketId: result.ticketId, code: 4, segments: 1 }]);
    expect(result.nestVersion.split('.')[0]).toBe(process.env.EXPECTED_NEST_MAJOR ?? '11');
  });
});

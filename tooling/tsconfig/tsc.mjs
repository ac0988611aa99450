#!/usr/bin/env node
// `smsv4-tsc`: the workspace's type check, with TypeScript 7 (the native compiler; about a sixth of
// the processor time of TypeScript 5 on these packages). Takes tsc's arguments and exits with its
// status. Builds also emit their declarations with it (tooling/scripts/declarations.mjs, without
// checking them: this check does), and the release check type-checks what users install with
// TypeScript 5.9.
//
// Bounded: a check still running after SMSV4_TSC_TIMEOUT_MS (default 10 minutes) is killed, and
// the command exits 1 saying so.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const DEFAULT_TIMEOUT_MS = 600_000;

const require = createRequire(import.meta.url);
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const timeout = Number(process.env.SMSV4_TSC_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
const result = spawnSync(process.execPath, [tsc, ...process.argv.slice(2)], { stdio: 'inherit', timeout, killSignal: 'SIGKILL' });
if (result.error?.code === 'ETIMEDOUT') {
  console.error(`smsv4-tsc: the type check did not end within ${timeout} ms and was stopped`);
  process.exitCode = 1;
} else if (result.error !== undefined) {
  console.error(`smsv4-tsc: ${result.error.message}`);
  process.exitCode = 1;
} else {
  process.exitCode = result.status ?? 1;
}

// Builds the binary when dist/cli.js is missing or older than a source file (turbo builds it before
// `test`; this keeps `vitest run` alone honest).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const binary = join(PACKAGE_DIR, 'dist', 'cli.js');
  if (existsSync(binary) && statSync(binary).mtimeMs >= newestSource(join(PACKAGE_DIR, 'src'))) return;
  const tsup = join(dirname(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('tsup/package.json')), 'dist', 'cli-default.js');
  execFileSync(process.execPath, [tsup], { cwd: PACKAGE_DIR, stdio: 'inherit' });
}

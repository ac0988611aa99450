// The bundle budgets of .size-limit.json, measured by size-limit on the built ESM output (esbuild,
// minified, gzipped) as a browser bundler would tree-shake it. Each budget is one test.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const budgets = JSON.parse(readFileSync(join(packageDir, '.size-limit.json'), 'utf8')) as { name: string; limit: string }[];

interface Measured {
  name: string;
  passed: boolean;
  size: number;
  sizeLimit: number;
}

describe('bundle budgets (size-limit)', () => {
  let measured: Measured[] = [];

  beforeAll(() => {
    if (!existsSync(join(packageDir, 'dist/index.js'))) throw new Error('build @smsv4/core first (its test task depends on its build)');
    const bin = join(dirname(createRequire(import.meta.url).resolve('size-limit/package.json')), 'bin.js');
    const run = spawnSync(process.execPath, [bin, '--json'], { cwd: packageDir, encoding: 'utf8', timeout: 60_000 });
    if (run.error) throw run.error;
    measured = JSON.parse(run.stdout) as Measured[];
  });

  it.each(budgets.map((budget) => [budget.name, budget.limit]))('%s fits in %s min+gzip', (name) => {
    const result = measured.find((m) => m.name === name);
    expect(result, `size-limit measured no "${name}"`).toBeDefined();
    const { size, sizeLimit, passed } = result as Measured;
    console.log(`${name}: ${size} bytes min+gzip (budget ${sizeLimit})`);
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(sizeLimit);
    expect(passed).toBe(true);
  });
});

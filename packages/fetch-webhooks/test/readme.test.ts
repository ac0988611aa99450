// The README shows the recipes the runtime tests run, exactly.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const recipes = readdirSync(join(packageDir, 'test', 'recipes')).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && name !== 'store.ts');

describe('README recipes', () => {
  it('finds the five recipes', () => {
    expect(recipes.sort()).toEqual(['bun.ts', 'deno.ts', 'hono.ts', 'next-route.ts', 'worker.ts']);
  });

  it.each(recipes)('shows test/recipes/%s verbatim in a code block', (name) => {
    const code = readFileSync(join(packageDir, 'test', 'recipes', name), 'utf8').trimEnd();
    expect(readme).toContain('```ts\n' + code + '\n```');
  });
});

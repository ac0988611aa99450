// The guide of the documentation site shows the recipes the runtime tests run, exactly (and the
// README its quick start: the guide's runnable Hono receiver, with Basic auth).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const guide = readFileSync(join(packageDir, '..', '..', 'apps', 'docs', 'guide', 'receive-fetch.md'), 'utf8');
const recipes = readdirSync(join(packageDir, 'test', 'recipes')).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && name !== 'store.ts');

describe('recipes in the documentation', () => {
  it('finds the five recipes', () => {
    expect(recipes.sort()).toEqual(['bun.ts', 'deno.ts', 'hono.ts', 'next-route.ts', 'worker.ts']);
  });

  it.each(recipes)('the guide shows test/recipes/%s verbatim in a code block', (name) => {
    const code = readFileSync(join(packageDir, 'test', 'recipes', name), 'utf8').trimEnd();
    expect(guide).toContain('```ts\n' + code + '\n```');
  });

  it("the README's quick start is the guide's runnable Hono receiver and send, verbatim (run against the sandbox by the site's tests)", () => {
    const receiver = /```ts runnable server\n([\s\S]*?)\n```/.exec(guide)?.[1];
    const send = /```ts runnable\n([\s\S]*?)\n```/.exec(guide)?.[1];
    expect(receiver).toContain('basicAuth');
    expect(send).toContain('openmarket:change-me@');
    expect(readme).toContain('```ts\n' + receiver + '\n```');
    expect(readme).toContain('```ts\n' + send + '\n```');
  });
});

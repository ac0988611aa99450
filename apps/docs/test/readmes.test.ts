// Each package README is a front door: at most 250 lines, linking the site where the depth lives,
// and every guide it links exists. A receiver README's quick start is, word for word, the runnable
// blocks of its guide, which runnable-blocks.test.ts runs against the sandbox with Basic auth on:
// copied as written, it receives the sandbox's callbacks.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, DOCS_ROOT } from './code-blocks.js';

const PACKAGES = join(DOCS_ROOT, '..', '..', 'packages');
const readmes = readdirSync(PACKAGES)
  .map((name) => join(PACKAGES, name, 'README.md'))
  .filter((path) => existsSync(path));

describe('package READMEs', () => {
  it.each(readmes.map((path) => [path.slice(PACKAGES.length + 1)]))('%s: at most 250 lines, with its links to the site resolving', (name) => {
    const path = join(PACKAGES, name);
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(250);
    const links = [...text.matchAll(/\]\(((?:\.\.\/)+apps\/docs\/[^)#\s]*)(?:#[^)\s]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !existsSync(resolve(dirname(path), link)))).toEqual([]);
  });
});

describe('receiver READMEs', () => {
  const RECEIVERS = [
    ['express-webhooks', 'guide/receive-express.md'],
    ['fastify-webhooks', 'guide/receive-fastify.md'],
    ['fetch-webhooks', 'guide/receive-fetch.md'],
    ['nest-module', 'guide/receive-nest.md'],
  ] as const;
  it.each(RECEIVERS)("%s: the quick start is the guide's runnable blocks, with Basic auth on and the sandbox's URL carrying the credentials", (name, guide) => {
    const readme = readFileSync(join(PACKAGES, name, 'README.md'), 'utf8');
    const quickStart = [...readme.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!);
    const runnable = blocksOf(join(DOCS_ROOT, guide)).filter((b) => b.meta.includes('runnable'));
    expect(quickStart.length).toBeGreaterThan(0);
    for (const code of quickStart) expect(runnable.map((b) => b.code)).toContain(code);
    // The receiver checks Basic credentials, and the quick start's send gives the sandbox the same ones in the URL.
    const receivers = runnable.filter((b) => b.meta.includes('server') || b.code.includes('createSandbox'));
    expect(receivers.some((b) => /basicAuth: \{ username: 'openmarket', password: (?:process\.env\.CALLBACK_PASSWORD \?\? 'change-me'|callbackPassword) \}/.test(b.code))).toBe(true);
    expect(quickStart.some((code) => /openmarket:(?:change-me|\$\{encodeURIComponent\(callbackPassword\)\})@127\.0\.0\.1:3000\/sms\/callbacks/.test(code))).toBe(true);
  });
});

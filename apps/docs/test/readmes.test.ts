// Each README of a package or an app is a front door: at most 250 lines, linking the site where the
// depth lives, every page and section it links existing. The root README links the site and says
// how to open it locally, in one command the root package defines. A receiver README's quick start
// is, word for word, the runnable blocks of its guide, which runnable-blocks.test.ts runs against the
// sandbox with Basic auth on: copied as written, it receives the sandbox's callbacks.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, DOCS_ROOT, readmes, REPO_ROOT } from './code-blocks.js';
import { headingIds } from './headings.js';

const frontDoors = readmes().filter((path) => path !== join(REPO_ROOT, 'README.md') && path !== join(DOCS_ROOT, 'README.md'));

/** The links of a README into the site (`../../apps/docs/guide/x.md#y`) that do not resolve. */
function brokenSiteLinks(path: string, text: string): { links: number; broken: string[] } {
  const links = [...text.matchAll(/\]\(((?:\.\.\/)*apps\/docs\/[^)#\s]*)(?:#([^)\s]*))?\)/g)];
  const broken = links
    .filter(([, file, anchor]) => {
      const target = resolve(dirname(path), file!);
      // Generated pages (`reference/`, `api/`) are not in the repository: a README read on GitHub or
      // npm would link nothing.
      if (/^(reference|api)\//.test(relative(DOCS_ROOT, target))) return true;
      if (!existsSync(target)) return true;
      return anchor !== undefined && (!target.endsWith('.md') || !headingIds(target).has(anchor));
    })
    .map(([link]) => link);
  return { links: links.length, broken };
}

describe('READMEs', () => {
  it('every package and app has one', () => {
    expect(frontDoors.filter((p) => p.includes('/packages/')).length).toBeGreaterThanOrEqual(10);
    expect(frontDoors.filter((p) => p.includes('/apps/')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(frontDoors.map((path) => [relative(REPO_ROOT, path)]))('%s: at most 250 lines, with its links to the site resolving', (name) => {
    const path = join(REPO_ROOT, name);
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(250);
    const { links, broken } = brokenSiteLinks(path, text);
    expect(links).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it.each(frontDoors.filter((path) => path.includes('/packages/')).map((path) => [relative(REPO_ROOT, path)]))('%s: what it is, install, a quick start, then the guides and the API reference', (name) => {
    const text = readFileSync(join(REPO_ROOT, name), 'utf8');
    const [intro = ''] = text.split(/^## /m);
    expect(intro.replace(/^# .*$/m, '').trim().length, 'a paragraph saying what the package is').toBeGreaterThan(100);
    expect(text).toMatch(/^npm install (--save-dev )?\S+/m);
    expect(text).toMatch(/^```(ts|sh)$/m);
    const documentation = text.slice(text.indexOf('\n## Documentation\n'));
    expect(documentation.length, 'a Documentation section').toBeGreaterThan(20);
    expect(documentation).toMatch(/\]\((\.\.\/)+apps\/docs\/guide\//);
    expect(documentation).toContain('API reference');
  });

  it('the root README links the site and opens it locally with one command', () => {
    const path = join(REPO_ROOT, 'README.md');
    const text = readFileSync(path, 'utf8');
    const { links, broken } = brokenSiteLinks(path, text);
    expect(links).toBeGreaterThan(0);
    expect(broken).toEqual([]);
    expect(text).toContain('](apps/docs/getting-started.md)');
    const command = /npx -y pnpm@[\d.]+ run (\w+)\n/.exec(text.slice(text.indexOf('documentation site')));
    expect(command?.[1]).toBe('docs');
    // The command builds what the site reads, then serves it (VitePress's dev server).
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts.docs).toMatch(/turbo run build --filter=@smsv4\/docs\^\.\.\. && pnpm --filter @smsv4\/docs dev/);
    const docs = JSON.parse(readFileSync(join(DOCS_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(docs.scripts.dev).toMatch(/generate\.mjs && vitepress dev/);
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
    const readme = readFileSync(join(REPO_ROOT, 'packages', name, 'README.md'), 'utf8');
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

// Links to a section of a page (`#anchor`) land on a heading: VitePress checks that linked pages
// exist, not their sections.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ROOT, pages } from './code-blocks.js';
import { headingIds } from './headings.js';

describe('section links', () => {
  it('every #anchor of the written pages names a heading of its page', () => {
    const written = pages();
    const generated = ['errors', 'rules-540', 'telemetry', 'cli', 'wire-facts'].map((name) => join(DOCS_ROOT, 'reference', `${name}.md`));
    const ids = new Map([...written, ...generated].map((path) => [`/${relative(DOCS_ROOT, path).replace(/\.md$/, '')}`, headingIds(path)]));
    const broken: string[] = [];
    for (const path of written) {
      const self = `/${relative(DOCS_ROOT, path).replace(/\.md$/, '')}`;
      for (const match of readFileSync(path, 'utf8').matchAll(/\]\((\/[^)#\s]*)?#([^)\s]+)\)/g)) {
        const target = match[1] ?? self;
        if (target.startsWith('/api/')) continue; // TypeDoc's pages: checked by the API reference test
        if (!ids.get(target)?.has(match[2]!)) broken.push(`${relative(DOCS_ROOT, path)}: ${target}#${match[2]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('navigation', () => {
  it('every written page is reachable from the navigation bar or the sidebar', () => {
    const config = readFileSync(join(DOCS_ROOT, '.vitepress/config.ts'), 'utf8');
    const linked = new Set([...config.matchAll(/link: '(\/[^']*)'/g)].map((m) => m[1]!));
    const unlinked = pages()
      .map((path) => `/${relative(DOCS_ROOT, path).replace(/\.md$/, '')}`)
      .filter((page) => page !== '/index' && !linked.has(page));
    expect(unlinked).toEqual([]);
  });
});

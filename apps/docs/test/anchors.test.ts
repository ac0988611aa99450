// Links to a section of a page (`#anchor`) land on a heading: VitePress checks that linked pages
// exist, not their sections.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ROOT, pages } from './code-blocks.js';

// VitePress 1.6's heading ids (its `slugify`), applied to a heading's text.
const rCombining = /[\u0300-\u036F]/g;
const rSpecial = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const slugify = (text: string) =>
  text.normalize('NFKD').replace(rCombining, '').replace(/[\u0000-\u001f]/g, '').replace(rSpecial, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '').replace(/^(\d)/, '_$1').toLowerCase();

/** The heading ids of a page, outside code blocks. */
function headingIds(path: string): Set<string> {
  const ids = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (heading) ids.add(slugify(heading[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return ids;
}

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

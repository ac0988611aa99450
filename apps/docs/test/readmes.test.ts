// Each package README is a front door: at most 250 lines, linking the site where the depth lives,
// and every guide it links exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ROOT } from './code-blocks.js';

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

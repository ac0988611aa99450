// Every public export of every package has its entry in the API reference, with its TSDoc.
// Reads what `scripts/generate.mjs` wrote (the test script builds the site first).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { API_PACKAGES } from '../api-entries/packages.mjs';
import { DOCS_ROOT } from './code-blocks.js';

interface Reflection {
  readonly id: number;
  readonly name: string;
  /** A re-export: the entry it points to (documented where it is declared). */
  readonly target?: number;
  readonly comment?: unknown;
  readonly signatures?: readonly { readonly comment?: unknown }[];
  readonly children?: readonly Reflection[];
}

const require = createRequire(join(DOCS_ROOT, 'package.json'));
const project = JSON.parse(readFileSync(join(DOCS_ROOT, '.api-entries/api.json'), 'utf8')) as Reflection;
const byId = new Map<number, Reflection>();
const index = (r: Reflection): void => {
  byId.set(r.id, r);
  for (const child of r.children ?? []) index(child);
};
index(project);

/** Whether an entry carries TSDoc (a re-export: where it is declared). */
function documented(entry: Reflection): boolean {
  const r = entry.target === undefined ? entry : byId.get(entry.target);
  return r !== undefined && (r.comment !== undefined || (r.signatures ?? []).some((s) => s.comment !== undefined));
}

/** The names a package's published types export (what a user can import). */
function publicExports(): Map<string, string[]> {
  const files = API_PACKAGES.map(({ name }) => require.resolve(name).replace(/\.(c?js)$/, (ext) => (ext === '.cjs' ? '.d.cts' : '.d.ts')));
  const program = ts.createProgram({ rootNames: files, options: { noEmit: true, skipLibCheck: true, types: [] } });
  const checker = program.getTypeChecker();
  return new Map(
    API_PACKAGES.map(({ name }, i) => {
      const source = program.getSourceFile(files[i]!);
      const symbol = source && checker.getSymbolAtLocation(source);
      return [name, symbol ? checker.getExportsOfModule(symbol).map((s) => s.name).sort() : []];
    }),
  );
}

describe('API reference', () => {
  const exported = publicExports();

  it.each(API_PACKAGES.map(({ name }) => [name]))('%s: its page says what it is; every public export has a documented entry and a heading on it', (name) => {
    const names = exported.get(name)!;
    expect(names.length).toBeGreaterThan(0);
    const module = project.children?.find((m) => m.name === name);
    expect(module, `${name} is in the reference`).toBeDefined();
    expect(module!.comment, `${name}'s page says what it is`).toBeDefined();
    const entries = new Map((module!.children ?? []).map((r) => [r.name, r]));
    const page = readFileSync(join(DOCS_ROOT, 'api', `${name}.md`), 'utf8');
    const headings = new Set([...page.matchAll(/^### (.+)$/gm)].map((m) => m[1]!.replaceAll('\\', '').replaceAll('~~', '').replace(/(\(\)|\?)$/, '')));

    const missing = names.filter((n) => !entries.has(n));
    const undocumented = names.filter((n) => entries.has(n) && !documented(entries.get(n)!));
    const withoutHeading = names.filter((n) => !headings.has(n));
    expect({ missing, undocumented, withoutHeading }).toEqual({ missing: [], undocumented: [], withoutHeading: [] });
  });

  it('covers every entry point of every published package (each name of its exports map)', () => {
    const packages = join(DOCS_ROOT, '..', '..', 'packages');
    const entryPoints = readdirSync(packages)
      .map((dir) => join(packages, dir, 'package.json'))
      .filter((path) => existsSync(path))
      .map((path) => JSON.parse(readFileSync(path, 'utf8')) as { name: string; private?: boolean; exports?: Record<string, unknown> })
      .filter((pkg) => pkg.private !== true)
      .flatMap((pkg) => Object.keys(pkg.exports ?? { '.': true }).filter((sub) => !sub.endsWith('.json')).map((sub) => (sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`)));
    expect(API_PACKAGES.map(({ name }) => name).sort()).toEqual(entryPoints.sort());
  });

  it('the reference pages link each package from the sidebar', () => {
    const config = readFileSync(join(DOCS_ROOT, '.vitepress/config.ts'), 'utf8');
    expect(config).toContain('API_PACKAGES.map');
    for (const { name } of API_PACKAGES) expect(existsSync(join(DOCS_ROOT, 'api', `${name}.md`))).toBe(true);
  });
});

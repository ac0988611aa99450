// Finds the TypeScript blocks of the site's pages and writes each as a module of a checked project.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DOCS_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CHECK_DIR = join(DOCS_ROOT, '.check');
/** The repository's root: the READMEs' examples are checked with the site's. */
export const REPO_ROOT = join(DOCS_ROOT, '..', '..');

/** One fenced TypeScript block of a page. */
export interface CodeBlock {
  /** The page, relative to the site's root (`guide/send-client.md`). */
  readonly page: string;
  /** The line of the block's first code line in the page (1-based). */
  readonly line: number;
  /** The words after the language (`runnable`, `server`). */
  readonly meta: readonly string[];
  readonly code: string;
  /** Where the block is written in the checked project. */
  readonly file: string;
}

const SKIP = new Set(['node_modules', 'api', 'reference', '.vitepress', '.check', '.api-entries', 'test', 'scripts']);

/** Every Markdown page of the site written by hand (generated pages hold no examples). */
export function pages(dir = DOCS_ROOT): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...pages(path));
    else if (entry.name.endsWith('.md') && !(dir === DOCS_ROOT && entry.name === 'README.md')) found.push(path);
  }
  return found.sort();
}

/** The READMEs of the repository, each package's and each app's (front doors whose examples are checked too). */
export function readmes(): string[] {
  const found = [join(REPO_ROOT, 'README.md')];
  for (const dir of ['packages', 'apps']) {
    for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const path = join(REPO_ROOT, dir, entry.name, 'README.md');
      if (entry.isDirectory() && existsSync(path)) found.push(path);
    }
  }
  return found.sort();
}

/** The TypeScript blocks of a page (of the site, or a README: named from the repository's root). */
export function blocksOf(path: string): CodeBlock[] {
  const page = path.startsWith(`${DOCS_ROOT}`) && !path.endsWith('README.md') ? relative(DOCS_ROOT, path) : relative(REPO_ROOT, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\b(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const code = lines.slice(start, end).map((l) => l.slice(indent)).join('\n');
    const meta = open[3]!.replace(/\[.*?\]|\{.*?\}/g, ' ').trim().split(/\s+/).filter(Boolean);
    // A block whose first line names its file (`// producer.ts ...`) is written under that name, so
    // the blocks of a page can import one another as the page shows.
    const named = /^\/\/ ([\w-]+\.ts)\b/.exec(code.split('\n').find((l) => l !== '' && !l.startsWith('import ') && !l.startsWith('declare ')) ?? '');
    const file = join(CHECK_DIR, 'blocks', page.replace(/\.md$/, '').replaceAll('/', '__'), named ? named[1]! : `block-${start + 1}.ts`);
    blocks.push({ page, line: start + 1, meta, code, file });
    i = end;
  }
  return blocks;
}

/** The declaration files every block sees, as written into the checked project. */
export const ambientFiles = (): string[] => readdirSync(join(DOCS_ROOT, 'test/ambient')).map((name) => join(CHECK_DIR, name));

/** Writes every block of the site and of the READMEs into `.check/blocks/` with its tsconfig; returns the blocks. */
export function writeCheckedProject(): CodeBlock[] {
  rmSync(CHECK_DIR, { recursive: true, force: true });
  mkdirSync(join(CHECK_DIR, 'blocks'), { recursive: true });
  const blocks = [...pages(), ...readmes()].flatMap(blocksOf);
  const dirs = new Set(blocks.map((b) => dirname(b.file)));
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    // What the pages say their examples import beside them (`./store.js`: your database).
    for (const support of readdirSync(join(DOCS_ROOT, 'test/support'))) {
      writeFileSync(join(dir, support), readFileSync(join(DOCS_ROOT, 'test/support', support)));
    }
  }
  for (const block of blocks) {
    // Each block is its own module (a block without imports would otherwise share a scope).
    writeFileSync(block.file, /\bexport\b|\bimport\b/.test(block.code) ? `${block.code}\n` : `${block.code}\nexport {};\n`);
  }
  // Declarations every block sees (runtime globals of Bun and Deno, the testing kit's matchers).
  for (const ambient of readdirSync(join(DOCS_ROOT, 'test/ambient'))) {
    writeFileSync(join(CHECK_DIR, ambient), readFileSync(join(DOCS_ROOT, 'test/ambient', ambient)));
  }
  writeFileSync(
    join(CHECK_DIR, 'package.json'),
    JSON.stringify({ type: 'module', private: true }),
  );
  return blocks;
}

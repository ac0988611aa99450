// Every published package packed as the release packs it (pnpm pack: workspace ranges become
// versions), then read back from its tarball: the licence text, the metadata npm and a legal
// review look for, the source-map policy, a size budget per tarball, and its published shape as
// publint (strict) and arethetypeswrong (node16 profile) see it.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lintFiles, lintTarball } from './package-lint.js';
import { published, root, rootManifest, run } from './workspace.js';

/**
 * Packed size (gzip) each tarball must stay under, in bytes: the figure measured when the policy
 * was set, plus about 15 %. Raise one deliberately, in the same commit as the growth it allows.
 */
const BUDGETS: Readonly<Record<string, number>> = {
  // The binary bundles core, transport-fetch and the sandbox, with what they use of TypeBox,
  // fast-xml-parser and Hono: a command loads a few dozen files, not several hundred (start-up halved).
  smsv4: 345_000,
  '@smsv4/core': 705_000,
  '@smsv4/express-webhooks': 27_000,
  '@smsv4/fastify-webhooks': 14_000,
  '@smsv4/fetch-webhooks': 16_500,
  '@smsv4/nest-module': 58_000,
  // The bounded close (closeTimeoutMs) and its documentation: 88.6 kB.
  '@smsv4/queue': 90_000,
  '@smsv4/sandbox': 301_000,
  '@smsv4/testing': 197_000,
  '@smsv4/transport-fetch': 61_000,
};

const REPOSITORY = 'git+https://github.com/smsv4/smsv4.git';
const work = mkdtempSync(join(tmpdir(), 'smsv4-tarballs-'));

interface Unpacked {
  readonly tarball: string;
  /** Path of the tarball. */
  readonly path: string;
  readonly bytes: number;
  /** Folder holding the unpacked `package/`. */
  readonly dir: string;
  readonly files: readonly string[];
}
const unpacked = new Map<string, Unpacked>();

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

beforeAll(async () => {
  // Packed once for the run (test/pack-once.ts).
  const out = inject('packs');
  for (const { name } of published) {
    const base = `${name.replace(/^@/, '').replace('/', '-')}-`;
    const tarball = readdirSync(out).find((file) => file.startsWith(base) && /^\d/.test(file.slice(base.length)));
    if (tarball === undefined) throw new Error(`no tarball for ${name} in ${readdirSync(out).join(', ')}`);
    const dir = join(work, 'unpacked', base);
    rmSync(dir, { recursive: true, force: true });
    await run('mkdir', ['-p', dir], { cwd: work });
    await run('tar', ['-xzf', join(out, tarball), '-C', dir], { cwd: work });
    unpacked.set(name, { tarball, path: join(out, tarball), bytes: statSync(join(out, tarball)).size, dir, files: listFiles(join(dir, 'package')) });
  }
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('packed tarballs', () => {
  it('every package of packages/ is published and has a budget', () => {
    expect(published.map(({ name }) => name).sort()).toEqual(Object.keys(BUDGETS).sort());
  });

  it("smsv4's binary carries the licence of every third-party package it bundles, and of no other", () => {
    const at = join(unpacked.get('smsv4')?.dir ?? '', 'package', 'dist', 'cli');
    const bundled = new Set<string>();
    for (const file of readdirSync(at).filter((f) => f.endsWith('.js'))) {
      // esbuild names each bundled module's path in a comment: `// …/node_modules/<package>/…`.
      for (const [, name] of readFileSync(join(at, file), 'utf8').matchAll(/^\/\/ \S*node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm)) bundled.add(name as string);
    }
    expect([...bundled]).toEqual(expect.arrayContaining(['@sinclair/typebox', 'fast-xml-parser']));
    const notices = readFileSync(join(at, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    const sections = notices.split(/^## /m).slice(1);
    expect(sections.map((section) => /^(\S+)@\S+ \(/.exec(section)?.[1]).sort()).toEqual([...bundled].sort());
    for (const section of sections) expect(section.split('\n').slice(1).join('\n').trim().length, section.slice(0, 60)).toBeGreaterThan(20);
  });

  describe.each(published.map((p) => [p.name, p] as const))('%s', (name, { dir }) => {
    const get = (): Unpacked => unpacked.get(name) ?? (() => { throw new Error(`${name} was not packed`); })();
    const manifest = (): Record<string, unknown> => JSON.parse(readFileSync(join(get().dir, 'package', 'package.json'), 'utf8')) as Record<string, unknown>;

    it('carries the MIT licence text with its copyright holder, and the README', () => {
      const { files, dir: at } = get();
      expect(files).toContain('LICENSE');
      expect(files).toContain('README.md');
      const licence = readFileSync(join(at, 'package', 'LICENSE'), 'utf8');
      expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} smsv4 contributors\n/);
      expect(licence).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
    });

    it('has the metadata of a published package', () => {
      const pkg = manifest();
      expect(pkg.license).toBe('MIT');
      expect(pkg.author).toBe('smsv4 contributors');
      expect(pkg.repository).toEqual({ type: 'git', url: REPOSITORY, directory: dir });
      expect(pkg.homepage).toBe(`https://github.com/smsv4/smsv4/tree/main/${dir}#readme`);
      expect(pkg.bugs).toEqual({ url: 'https://github.com/smsv4/smsv4/issues' });
      expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true });
      expect(pkg.engines).toEqual(rootManifest.engines);
      expect(Array.isArray(pkg.keywords) && pkg.keywords.length >= 3).toBe(true);
      expect(typeof pkg.description).toBe('string');
    });

    it('depends on published versions, never on the workspace', () => {
      const pkg = manifest();
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        for (const [dep, range] of Object.entries((pkg[field] ?? {}) as Record<string, string>)) {
          expect(`${dep}@${range}`).not.toMatch(/workspace:|link:|file:/);
        }
      }
    });

    it('follows the source-map policy and ships no test', () => {
      const { files, dir: at } = get();
      expect(files.filter((file) => /\.(test|test-d|bench)\.ts$/.test(file))).toEqual([]);
      const maps = files.filter((file) => file.endsWith('.map'));
      if (name === 'smsv4') {
        expect(maps).toEqual([]);
        expect(files.some((file) => file.startsWith('src/'))).toBe(false);
        return;
      }
      expect(maps.length).toBeGreaterThan(0);
      for (const map of maps) {
        const parsed = JSON.parse(readFileSync(join(at, 'package', map), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
        expect(parsed.sourcesContent, map).toBeUndefined();
        // Every source a map names is in the tarball.
        for (const source of parsed.sources) {
          const target = join('/', map, '..', source).slice(1);
          if (!target.startsWith('src/')) continue; // a bundled asset of another package's build
          expect(files, `${map} → ${source}`).toContain(target);
        }
      }
    });

    it('passes publint --strict and arethetypeswrong (node16 profile): exports, files and types resolve for ESM and CommonJS', async () => {
      const lint = await lintTarball(readFileSync(get().path));
      expect(lint).toEqual({ publint: [], attw: [] });
    });

    it('stays within its size budget', () => {
      const { bytes } = get();
      expect(bytes).toBeLessThanOrEqual(BUDGETS[name] ?? 0);
    });
  });
});

describe('the published-shape check', () => {
  it('reports a package whose exports name files it does not ship, and whose types do not resolve', async () => {
    const lint = await lintFiles('broken-example', '1.0.0', {
      'package.json': JSON.stringify({
        name: 'broken-example',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', require: './dist/index.cjs' } },
      }),
      'dist/index.js': 'export const x = 1;\n',
      'dist/index.cjs': 'exports.x = 1;\n',
    });
    expect(lint.publint.some((line) => line.startsWith('error:') && line.includes('dist/index.d.ts'))).toBe(true);
    expect(lint.attw.length).toBeGreaterThan(0);
  });

  it('reports ESM types given to CommonJS consumers', async () => {
    const lint = await lintFiles('masquerading-example', '1.0.0', {
      'package.json': JSON.stringify({
        name: 'masquerading-example',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', require: './dist/index.cjs' } },
      }),
      'dist/index.js': 'export const x = 1;\n',
      'dist/index.cjs': 'exports.x = 1;\n',
      'dist/index.d.ts': 'export declare const x: number;\n',
    });
    expect(lint.attw.some((line) => line.startsWith('FalseESM'))).toBe(true);
  });

  it('passes a sound dual package', async () => {
    const lint = await lintFiles('sound-example', '1.0.0', {
      'package.json': JSON.stringify({
        name: 'sound-example',
        version: '1.0.0',
        type: 'module',
        main: './dist/index.cjs',
        types: './dist/index.d.cts',
        exports: {
          '.': {
            import: { types: './dist/index.d.ts', default: './dist/index.js' },
            require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
          },
        },
      }),
      'dist/index.js': 'export const x = 1;\n',
      'dist/index.cjs': 'exports.x = 1;\n',
      'dist/index.d.ts': 'export declare const x: number;\n',
      'dist/index.d.cts': 'export declare const x: number;\n',
    });
    expect(lint).toEqual({ publint: [], attw: [] });
  });
});

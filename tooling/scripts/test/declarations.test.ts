// The declaration files of the packages' builds (declarations.mjs), on a small package: one file per
// entry point for ES modules and CommonJS, what two entry points share in one chunk that both import
// (as `.js` from `.d.ts`, as `.cjs` from `.d.cts`), packages left as imports, the documentation kept.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { buildDeclarations } from '../declarations.mjs';

const tsc = new URL('../node_modules/.bin/smsv4-tsc', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'smsv4-declarations-test-'));
const dist = join(dir, 'dist');
const read = (file: string): string => readFileSync(join(dist, file), 'utf8');

beforeAll(async () => {
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, declaration: true, noEmit: true, skipLibCheck: true, types: [] }, include: ['src/**/*.ts'] }),
  );
  writeFileSync(join(dir, 'src', 'shared.ts'), "/** A part count. */\nexport interface Parts {\n  readonly count: number;\n}\nexport const parts = (count: number): Parts => ({ count });\n");
  writeFileSync(join(dir, 'src', 'index.ts'), "import type { Readable } from 'node:stream';\nexport { parts, type Parts } from './shared.js';\n/** Reads a stream. */\nexport function read(stream: Readable): string {\n  return String(stream);\n}\n");
  writeFileSync(join(dir, 'src', 'segments.ts'), "import { parts } from './shared.js';\nexport type { Parts } from './shared.js';\nexport const one = () => parts(1);\n");
  await buildDeclarations(dir, ['src/index.ts', 'src/segments.ts'], { tsc });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the declarations of a build', () => {
  it('writes one .d.ts and one .d.cts per entry point, and one chunk of what they share', () => {
    const files = readdirSync(dist).sort();
    const chunk = files.find((file) => /^shared-[\w-]+\.d\.ts$/.test(file)) ?? '';
    expect(chunk).not.toBe('');
    expect(files).toEqual([chunk.replace(/\.d\.ts$/, '.d.cts'), chunk, 'index.d.cts', 'index.d.ts', 'segments.d.cts', 'segments.d.ts'].sort());
    const base = chunk.replace(/\.d\.ts$/, '');
    for (const entry of ['index', 'segments']) {
      expect(read(`${entry}.d.ts`)).toContain(`from './${base}.js'`);
      expect(read(`${entry}.d.cts`)).toContain(`from './${base}.cjs'`);
    }
    expect(read(chunk)).toContain('/** A part count. */');
    expect(read(chunk)).toContain('readonly count: number;');
  });

  it('leaves packages as imports and keeps the documentation of each declaration', () => {
    const index = read('index.d.ts');
    expect(index).toMatch(/import \{ Readable \} from 'node:stream';|import type \{ Readable \} from 'node:stream';/);
    expect(index).toContain('/** Reads a stream. */');
    expect(index).toContain('declare function read(stream: Readable): string;');
    expect(read('segments.d.ts')).toContain('declare const one: () => Parts;');
  });

  it('fails, naming the entry point, when an entry point has no declarations', async () => {
    await expect(buildDeclarations(dir, ['src/missing.ts'], { tsc })).rejects.toThrow('src/missing.ts: no declarations emitted');
    expect(existsSync(join(dist, 'index.d.ts'))).toBe(true);
  });
});

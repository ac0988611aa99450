// Every TypeScript block of the site and of the READMEs type-checks against the packages as built
// (their dist types), with the workspace's type checker (`smsv4-tsc`, TypeScript 7) in a project set
// up as a reader's (strict, NodeNext, ES modules, Node's types, decorators as Nest needs them).
// The check is bounded: stopped after 2 minutes (a passing check takes seconds), then failed.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_DIR, DOCS_ROOT, writeCheckedProject } from './code-blocks.js';

const BOUND_MS = 120_000;

describe('code blocks', () => {
  it('every TypeScript block of every page and README type-checks against the built packages', () => {
    const blocks = writeCheckedProject();
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.filter((b) => b.page.endsWith('README.md')).length).toBeGreaterThan(5);
    writeFileSync(
      join(CHECK_DIR, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2024', 'esnext.disposable', 'dom'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true, // as `tsc --init` sets it
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
          typeRoots: ['../node_modules/@types'],
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          esModuleInterop: true,
        },
        include: ['blocks/**/*.ts', '*.d.ts'],
      }),
    );
    const tsc = spawnSync(join(DOCS_ROOT, 'node_modules/.bin/smsv4-tsc'), ['-p', join(CHECK_DIR, 'tsconfig.json'), '--pretty', 'false', '--singleThreaded'], {
      cwd: CHECK_DIR,
      encoding: 'utf8',
      timeout: BOUND_MS,
      killSignal: 'SIGKILL',
    });
    expect(tsc.error, `the type check did not end within ${BOUND_MS} ms`).toBeUndefined();
    // `file(line,col): error TSnnnn: message`, told by the page and line the reader sees.
    const byFile = new Map(blocks.map((b) => [b.file, b]));
    const problems = `${tsc.stdout}${tsc.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith(' '))
      .map((line) => {
        const at = /^(.+?)\((\d+),\d+\): (.*)$/.exec(line);
        const block = at && byFile.get(resolve(CHECK_DIR, at[1]!));
        return block ? `${block.page}:${block.line + Number(at[2]) - 1}: ${at[3]}` : line;
      });
    expect(problems).toEqual([]);
    expect(tsc.status).toBe(0);
  });
});

// Every TypeScript block of the site and of the READMEs type-checks against the packages as built
// (their dist types).
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ambientFiles, CHECK_DIR, writeCheckedProject } from './code-blocks.js';

describe('code blocks', () => {
  it('every TypeScript block of every page and README type-checks against the built packages', () => {
    const blocks = writeCheckedProject();
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.filter((b) => b.page.endsWith('README.md')).length).toBeGreaterThan(5);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2024.d.ts', 'lib.esnext.disposable.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, // as `tsc --init` sets it
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      esModuleInterop: true,
      typeRoots: [`${CHECK_DIR}/../node_modules/@types`],
    };
    const program = ts.createProgram({ rootNames: [...blocks.map((b) => b.file), ...ambientFiles()], options });
    const byFile = new Map(blocks.map((b) => [b.file, b]));
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const block = d.file ? byFile.get(d.file.fileName) : undefined;
      const where = block && d.file && d.start !== undefined ? `${block.page}:${block.line + d.file.getLineAndCharacterOfPosition(d.start).line}` : (d.file?.fileName ?? 'options');
      return `${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});

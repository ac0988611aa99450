import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** BENCHMARKS.md at the repository root. */
export const BENCHMARKS_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'BENCHMARKS.md');

const HEADER = `# Benchmarks

Every figure compares the toolkit with a baseline measured in the same process and the same run, so
the ratios hold across machines better than the absolute times. Each section names the command that
produced it; the sections are rewritten by those commands and nothing else.
`;

/**
 * Replaces the block `id` of BENCHMARKS.md (between `<!-- bench:id -->` and `<!-- /bench:id -->`),
 * appending it when absent.
 */
export function writeReportBlock(id: string, content: string, path = BENCHMARKS_PATH): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = HEADER;
  }
  const open = `<!-- bench:${id} -->`;
  const close = `<!-- /bench:${id} -->`;
  const block = `${open}\n${content.trim()}\n${close}`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  text = start !== -1 && end > start ? text.slice(0, start) + block + text.slice(end + close.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, text);
}

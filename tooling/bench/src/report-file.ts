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

const SUMMARY_ID = 'summary';
const SUMMARY_HEAD = [
  '## Summary',
  '',
  'One row per hot path, written by the command of its row with the ratio that command measured (the median of',
  'interleaved rounds; the range of the rounds is in the section of the path).',
  '',
  '| path | baseline | ratio | target | met | command |',
  '|---|---|---|---|---|---|',
];

/** One row of the summary table that opens BENCHMARKS.md. */
export interface SummaryRow {
  /** The hot path; rows are keyed by it. */
  readonly path: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly target: string;
  /** Whether the target is met; `undefined`: the row shows the measure, the target is judged by another row (named in `target`). */
  readonly met: boolean | undefined;
  readonly command: string;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/**
 * Replaces the row of `row.path` in the summary table at the top of BENCHMARKS.md (after the
 * header), adding the row, or the table, when absent.
 */
export function writeSummaryRow(row: SummaryRow, path = BENCHMARKS_PATH): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = HEADER;
  }
  const open = `<!-- bench:${SUMMARY_ID} -->`;
  const close = `<!-- /bench:${SUMMARY_ID} -->`;
  const line = `| ${cell(row.path)} | ${cell(row.baseline)} | ${cell(row.ratio)} | ${cell(row.target)} | ${row.met === undefined ? '—' : row.met ? 'yes' : '**no**'} | \`${cell(row.command)}\` |`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  let rows: string[] = [];
  if (start !== -1 && end > start) {
    rows = text
      .slice(start + open.length, end)
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| path |'));
  }
  const key = `| ${cell(row.path)} |`;
  const at = rows.findIndex((l) => l.startsWith(key));
  if (at === -1) rows.push(line);
  else rows[at] = line;
  const block = `${open}\n${[...SUMMARY_HEAD, ...rows].join('\n')}\n${close}`;
  if (start !== -1 && end > start) text = text.slice(0, start) + block + text.slice(end + close.length);
  else {
    // Right after the header: the first block of the file.
    const first = text.indexOf('<!-- bench:');
    text = first === -1 ? `${text.trimEnd()}\n\n${block}\n` : `${text.slice(0, first)}${block}\n\n${text.slice(first)}`;
  }
  writeFileSync(path, text);
}

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

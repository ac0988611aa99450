// Changelog hygiene: the pending changesets name only published packages (apps and tooling are
// private and never versioned), with a patch, minor or major bump and a sentence for users.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { published, root } from './workspace.js';

const dir = join(root, '.changeset');
const changesets = readdirSync(dir)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(text);
    return { file, front: match?.[1] ?? '', body: (match?.[2] ?? '').trim() };
  });
const names = new Set(published.map(({ name }) => name));

describe('pending changesets', () => {
  it('are found', () => {
    expect(changesets.length).toBeGreaterThan(0);
  });

  it.each(changesets.map((c) => [c.file, c] as const))('%s names published packages and says what changed', (_file, { front, body }) => {
    const entries = front
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => /^\s*["']?([^"':]+)["']?\s*:\s*(\S+)\s*$/.exec(line));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry, front).not.toBeNull();
      expect(names.has(entry?.[1] ?? ''), entry?.[1]).toBe(true);
      expect(['patch', 'minor', 'major']).toContain(entry?.[2]);
    }
    expect(body.length).toBeGreaterThan(20);
  });

  it('leave benchmark-only changes out of the changelogs', () => {
    const benchOnly = changesets.filter(({ body }) => /^The [\w -]*benchmarks? /i.test(body));
    expect(benchOnly.map(({ file }) => file)).toEqual([]);
  });
});

// The test command's order: builds first, then each long pole in a turbo run of its own beside one
// run of everything else, so that no task of the workspace is left out or run twice.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { LONG_POLES, plan } from '../test-run.mjs';

const root = new URL('../../..', import.meta.url).pathname;
const names = ['packages', 'apps', 'tooling'].flatMap((group) =>
  readdirSync(join(root, group))
    .filter((dir) => existsSync(join(root, group, dir, 'package.json')))
    .map((dir) => JSON.parse(readFileSync(join(root, group, dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> }),
);

describe('the test command', () => {
  const phases = plan() as string[][][];

  it('builds everything first, then runs typecheck, lint and test of every package with their dependencies already built', () => {
    expect(phases).toHaveLength(2);
    expect(phases[0]).toHaveLength(1);
    expect(phases[0]?.[0]?.slice(0, 2)).toEqual(['run', 'build']);
    for (const args of phases[1] ?? []) {
      expect(args).toContain('--only');
      expect(args).toContain('test');
      expect(args).toContain('typecheck');
    }
  });

  it('gives each long pole a run of its own and leaves it out of the others', () => {
    for (const name of LONG_POLES as string[]) {
      const pkg = names.find((p) => p.name === name);
      expect(pkg?.scripts?.test, name).toBeDefined();
      const runs = (phases[1] ?? []).filter((args) => args.includes(`--filter=${name}`));
      expect(runs, name).toHaveLength(1);
      const rest = (phases[1] ?? []).filter((args) => !args.some((arg) => arg.startsWith('--filter=') && !arg.startsWith('--filter=!')));
      expect(rest).toHaveLength(1);
      expect(rest[0]).toContain(`--filter=!${name}`);
      expect(rest[0]).toContain('lint');
    }
  });
});

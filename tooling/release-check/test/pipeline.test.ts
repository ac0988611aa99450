// The release pipeline as the root README's "Releasing" section describes it: `pnpm release`, the
// CI workflow running changesets' action with provenance, and what `changeset version` makes of the
// pending changesets (run on a copy of the workspace's manifests: user changelogs for the published
// packages only, every changeset in the changelog of each package it names, no private package
// versioned).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { published, root, rootManifest, run } from './workspace.js';

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}
interface Workflow {
  readonly on: { push: { branches: string[] } };
  readonly permissions: Record<string, string>;
  readonly jobs: Record<string, { steps: Step[] }>;
}

const rootScripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const pnpm = `npx -y ${rootManifest.packageManager}`;

describe('the release pipeline', () => {
  it('pnpm release: changeset version, then build, the whole test run, then changeset publish', () => {
    expect(rootScripts.release?.split(' && ')).toEqual(['changeset version', 'pnpm build', 'pnpm test', 'changeset publish']);
    expect(rootScripts['version-packages']).toBe('changeset version && pnpm install --lockfile-only');
  });

  it("the CI workflow runs changesets' action on main, with the identity token provenance needs", () => {
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.permissions).toMatchObject({ 'id-token': 'write', contents: 'write', 'pull-requests': 'write' });
    const action = steps.find((step) => step.uses?.startsWith('changesets/action@'));
    expect(action?.with).toMatchObject({ version: `${pnpm} run version-packages`, publish: `${pnpm} run release` });
    expect(action?.env).toMatchObject({ NPM_CONFIG_PROVENANCE: 'true', NODE_AUTH_TOKEN: expect.stringContaining('secrets.') });
    // The Node of the engines field, installed with the pinned pnpm and the lockfile as it is.
    const setup = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    // A string: unquoted, YAML reads 20.20 as the number 20.2, and the runner would get Node 20.2.
    expect(setup?.with?.['node-version']).toBe('20.20');
    expect(rootManifest.engines.node).toBe('>=20.19');
    expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
    expect(steps.some((step) => step.run === `${pnpm} install --frozen-lockfile`)).toBe(true);
  });

  it('the changesets configuration publishes publicly and never versions the private apps and tooling', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ access: 'public', baseBranch: 'main', privatePackages: { version: false, tag: false } });
  });
});

describe('changeset version, on a copy of the workspace', () => {
  const work = mkdtempSync(join(tmpdir(), 'smsv4-version-'));
  const manifests = ['packages', 'apps', 'tooling'].flatMap((group) =>
    readdirSync(join(root, group))
      .filter((dir) => existsSync(join(root, group, dir, 'package.json')))
      .map((dir) => `${group}/${dir}`),
  );
  const pending = readdirSync(join(root, '.changeset'))
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => {
      const [, front = '', body = ''] = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(readFileSync(join(root, '.changeset', file), 'utf8')) ?? [];
      const names = [...front.matchAll(/^\s*["']?([^"':]+)["']?\s*:/gm)].map((match) => match[1] as string);
      return { file, names, firstLine: body.trim().split('\n')[0] as string };
    });
  const read = (path: string): string => readFileSync(join(work, path), 'utf8');

  beforeAll(async () => {
    for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(work, file));
    cpSync(join(root, '.changeset'), join(work, '.changeset'), { recursive: true });
    for (const dir of manifests) {
      mkdirSync(join(work, dir), { recursive: true });
      cpSync(join(root, dir, 'package.json'), join(work, dir, 'package.json'));
    }
    await run(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: work, timeoutMs: 60_000 });
  }, 90_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('consumes every pending changeset', () => {
    expect(readdirSync(join(work, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual([]);
  });

  it('writes a CHANGELOG.md and a new version for every published package, and for no private one', () => {
    for (const dir of manifests) {
      const before = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; version: string };
      const after = JSON.parse(read(`${dir}/package.json`)) as { version: string };
      const isPublished = published.some((p) => p.dir === dir);
      expect(existsSync(join(work, dir, 'CHANGELOG.md')), dir).toBe(isPublished);
      expect(after.version !== before.version, dir).toBe(isPublished);
      if (isPublished) expect(read(`${dir}/CHANGELOG.md`).startsWith(`# ${before.name}\n\n## ${after.version}\n`), dir).toBe(true);
    }
  });

  it("puts each changeset in the changelog of every package it names, and of no other", () => {
    for (const { dir, name } of published) {
      const changelog = read(`${dir}/CHANGELOG.md`);
      for (const { file, names, firstLine } of pending) expect(changelog.includes(firstLine), `${file} in ${name}`).toBe(names.includes(name));
    }
  });
});

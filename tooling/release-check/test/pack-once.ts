// Packs every published package once for the whole run, as the release packs them (pnpm pack:
// workspace ranges become versions); the tarball checks and the registry round trip read the same
// tarballs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pnpmCommand, root, run } from './workspace.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding one `.tgz` per published package. */
    packs: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const packs = mkdtempSync(join(tmpdir(), 'smsv4-packs-'));
  const [pnpm, pnpmArgs] = pnpmCommand();
  await run(pnpm, [...pnpmArgs, '-r', '--filter', './packages/*', 'pack', '--pack-destination', packs], { cwd: root, timeoutMs: 180_000 });
  project.provide('packs', packs);
  return () => rmSync(packs, { recursive: true, force: true });
}

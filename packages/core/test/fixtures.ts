import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding the real payload files of the core's tests. */
export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Reads one fixture (path relative to `test/fixtures/`) as UTF-8 text. */
export function loadFixture(path: string): string {
  return readFileSync(join(FIXTURES_DIR, path), 'utf8');
}

/** Reads one fixture as raw bytes. */
export function loadFixtureBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES_DIR, path)));
}

/** Lists the fixture files of a folder (relative to `test/fixtures/`), sorted, as paths usable with {@link loadFixture}. */
export function listFixtures(folder: string): string[] {
  return readdirSync(join(FIXTURES_DIR, folder))
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => `${folder}/${name}`);
}

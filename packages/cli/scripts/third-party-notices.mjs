// Writes dist/cli/THIRD-PARTY-NOTICES.txt: the name, version and licence text of every third-party
// package whose code the binary's bundle holds (from esbuild's metafile, then removed). A package
// that ships no licence file is listed with its manifest's licence, author and repository; one
// whose manifest names no licence either fails the build.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt))?$/i;

/** The folder and name of the package an input path of the bundle belongs to, or undefined (our own code). */
export function packageOf(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return name === undefined ? undefined : { name, dir: input.slice(0, at + 'node_modules/'.length + name.length) };
}

/** The notices for the inputs of a bundle (paths relative to `base`), sorted by package name. */
export function notices(inputs, base = PACKAGE_DIR) {
  const found = new Map();
  for (const input of inputs) {
    const owner = packageOf(input);
    if (owner !== undefined && !found.has(owner.name)) found.set(owner.name, join(base, owner.dir));
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (typeof manifest.license !== 'string') throw new Error(`${name} is bundled into the binary but its manifest names no licence (${dir})`);
      const file = readdirSync(dir).find((entry) => LICENCE_FILE.test(entry));
      const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
      const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
      const text =
        file !== undefined
          ? readFileSync(join(dir, file), 'utf8').trim()
          : [`${manifest.license} licence; the package ships no licence file.`, author && `Author: ${author}`, repository && `Repository: ${repository}`].filter(Boolean).join('\n');
      return { name, version: manifest.version, license: manifest.license, text };
    });
}

export async function writeNotices(dist = join(PACKAGE_DIR, 'dist')) {
  const metafile = join(dist, 'metafile-esm.json');
  if (!existsSync(metafile)) throw new Error(`no metafile at ${metafile}`);
  const { inputs } = JSON.parse(readFileSync(metafile, 'utf8'));
  rmSync(metafile);
  const entries = notices(Object.keys(inputs));
  const text = [
    'The smsv4 binary (dist/cli.js and dist/cli/) bundles code of the packages below, under their licences.',
    '',
    ...entries.flatMap(({ name, version, license, text }) => [`## ${name}@${version} (${license})`, '', text, '']),
  ].join('\n');
  writeFileSync(join(dist, 'cli', 'THIRD-PARTY-NOTICES.txt'), text);
}

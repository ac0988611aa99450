// The published shape of a package as publint (strict) and arethetypeswrong (the node16 profile)
// see it, read from its packed tarball in this process: one TypeScript load for every package.
import { checkPackage, createPackageFromTarballData, Package } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

/** What each tool reports, one line per problem; both empty for a sound package. */
export interface PackageLint {
  readonly publint: readonly string[];
  readonly attw: readonly string[];
}

/** The resolutions the node16 profile leaves out (as `attw --profile node16`). */
const IGNORED_RESOLUTIONS = new Set(['node10']);

async function typesProblems(pkg: Package): Promise<string[]> {
  const result = await checkPackage(pkg);
  if (result.types === false) return ['the package ships no types'];
  return result.problems
    .filter((problem) => !('resolutionKind' in problem && IGNORED_RESOLUTIONS.has(problem.resolutionKind)))
    .map((problem) => `${problem.kind}${'entrypoint' in problem ? ` at ${problem.entrypoint}` : ''}${'resolutionKind' in problem ? ` (${problem.resolutionKind})` : ''}`);
}

async function publintProblems(pack: { tarball: ArrayBuffer } | { files: { name: string; data: Uint8Array }[] }): Promise<string[]> {
  // Files given by hand sit under `package/`, as in a tarball.
  const { messages, pkg } = await publint({ pack, strict: true, level: 'warning', ...('files' in pack ? { pkgDir: 'package' } : {}) });
  return messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
}

/** Lints a packed tarball (`.tgz` bytes). */
export async function lintTarball(bytes: Uint8Array): Promise<PackageLint> {
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const [publintLines, attwLines] = await Promise.all([publintProblems({ tarball }), typesProblems(createPackageFromTarballData(bytes))]);
  return { publint: publintLines, attw: attwLines };
}

/** Lints a package given as its files (paths relative to the package root), as if packed. */
export async function lintFiles(name: string, version: string, files: Readonly<Record<string, string>>): Promise<PackageLint> {
  const encoder = new TextEncoder();
  const packed = Object.entries(files).map(([path, text]) => ({ name: `package/${path}`, data: encoder.encode(text) }));
  const inModules = Object.fromEntries(Object.entries(files).map(([path, text]) => [`/node_modules/${name}/${path}`, text]));
  const [publintLines, attwLines] = await Promise.all([publintProblems({ files: packed }), typesProblems(new Package(inModules, name, version))]);
  return { publint: publintLines, attw: attwLines };
}

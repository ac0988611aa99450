// What the release tests share: the workspace's published packages and a bounded way to run a command.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('../../../', import.meta.url).pathname;

/** A published package: its folder (relative to the root) and its manifest. */
export interface Published {
  readonly dir: string;
  readonly name: string;
  readonly manifest: Record<string, unknown>;
}

/** Every package of packages/ that is not private, sorted by folder. */
export const published: readonly Published[] = readdirSync(join(root, 'packages'))
  .sort()
  .map((dir) => ({ dir: `packages/${dir}`, manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Record<string, unknown> }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({ dir, name: manifest.name as string, manifest }));

/** The root manifest. */
export const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; packageManager: string };

/** pnpm as the workspace runs it: the running pnpm when a pnpm script started the tests, else the pinned one through npx. */
export function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath) && execPath.endsWith('js')) return [process.execPath, [execPath]];
  return ['npx', ['-y', rootManifest.packageManager]];
}

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command without a shell (in `env`, else this process's environment) and resolves with its
 * output; rejects with the output when it fails or outlives `timeoutMs` (it is then killed).
 */
export function run(command: string, args: readonly string[], { cwd, env, timeoutMs = 120_000, input }: { cwd: string; env?: Record<string, string>; timeoutMs?: number; input?: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, [...args], { cwd, env: env ?? process.env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
    if (input !== undefined) {
      // A command that ends before reading its input closes the pipe (EPIPE): its status and output are what counts.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    }
  });
}

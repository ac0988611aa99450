// Builds the site as the test run does: generated pages, then `vitepress build`, failing on any
// warning (TypeDoc's, Vite's or VitePress's) and on dead links (VitePress fails the build on them).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
/** Each step is bounded: stopped after 10 minutes (a passing build takes well under one), the build then failed. */
const BOUND_MS = 600_000;
const run = (args) => {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: BOUND_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  if (result.error !== undefined) {
    console.error(`${args.join(' ')}: ${result.error.code === 'ETIMEDOUT' ? `did not end within ${BOUND_MS / 60_000} minutes and was stopped` : result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
  return `${result.stdout}\n${result.stderr}`;
};
run(['scripts/generate.mjs']);
const output = run(['node_modules/vitepress/bin/vitepress.js', 'build']);
const warnings = output.split('\n').filter((line) => /\bwarn(ing)?\b|\(!\)|dead link/i.test(line));
if (warnings.length > 0) {
  console.error(`the site build printed ${warnings.length} warnings:\n${warnings.join('\n')}`);
  process.exit(1);
}
console.log(`site built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

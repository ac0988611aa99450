// Sums the vitest JSON reports of every workspace package and prints one closing line:
// "tests: N passed, N failed, N skipped". Exits 1 when a test failed or no test ran.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const group of ['packages', 'apps', 'tooling']) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    const report = join(dir, name, 'test-results.json');
    if (!existsSync(report)) continue;
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    lines.push(`  ${group}/${name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  }
}
console.log(lines.join('\n'));
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exitCode = 1;

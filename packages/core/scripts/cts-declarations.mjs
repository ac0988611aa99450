// The CommonJS build's declarations: the ESM build's rolled-up declaration files (`dist/*.d.ts`),
// each written again as `.d.cts` with its relative imports pointing at `.cjs` files.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const written = [];
for (const file of readdirSync(dist)) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(join(dist, file), 'utf8').replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.js(['"])/g, '$1.cjs$2');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), text);
  written.push(file);
}
if (!written.includes('index.d.ts') || !written.includes('segments.d.ts')) throw new Error(`declarations missing in dist/: ${written.join(', ')}`);

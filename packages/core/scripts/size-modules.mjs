// What each module adds to the bundles of .size-limit.json: for every budget row, the bundle is made
// as size-limit makes it (esbuild, tree-shaken, minified) and each module's part is weighed by how
// many gzip bytes the bundle loses without it. Run: `npx -y pnpm@10.34.8 --filter @smsv4/core size:modules`
// (after a build); `-- <n>` lists the n largest per row (default 15).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// The esbuild that size-limit measures with.
const esbuild = createRequire(createRequire(import.meta.url).resolve('@size-limit/esbuild/package.json'))('esbuild');
const rows = JSON.parse(readFileSync(join(packageDir, '.size-limit.json'), 'utf8'));
const top = Number(process.argv[2] ?? 15);
const gzip = (text) => gzipSync(text, { level: 9 }).length;

for (const row of rows) {
  const entry = join(packageDir, row.path);
  const contents = row.import === '*' ? `import * as all from ${JSON.stringify(entry)}; console.log(all);` : `import ${row.import} from ${JSON.stringify(entry)}; console.log(${row.import});`;
  // Whitespace kept, so that esbuild marks where each module's code starts (`// path`).
  const built = await esbuild.build({
    stdin: { contents, resolveDir: packageDir },
    bundle: true,
    external: row.ignore ?? [],
    minifyIdentifiers: true,
    minifySyntax: true,
    treeShaking: true,
    write: false,
  });
  const pieces = built.outputFiles[0].text.split(/^ {2}\/\/ (.*)$/m);
  const modules = [{ name: '(runtime helpers)', code: pieces[0] }];
  for (let i = 1; i < pieces.length; i += 2) modules.push({ name: pieces[i], code: pieces[i + 1] });
  for (const m of modules) {
    m.code = (await esbuild.transform(m.code, { minifyWhitespace: true }).catch(() => ({ code: m.code }))).code;
    m.name = m.name.includes('node_modules/') ? m.name.replace(/^.*node_modules\//, '') : relative(packageDir, join(packageDir, m.name.replace(/^(\.\.\/)+.*?packages\/core\//, '')));
  }
  const whole = gzip(modules.map((m) => m.code).join(''));
  const weighed = modules.map((m, i) => ({ name: m.name, adds: whole - gzip(modules.filter((_, j) => j !== i).map((o) => o.code).join('')), minified: m.code.length }));
  // A module of several parts (esbuild splits some) is listed once, its parts added up.
  const byName = new Map();
  for (const w of weighed) {
    const seen = byName.get(w.name);
    if (seen === undefined) byName.set(w.name, { ...w });
    else {
      seen.adds += w.adds;
      seen.minified += w.minified;
    }
  }
  console.log(`\n${row.name}: ${whole} bytes gzipped (size-limit reports a little less: it subtracts an empty bundle)`);
  console.log('  gzip  minified  module');
  for (const w of [...byName.values()].sort((a, b) => b.adds - a.adds).slice(0, top)) {
    console.log(`${String(w.adds).padStart(6)}  ${String(w.minified).padStart(8)}  ${w.name}`);
  }
}

// Writes the generated pages of the site from what the code holds: the reference tables (core's
// error catalogue, the 540 rules, telemetry names, wire facts, the CLI's own command definitions)
// and the API reference (TypeDoc over each package's published types). Run before `vitepress`.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { API_PACKAGES } from '../api-entries/packages.mjs';
import { referencePages } from './reference-pages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What an entry point is, as its package says it: the `description` of its package.json for a
 * package's main entry, the module comment of its source file for another entry point
 * (`@smsv4/core/segments` → `src/segments.ts`). Lines of a TSDoc comment (` * ...`).
 */
async function introOf(name) {
  const [scope, base, ...sub] = name.startsWith('@') ? name.split('/') : ['', ...name.split('/')];
  const pkgName = scope ? `${scope}/${base}` : base;
  const dir = `${root}node_modules/${pkgName}/`;
  const lines = (text) => text.split('\n').map((line) => ` * ${line}`.trimEnd()).join('\n') + '\n';
  if (sub.length === 0) return lines(JSON.parse(await readFile(`${dir}package.json`, 'utf8')).description);
  const source = await readFile(`${dir}src/${sub.join('/')}.ts`, 'utf8');
  const comment = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(source);
  if (!comment) throw new Error(`${name}: its source file starts with no module comment`);
  return `${comment[1]}\n`;
}

const started = performance.now();

// Reference tables.
await mkdir(`${root}reference`, { recursive: true });
for (const [file, text] of Object.entries(await referencePages())) await writeFile(`${root}reference/${file}`, text);

// API reference: one entry file per package, re-exporting its public entry under its import name.
const entries = `${root}.api-entries/`;
await rm(entries, { recursive: true, force: true });
await mkdir(entries, { recursive: true });
for (const { name, slug } of API_PACKAGES) {
  // The module tags go before the intro's own block tags (`@example`), which would take them in.
  const intro = (await introOf(name)).split('\n');
  const firstTag = intro.findIndex((line) => /^ \* @\w/.test(line));
  const at = firstTag === -1 ? intro.length - 1 : firstTag;
  const comment = [...intro.slice(0, at), ' *', ` * @packageDocumentation`, ` * @module ${name}`, ...intro.slice(at)].join('\n');
  await writeFile(`${entries}${slug}.ts`, `/**\n${comment.trimEnd()}\n */\nexport * from '${name}';\n`);
}
const { Application } = await import('typedoc');
const app = await Application.bootstrapWithPlugins({
  options: `${root}typedoc.json`,
  entryPoints: API_PACKAGES.map(({ slug }) => `${entries}${slug}.ts`),
});
const project = await app.convert();
if (project === undefined || app.logger.hasErrors()) throw new Error('TypeDoc could not convert the packages');
app.validate(project);
await app.generateOutputs(project);
await writeFile(`${root}.api-entries/api.json`, JSON.stringify(app.serializer.projectToObject(project, root)));
const warnings = app.logger.warningCount ?? 0;
console.log(`generated the reference pages and the API reference in ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (warnings > 0 || app.logger.hasErrors()) {
  console.error(`TypeDoc: ${warnings} warnings`);
  process.exit(1);
}

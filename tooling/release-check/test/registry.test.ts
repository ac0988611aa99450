// The release as a user meets it: a local registry (Verdaccio, on loopback, its own storage) gets
// every package published as the release pipeline publishes it (the tarballs `pnpm pack` makes,
// `npm publish`ed; provenance only in CI), then fresh projects outside the workspace install them
// by name with npm and pnpm, load them as ESM and CommonJS, type-check them with node16 and
// bundler resolution, run the READMEs' quick starts (against the sandbox run by `smsv4 sandbox`,
// and a Redis for the queue's), and build and test the Nest example copied out as its README
// says. Everything else comes through the registry from the public one; one npm cache and one
// pnpm store in the temporary folder serve every project (--prefer-offline).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startRedis } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pnpmCommand, published, root, run, type RunResult } from './workspace.js';

const work = mkdtempSync(join(tmpdir(), 'smsv4-registry-'));
/** Where the registry keeps the public packages it read, between runs on this machine. */
const KEPT = process.env.SMSV4_RELEASE_CHECK_CACHE ?? join(homedir(), '.cache', 'smsv4-release-check', 'public-packages');
let registry: ChildProcess | undefined;
/** The registry's last log lines (its errors: an uplink that failed, say), added to a failed install's message. */
const registryLog: string[] = [];
let registryUrl = '';
let env: Record<string, string> = {};
const version = (name: string): string => published.find((p) => p.name === name)?.manifest.version as string;

/** The environment of every npm and pnpm run: the workspace's own npm_* variables left out. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(npm_|pnpm_|PNPM_|INIT_CWD|NODE_OPTIONS|VITEST)/i.test(key)) continue;
    out[key] = value;
  }
  return { ...out, ...extra };
}

/** Starts Verdaccio and resolves with its port (bounded: 60 s). */
function startRegistry(home: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./start-registry.mjs', import.meta.url).pathname, home, KEPT], { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv({}) });
    registry = child;
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const timer = setTimeout(() => reject(new Error(`the registry did not start within 60 s: ${errors}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`the registry exited (${code}): ${errors}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{"port"')) {
        registryLog.push(line);
        if (registryLog.length > 40) registryLog.shift();
        return;
      }
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
}

/**
 * Runs an install (npm or pnpm); once more when it failed on what the registry read from the public
 * one (a 404 or 5xx it answered for a public package: a network fault between them, not a defect of
 * ours). A second failure rejects with both messages and the registry's last log lines.
 */
async function install(attempt: () => Promise<RunResult>): Promise<RunResult> {
  try {
    return await attempt();
  } catch (first) {
    const message = (first as Error).message;
    const publicFetch = /(ERR_PNPM_FETCH_|E404|E50\d|ETIMEDOUT|ECONNRESET|socket hang up)/.test(message) && !/@smsv4\/|\bsmsv4@/.test(/(?:GET|fetch(?:ing)?) \S+/.exec(message)?.[0] ?? '');
    if (!publicFetch) throw withRegistryLog(first as Error);
    return attempt().catch((second: unknown) => {
      throw withRegistryLog(new Error(`${(second as Error).message}\n(a second attempt; the first failed with: ${message.split('\n').slice(0, 8).join('\n')})`));
    });
  }
}

const withRegistryLog = (error: Error): Error => new Error(`${error.message}\nthe registry's last log lines:\n${registryLog.join('\n') || '(none)'}`);

/** Whether `args` install (then a fault between the registry and the public one is retried once). */
const installs = (args: string[]): boolean => args[0] === 'install' || args[0] === 'add';

const npm = (cwd: string, args: string[], timeoutMs = 180_000) => {
  const attempt = () => run('npm', args, { cwd, env, timeoutMs });
  return installs(args) ? install(attempt) : attempt();
};
const pnpm = (cwd: string, args: string[], timeoutMs = 180_000) => {
  const [command, prefix] = pnpmCommand();
  // pnpm has its own store (the machine's, shared with the workspace); the npm cache of this run is
  // left to npm, so that npx finds the pinned pnpm where it already is.
  const { npm_config_cache: _npmCache, ...pnpmEnv } = env;
  const attempt = () => run(command, [...prefix, ...args], { cwd, env: pnpmEnv, timeoutMs });
  return installs(args) ? install(attempt) : attempt();
};
const node = (cwd: string, args: string[]) => run(process.execPath, args, { cwd, env, timeoutMs: 60_000 });

/** A fresh project folder with a package.json. */
function project(name: string, manifest: Record<string, unknown> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...manifest }, null, 2));
  return dir;
}

/** The fenced blocks of `lang` in a section of a README (the section from `heading` to the next `## `). */
function readmeBlocks(dir: string, heading: string, lang: string): string[] {
  const text = readFileSync(join(root, dir, 'README.md'), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${dir}/README.md has no "${heading}"`);
  const section = text.slice(start + 1).split(/\n## /)[0] ?? '';
  const blocks = [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map((match) => `${match[1]}\n`);
  if (blocks.length === 0) throw new Error(`${dir}/README.md has no ${lang} block under "${heading}"`);
  return blocks;
}

/** The first fenced block of `lang` in a section of a README. */
const readmeBlock = (dir: string, heading: string, lang: string): string => readmeBlocks(dir, heading, lang)[0] as string;

/** The READMEs listen on fixed ports (4010, 3000); here the system picks them. */
function free(code: string, port: string): string {
  expect(code).toContain(port);
  return code.replaceAll(`port: ${port}`, 'port: 0').replace(`listen(${port},`, 'listen(0,');
}

/** `from` in a README's block, replaced by `to` (and there, or the README changed under the test). */
function substitute(code: string, from: string, to: string): string {
  expect(code).toContain(from);
  return code.replaceAll(from, to);
}

/** TypeScript as Node runs it (types stripped), with the workspace's compiler. */
async function transpile(code: string): Promise<string> {
  const { default: ts } = await import('typescript');
  return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
}

/** The version of a package the workspace installed for `dir`: what the machine's pnpm store holds. */
function workspaceVersion(name: string, dir: string): string {
  let manifest: string;
  try {
    manifest = createRequire(join(root, dir, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    manifest = join(root, dir, 'node_modules', name, 'package.json'); // a package whose exports leave out package.json
  }
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** A command left running, its standard output and standard error kept line by line. */
interface Background {
  readonly lines: string[];
  readonly errorLines: string[];
  /**
   * The first line (past or to come) of standard output (or `stderr`) matching `pattern`; rejects
   * at `timeoutMs` or when the command ends without it.
   */
  line(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<string>;
  /** Sends `SIGTERM` (then `SIGKILL` after 10 s) and resolves with the exit code, or the signal that ended it. */
  stop(): Promise<number | string>;
}

function background(command: string, args: string[], cwd: string): Background {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const errorLines: string[] = [];
  const waiting = new Set<() => void>();
  for (const [input, kept] of [[child.stdout, lines], [child.stderr, errorLines]] as const) {
    createInterface({ input }).on('line', (line) => {
      kept.push(line);
      for (const check of waiting) check();
    });
  }
  const errors = () => errorLines.join('\n');
  // Ended once its output is read to the end, so that no line it printed is missed.
  let ended = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => {
      ended = true;
      for (const check of waiting) check();
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  return {
    lines,
    errorLines,
    line: (pattern, stream = 'stdout', timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`${command} ${args.join(' ')} printed no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}\n${errors()}`)), timeoutMs);
        const finish = (error?: Error, line?: string) => {
          clearTimeout(timer);
          waiting.delete(check);
          if (error === undefined) resolve(line as string);
          else reject(error);
        };
        const check = () => {
          const found = (stream === 'stdout' ? lines : errorLines).find((line) => pattern.test(line));
          if (found !== undefined) finish(undefined, found);
          else if (ended) finish(new Error(`${command} ${args.join(' ')} ended without a line matching ${pattern}:\n${lines.join('\n')}\n${errors()}`));
        };
        waiting.add(check);
        check();
      }),
    async stop() {
      if (!ended) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** What `npm publish` of a tarball answered outside a CI with an identity token (publishConfig asks for provenance). */
let laptopPublish = '';

/** Publishes a tarball as from a laptop (no CI, no identity token); resolves with npm's error, or '' when it published. */
async function refusedOutsideCi(packs: string, tarball: string): Promise<string> {
  const laptop = Object.fromEntries(Object.entries(env).filter(([key]) => !/^(CI|GITHUB_.*|ACTIONS_.*|GITLAB_.*|BUILDKITE.*|CIRCLECI)$/.test(key)));
  return run('npm', ['publish', join(packs, tarball)], { cwd: packs, env: laptop, timeoutMs: 60_000 }).then(
    () => '',
    (error: Error) => error.message,
  );
}

/**
 * Type-checks the queue in the pnpm project with node16 and bundler resolution: its README campaign, and
 * a program passing its own ioredis in and taking BullMQ's queue out. Started once the projects are
 * installed, so that it runs beside the quick starts.
 */
function typeCheckQueue(): Promise<unknown> {
  const dir = join(pnpmConsumer, 'types');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'campaign.ts'), readmeBlock('packages/queue', '## A campaign', 'ts'));
  // The project's own ioredis instance goes in, the queue's BullMQ queue comes out as the project's
  // BullMQ type: one copy of each (peers), so the types are the same classes.
  writeFileSync(
    join(dir, 'shared-peers.ts'),
    `import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createSendQueue, type SendQueue } from '@smsv4/queue';
export function make(redis: Redis): SendQueue {
  return createSendQueue({ connection: redis, name: 'typed', clientOptions: { baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password' } });
}
export const bull = (queue: SendQueue): Queue => queue.bullQueue;
`,
  );
  // Bounded at 3 minutes: it shares the processor with the tests running meanwhile.
  return checkBoth(pnpmConsumer, 180_000);
}

/**
 * Type-checks `dir`'s types/*.ts with node16 and with bundler resolution (tsconfig.node16.json and
 * tsconfig.bundler.json, written here), in one tsc (build mode: the two projects share what both
 * read, TypeScript's own libraries and Node's types); `--verbose` names the project of each error.
 * The workspace's TypeScript and Node types; every other type comes from the installed packages.
 */
function checkBoth(dir: string, timeoutMs: number): Promise<RunResult> {
  const common = { target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')], lib: ['es2023', 'dom'] };
  writeFileSync(join(dir, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...common, module: 'node16', moduleResolution: 'node16' }, include: ['types/*.ts'] }));
  writeFileSync(join(dir, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...common, module: 'esnext', moduleResolution: 'bundler' }, include: ['types/*.ts'] }));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(process.execPath, [tsc, '-b', '--force', '--verbose', 'tsconfig.node16.json', 'tsconfig.bundler.json'], { cwd: dir, env, timeoutMs });
}

/**
 * Writes the Nest module's README example into its project (main.ts as the README has it, and a copy
 * on a free port to run) with the README's tsconfig.json, and type-checks both with tsc.
 */
function typeCheckNestExample(): Promise<unknown> {
  const dir = nestQuickStart;
  writeFileSync(join(dir, 'tsconfig.json'), readmeBlock('packages/nest-module', '### Project settings', 'json'));
  const code = readmeBlock('packages/nest-module', '## Example', 'ts');
  expect(code).toMatch(/^\/\/ main\.ts\n/);
  writeFileSync(join(dir, 'main.ts'), code);
  // The README listens on 3000; here the system picks the port, and the callback URL follows it.
  let local = substitute(code, "await app.listen(3000, '127.0.0.1');", "await app.listen(0, '127.0.0.1');\nconst port: number = app.getHttpServer().address().port;");
  local = substitute(local, '@127.0.0.1:3000/sms/callbacks', '@127.0.0.1:${port}/sms/callbacks');
  mkdirSync(join(dir, 'local'));
  writeFileSync(join(dir, 'local', 'main.ts'), local);
  return run(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit'], { cwd: dir, env, timeoutMs: 180_000 });
}

let consumer = '';
/** A project set up as the Nest module's README says (an ES module, Nest, TypeScript, tsx), installed with pnpm. */
let nestQuickStart = '';
/** The type-checks started once the projects are installed (awaited by their tests). */
let queueTypes: Promise<unknown> = Promise.resolve();
let nestTypes: Promise<unknown> = Promise.resolve();
/** A project installed with pnpm: the queue with its peers, and the testing kit with vitest and express. */
let pnpmConsumer = '';

beforeAll(async () => {
  const port = await startRegistry(join(work, 'registry'));
  registryUrl = `http://127.0.0.1:${port}/`;
  const signup = await fetch(`${registryUrl}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: 'release-check' }),
    signal: AbortSignal.timeout(30_000),
  });
  const { token } = (await signup.json()) as { token: string };
  const host = registryUrl.replace(/^http:/, '');
  writeFileSync(join(work, 'npmrc'), `registry=${registryUrl}\n${host}:_authToken=${token}\n`);
  env = cleanEnv({
    NPM_CONFIG_USERCONFIG: join(work, 'npmrc'),
    npm_config_registry: registryUrl,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_prefer_offline: 'true',
    npm_config_fetch_retries: '5',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
    CI: 'true',
  });
  // The pipeline's publish: pnpm packs (workspace ranges become versions; packed once for the run,
  // test/pack-once.ts) and npm publishes each tarball. publishConfig asks for provenance, which only a CI with an identity token can sign.
  const packs = inject('packs');
  const tarballs = readdirSync(packs).filter((file) => file.endsWith('.tgz'));
  expect(tarballs).toHaveLength(published.length);
  laptopPublish = await refusedOutsideCi(packs, tarballs.find((file) => file.startsWith('smsv4-core-')) ?? '');
  await Promise.all(tarballs.map((tarball) => npm(packs, ['publish', join(packs, tarball), '--provenance=false'])));
  // One project installs what the others share (the cache then serves them offline).
  consumer = project('consumer', { type: 'module' });
  pnpmConsumer = project('pnpm-consumer', { type: 'module' });
  // Every install ends before a failure is reported (none is left writing while the folder is removed).
  const installed = await Promise.allSettled([
    (async () => {
      await npm(consumer, ['install', `@smsv4/express-webhooks`, 'express']);
      await npm(consumer, [
        'install',
        ...published.filter(({ name }) => name !== '@smsv4/queue').map(({ name }) => name),
        'fastify',
        'hono',
        '@hono/node-server',
      ]);
    })(),
    // The queue with the lowest tested versions of its peers; the testing kit's quick start with the
    // vitest and express the workspace has (so the machine's store holds them: nothing downloaded).
    pnpm(pnpmConsumer, [
      'add',
      '--prefer-offline',
      '@smsv4/queue',
      'bullmq@5.81.5',
      'ioredis@5.11.1',
      '@smsv4/testing',
      '@smsv4/express-webhooks',
      `express@${workspaceVersion('express', 'packages/express-webhooks')}`,
      `vitest@${workspaceVersion('vitest', 'packages/testing')}`,
    ]),
    (async () => {
      // The Nest module's README: its install line and its project settings (`npm pkg set type=module`,
      // TypeScript, tsx, Node's types), with the versions the workspace has (nothing downloaded).
      nestQuickStart = project('nest-quick-start', { type: 'module' });
      const from = (name: string) => `${name}@${workspaceVersion(name, 'apps/nest-example')}`;
      await pnpm(nestQuickStart, ['add', '--prefer-offline', '@smsv4/nest-module', ...['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', 'reflect-metadata', 'rxjs'].map(from)]);
      await pnpm(nestQuickStart, ['add', '--prefer-offline', '--save-dev', '@smsv4/sandbox', from('typescript'), from('@types/node'), `tsx@${workspaceVersion('tsx', 'packages/cli')}`]);
    })(),
  ]);
  for (const result of installed) if (result.status === 'rejected') throw result.reason;
  // Left running beside the next tests; a failure is reported by the test that awaits it.
  queueTypes = typeCheckQueue();
  nestTypes = typeCheckNestExample();
  for (const started of [queueTypes, nestTypes]) started.catch(() => undefined);
}, 600_000);

afterAll(async () => {
  const child = registry;
  if (child !== undefined && child.exitCode === null) {
    // It keeps the public packages it read, then exits; bounded at 60 s, then killed.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(work, { recursive: true, force: true });
}, 90_000);

describe('installed by name from a registry', () => {
  it('serves every package at its version', async () => {
    // What `npm view <name> version` reads: the package's document, its latest tag (one npm run shows it).
    for (const { name } of published) {
      const answer = await fetch(`${registryUrl}${name.replace('/', '%2f')}`, { signal: AbortSignal.timeout(10_000) });
      expect(answer.status, name).toBe(200);
      const document = (await answer.json()) as { 'dist-tags': Record<string, string>; versions: Record<string, unknown> };
      expect(document['dist-tags'].latest, name).toBe(version(name));
      expect(Object.keys(document.versions), name).toEqual([version(name)]);
    }
    const { stdout } = await npm(consumer, ['view', '@smsv4/core', 'version']);
    expect(stdout.trim()).toBe(version('@smsv4/core'));
  });

  it('npm install @smsv4/express-webhooks: the receiver answers a receipt', async () => {
    writeFileSync(
      join(consumer, 'receiver.mjs'),
      `import express from 'express';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
const seen = [];
const app = express().use('/cb', createWebhookMiddleware({ allowUnauthenticated: true, async onDeliveryReceipt(r) { seen.push(r.mtStatus.ticketId); } }));
const server = app.listen(0, '127.0.0.1', async () => {
  const res = await fetch('http://127.0.0.1:' + server.address().port + '/cb', {
    method: 'POST', headers: { 'x-api-version': '4', 'content-type': 'application/xml; charset=UTF-8' },
    body: '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" code="4" description="Message delivered"/></deliveryReceipt>',
    signal: AbortSignal.timeout(10000),
  });
  console.log(res.status, seen.join());
  server.close();
});
`,
    );
    expect((await node(consumer, ['receiver.mjs'])).stdout).toBe('200 44101-0922I-13413-21GDL\n');
  });

  it('publishConfig asks for provenance: a publish from outside CI is refused before anything is sent', () => {
    expect(laptopPublish).toMatch(/provenance/i);
    expect(laptopPublish).toMatch(/EUSAGE/);
  });

  it('npx smsv4 --version', async () => {
    const { stdout } = await run('npx', ['smsv4', '--version'], { cwd: consumer, env, timeoutMs: 60_000 });
    expect(stdout.trim()).toBe(version('smsv4'));
  });

  it('every entry point loads as ESM and as CommonJS with the same names', async () => {
    const entries = published
      .filter(({ name }) => name !== '@smsv4/queue')
      .flatMap(({ name, manifest }) =>
      Object.keys(manifest.exports as Record<string, unknown>)
        .filter((key) => key !== './package.json' && !['./vitest', './jest', './otel'].includes(key))
        .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`)),
    );
    expect(entries).toContain('@smsv4/core/segments');
    const script = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const id of ${JSON.stringify(entries)}) {
  const esm = Object.keys(await import(id)).filter((k) => k !== 'default').sort();
  const cjs = Object.keys(require(id)).filter((k) => k !== 'default' && k !== '__esModule').sort();
  out[id] = esm.length > 0 && JSON.stringify(esm) === JSON.stringify(cjs) ? 'same' : { esm, cjs };
}
console.log(JSON.stringify(out));
`;
    writeFileSync(join(consumer, 'load.mjs'), script);
    const loaded = JSON.parse((await node(consumer, ['load.mjs'])).stdout) as Record<string, unknown>;
    expect(loaded).toEqual(Object.fromEntries(entries.map((id) => [id, 'same'])));
  });

  it('type-checks with node16 and with bundler resolution (the README examples included)', async () => {
    const dir = join(consumer, 'types');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'core.ts'), readmeBlock('packages/core', '## At a glance', 'ts'));
    writeFileSync(join(dir, 'transport-fetch.ts'), readmeBlock('packages/transport-fetch', '## Example', 'ts'));
    writeFileSync(join(dir, 'fastify-webhooks.ts'), readmeBlock('packages/fastify-webhooks', '## Example', 'ts'));
    writeFileSync(
      join(dir, 'every-package.ts'),
      `${published
        .filter(({ name }) => name !== '@smsv4/queue')
        .map(({ name }, i) => `import * as p${i} from '${name}';\nexport const n${i}: number = Object.keys(p${i}).length;`)
        .join('\n')}\nimport { estimateSegments } from '@smsv4/core/segments';\nexport const parts: number = estimateSegments('hi').segments;\n`,
    );
    await checkBoth(consumer, 90_000);
  });

  it('runs the quick starts of core and transport-fetch (against the sandbox, installed by name)', async () => {
    writeFileSync(join(consumer, 'core-quick-start.mjs'), `${await transpile(readmeBlock('packages/core', '## At a glance', 'ts'))}\nconsole.log(JSON.stringify(result));\n`);
    expect(JSON.parse((await node(consumer, ['core-quick-start.mjs'])).stdout)).toEqual({
      ok: false,
      error: { code: '540', description: 'Invalid request - destination address value is invalid', rule: 'destinationAddress' },
    });
    writeFileSync(join(consumer, 'client-quick-start.mjs'), await transpile(readmeBlock('packages/transport-fetch', '## Example', 'ts')));
    const lines = (await node(consumer, ['client-quick-start.mjs'])).stdout.trim().split('\n');
    // The README's comments: ticket id, request id and 202; 4 Message delivered; each part delivered; the lookup; 202.
    expect(lines[0]).toMatch(/^\S+ \S+ 202$/);
    expect(lines.slice(1)).toEqual(['4 Message delivered', '1 4', '2 4', 'Sample EE 160', '202']);
  });

  it('runs the quick starts of the sandbox, express-webhooks and fastify-webhooks, then their curl steps', async () => {
    // What the README's curl lines do follows each quick start, and then it closes.
    const post = (url: string, auth: string, type: string, body: string): string =>
      `await fetch(${url}, { method: 'POST', headers: { authorization: 'Basic ' + btoa('${auth}'), 'x-api-version': '4', 'content-type': '${type}' }, body: ${JSON.stringify(body)}, signal: AbortSignal.timeout(10000) })`;
    const receipt =
      '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" code="4" description="Message delivered"/></deliveryReceipt>';

    const sandbox = `${await transpile(free(readmeBlock('packages/sandbox', '## Quick start', 'ts'), '4010'))}
const sent = ${post('`${server.url}/sms/v4/mt`', 'sandbox:sandbox-password', 'application/json', '{"mobileTerminate":{"destination":{"address":"14155550100"},"message":{"type":"text","content":"Hello"}}}')};
console.log(sent.status, (sent.headers.get('location') ?? '').startsWith(server.url + '/sms/v4/mt/'));
await server.close();
await sandbox.close();
`;
    writeFileSync(join(consumer, 'sandbox-quick-start.mjs'), sandbox);
    const sandboxLines = (await node(consumer, ['sandbox-quick-start.mjs'])).stdout.trim().split('\n');
    expect(sandboxLines[0]).toMatch(/^API http:\/\/127\.0\.0\.1:\d+, dashboard http:\/\/127\.0\.0\.1:\d+\/__sandbox\/#token=\S+$/);
    expect(sandboxLines[1]).toBe('202 true');

    const express = `${await transpile(free(readmeBlock('packages/express-webhooks', '## Example', 'ts'), '3000'))}
server.on('listening', async () => {
  const url = 'http://127.0.0.1:' + server.address().port + '/sms/callbacks';
  const first = ${post('url', 'openmarket:change-me', 'application/xml; charset=UTF-8', receipt)};
  const again = ${post('url', 'openmarket:change-me', 'application/xml; charset=UTF-8', receipt)};
  const anonymous = await fetch(url, { method: 'POST', headers: { 'x-api-version': '4', 'content-type': 'application/xml' }, body: 'x', signal: AbortSignal.timeout(10000) });
  const plain = ${post('url', 'openmarket:change-me', 'text/plain', 'x')};
  console.log(first.status, again.status, anonymous.status, plain.status);
  process.emit('SIGTERM');
});
`;
    writeFileSync(join(consumer, 'express-quick-start.mjs'), express);
    const expressLines = (await node(consumer, ['express-quick-start.mjs'])).stdout.trim().split('\n');
    // The README: 200 and the receipt printed; again 200 and nothing printed; without -u 401; text/plain 415.
    expect(expressLines.slice(1)).toEqual(['receipt 44101-0922I-13413-21GDL: 4 Message delivered', '200 200 401 415']);

    const fastify = `${await transpile(free(readmeBlock('packages/fastify-webhooks', '## Example', 'ts'), '3000'))}
const url = 'http://127.0.0.1:' + app.server.address().port + '/sms/callbacks';
const first = ${post('url', 'openmarket:change-me', 'application/xml; charset=UTF-8', receipt)};
console.log('status', first.status);
await app.close();
`;
    writeFileSync(join(consumer, 'fastify-quick-start.mjs'), fastify);
    const fastifyOut = (await node(consumer, ['fastify-quick-start.mjs'])).stdout;
    expect(fastifyOut).toContain('"msg":"Message delivered"');
    expect(fastifyOut).toContain('status 200\n');
  });

  it("runs the command line's README example with its exact output and exit status", async () => {
    const script = readmeBlock('packages/cli', '## Example', 'sh');
    const text = readFileSync(join(root, 'packages/cli/README.md'), 'utf8');
    const [invalid, valid] = [...text.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]);
    const failed = await run('bash', ['-c', script], { cwd: consumer, env, timeoutMs: 60_000 }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toContain('Command failed'); // exit status 1
    expect(failed).toContain(invalid);
    writeFileSync(join(consumer, 'mt.json'), readFileSync(join(consumer, 'mt.json'), 'utf8').replace('"+14155550100"', '"14155550100"'));
    const { stdout } = await run('npx', ['smsv4', 'validate', 'mt.json'], { cwd: consumer, env, timeoutMs: 60_000 });
    expect(stdout).toBe(valid);
  });

  it('pnpm add @smsv4/queue: bullmq and ioredis are peers the project shares, lowest tested versions', async () => {
    const dir = pnpmConsumer;
    writeFileSync(
      join(dir, 'load.cjs'),
      `const { realpathSync } = require('node:fs');
const queue = require('@smsv4/queue');
const fromQueue = require.resolve('bullmq', { paths: [realpathSync(require.resolve('@smsv4/queue'))] });
console.log(typeof queue.createSendQueue, realpathSync(fromQueue) === realpathSync(require.resolve('bullmq')), require('bullmq/package.json').version);
`,
    );
    expect((await node(dir, ['load.cjs'])).stdout).toBe('function true 5.81.5\n');
    writeFileSync(join(dir, 'load.mjs'), "import { createSendQueue } from '@smsv4/queue';\nconsole.log(typeof createSendQueue);\n");
    expect((await node(dir, ['load.mjs'])).stdout).toBe('function\n');
  });

  it('type-checks the queue with node16 and bundler resolution: its README campaign, and the BullMQ and ioredis classes of the project passed in and out', async () => {
    await queueTypes;
  });

  it("runs the testing kit's quick start (its vitest set-up and the receiver test) with vitest: 2 passed, 0 failed", async () => {
    const config = readmeBlock('packages/testing', '## Set up your runner', 'ts');
    expect(config).toMatch(/^\/\/ vitest\.config\.ts\n/);
    writeFileSync(join(pnpmConsumer, 'vitest.config.ts'), config);
    const test = readmeBlock('packages/testing', '## Test a receiver', 'ts');
    expect(test).toMatch(/^\/\/ receiver\.test\.ts\n/);
    writeFileSync(join(pnpmConsumer, 'receiver.test.ts'), test);
    // `npx vitest run` as the README says, with a report to count from.
    await run(join(pnpmConsumer, 'node_modules/.bin/vitest'), ['run', '--reporter=json', '--outputFile=report.json'], { cwd: pnpmConsumer, env, timeoutMs: 120_000 });
    const report = JSON.parse(readFileSync(join(pnpmConsumer, 'report.json'), 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: { assertionResults: { title: string; status: string }[] }[];
    };
    expect(report).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
    const titles = [...test.matchAll(/^it\('([^']+)'/gm)].map((match) => match[1]);
    expect(report.testResults.flatMap((file) => file.assertionResults.map(({ title, status }) => [title, status]))).toEqual(titles.map((title) => [title, 'passed']));
  });

  describe('against the sandbox, run as `npx smsv4 sandbox` runs it', () => {
    let sandbox: Background | undefined;
    let sandboxUrl = '';
    let adminToken = '';

    beforeAll(async () => {
      // The installed command line, on a port the system picks (the README's 4010 replaced below).
      sandbox = background(join(consumer, 'node_modules/.bin/smsv4'), ['sandbox', '--port', '0'], consumer);
      sandboxUrl = /^\s*API\s+(http:\/\/127\.0\.0\.1:\d+)$/.exec(await sandbox.line(/^\s*API\s+http/))?.[1] ?? '';
      adminToken = /Bearer (\S+)$/.exec(await sandbox.line(/^\s*Admin API\s+Authorization: Bearer \S+$/))?.[1] ?? '';
      expect(sandboxUrl).not.toBe('');
    });

    afterAll(async () => {
      // Ctrl+C stops it: SIGTERM too, with status 0.
      if (sandbox !== undefined) expect(await sandbox.stop()).toBe(0);
    });

    it("runs fetch-webhooks' Hono quick start and its send.ts: the sandbox posts the receipt with the URL's credentials, the receiver prints it", async () => {
      const [receiverCode = '', sendCode = ''] = readmeBlocks('packages/fetch-webhooks', '## Quick start: Hono', 'ts');
      expect(receiverCode).toMatch(/^\/\/ receiver\.ts/);
      expect(sendCode).toMatch(/^\/\/ send\.ts/);
      writeFileSync(join(consumer, 'hono-receiver.mjs'), await transpile(free(receiverCode, '3000')));
      const receiver = background(process.execPath, ['hono-receiver.mjs'], consumer);
      try {
        const listening = await receiver.line(/^listening on /);
        const port = /^listening on http:\/\/127\.0\.0\.1:(\d+)\/sms\/callbacks$/.exec(listening)?.[1];
        expect(port, listening).toBeDefined();
        const send = substitute(substitute(sendCode, 'http://127.0.0.1:4010', sandboxUrl), '@127.0.0.1:3000/', `@127.0.0.1:${port}/`);
        writeFileSync(join(consumer, 'hono-send.mjs'), await transpile(send));
        const { stdout } = await node(consumer, ['hono-send.mjs']);
        const ticket = /^accepted \(202\): ticket (\S+)\n$/.exec(stdout)?.[1];
        expect(ticket, stdout).toBeDefined();
        await receiver.line(/^receipt /);
        expect(receiver.lines).toEqual([listening, `receipt ${ticket}: 4 Message delivered`]);
      } finally {
        await receiver.stop();
      }
      expect(receiver.errorLines).toEqual([]);
    });

    it("runs the queue's campaign twice against a Redis and the sandbox: the message sent once, the invalid one refused at the door each time", async () => {
      // A Redis that keeps what it acknowledged, as the README asks (so the queue has nothing to warn about).
      const redis = await startRedis({ teardown: 'manual', args: ['--appendonly', 'yes', '--dir', mkdtempSync(join(work, 'redis-'))] });
      try {
        let code = readmeBlock('packages/queue', '## A campaign', 'ts');
        expect(code).toMatch(/^\/\/ campaign\.ts\n/);
        code = substitute(code, 'port: 6379', `port: ${redis.port}`);
        code = substitute(code, "'http://127.0.0.1:4010'", `'${sandboxUrl}'`);
        writeFileSync(join(pnpmConsumer, 'campaign.mjs'), await transpile(code));
        /** Runs the script until `until` (then SIGTERM: the README's shutdown); its exit status and output. */
        const campaign = async (until: (script: Background) => Promise<unknown>) => {
          const script = background(process.execPath, ['campaign.mjs'], pnpmConsumer);
          const waited = await until(script).then(
            () => undefined,
            (error: unknown) => error,
          );
          const status = await script.stop();
          if (waited !== undefined) throw waited;
          return { status, lines: script.lines, errorLines: script.errorLines };
        };
        const refused = 'Invalid request - destination address value is invalid';
        expect(await campaign((script) => script.line(/^black-friday:c1: accepted$/))).toEqual({
          status: 0,
          lines: ['black-friday:c1: queued', 'black-friday:c1: sending', 'black-friday:c1: accepted'],
          errorLines: [refused],
        });
        // "Run it again: the same warning, nothing else (nothing is sent twice)."
        expect(await campaign((script) => script.line(/destination address/, 'stderr'))).toEqual({ status: 0, lines: [], errorLines: [refused] });
        const answer = await fetch(`${sandboxUrl}/__sandbox/api/messages`, { headers: { authorization: `Bearer ${adminToken}` }, signal: AbortSignal.timeout(10_000) });
        const { messages } = (await answer.json()) as { messages: { destination: string; content: string }[] };
        expect(messages.filter(({ content }) => content.includes('30 % off')).map(({ destination, content }) => [destination, content])).toEqual([
          ['14155550100', 'Hi Ada, 30 % off until midnight.'],
        ]);
      } finally {
        await redis.close();
      }
    });
  });

  it('apps/nest-example, copied out as its README says, installs by name, builds and passes its test', async () => {
    const dir = join(work, 'nest-example');
    for (const entry of ['src', 'test', 'tsconfig.json', 'tsconfig.build.json', 'vitest.config.mts', 'package.json']) {
      cpSync(join(root, 'apps/nest-example', entry), join(dir, entry), { recursive: true });
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const field of ['dependencies', 'devDependencies']) {
      const deps = manifest[field] ?? {};
      for (const [name, range] of Object.entries(deps)) {
        if (!range.startsWith('workspace:')) continue;
        if (published.some((p) => p.name === name)) deps[name] = version(name);
        else delete deps[name]; // the repository's lint configuration
      }
    }
    delete manifest.scripts?.lint;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    // pnpm, with the machine's store: TypeScript, vitest and Nest are not downloaded again.
    await pnpm(dir, ['install', '--prefer-offline']);
    await pnpm(dir, ['run', 'build']);
    await pnpm(dir, ['test'], 120_000);
    const report = JSON.parse(readFileSync(join(dir, 'test-results.json'), 'utf8')) as { numPassedTests: number; numFailedTests: number };
    expect(report.numFailedTests).toBe(0);
    expect(report.numPassedTests).toBeGreaterThan(0);
  }, 480_000);

  it("runs the Nest module's README example with its project settings: type-checked by tsc, run by tsx, against the sandbox", async () => {
    const dir = nestQuickStart; // installed as the README says, main.ts type-checked from then on (beforeAll)
    // tsx runs the README's main.ts (on a free port); tsc checks it with the README's tsconfig.json.
    const [{ stdout }] = await Promise.all([run(join(dir, 'node_modules/.bin/tsx'), ['local/main.ts'], { cwd: dir, env: { ...env, NO_COLOR: '1' }, timeoutMs: 60_000 }), nestTypes]);
    const lines = stdout.split('\n');
    expect(lines.some((line) => /^\[Nest\] .* LOG \[SmsWebhooks\] Receiving callbacks at \/sms\/callbacks: receipts → SmsEvents\.onReceipt; inbound messages → SmsEvents\.onInbound$/.test(line)), stdout).toBe(true);
    const own = lines.filter((line) => /^(sent|inbound|receipt) /.test(line));
    const ticket = /^sent (\S+)$/.exec(own[0] ?? '')?.[1];
    expect(ticket, stdout).toBeDefined();
    // The README's lines: sent first, then the STOP and the receipt, in either order.
    expect(own[0]).toBe(`sent ${ticket}`);
    expect(own.slice(1).sort()).toEqual([expect.stringMatching(/^inbound \S+: STOP$/), `receipt ${ticket}: 4 Message delivered`]);
  }, 240_000);
});

/**
 * Runs the README recipes in real runtimes: each recipe is bundled with esbuild (against the built
 * package) and started in its runtime on loopback; its store posts every saved event to a collector
 * in the test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeliveryReceipt, InboundMessage } from '@smsv4/fetch-webhooks';
import { build, type Platform } from 'esbuild';
import { EdgeRuntime, runServer } from 'edge-runtime';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');
const require = createRequire(import.meta.url);

/** What the recipes' store received, and the saves it must fail. */
export interface Collector {
  readonly url: string;
  readonly receipts: DeliveryReceipt[];
  readonly inbound: InboundMessage[];
  /** Receipt ticket IDs or inbound senders whose next saves answer 500. */
  readonly failNext: Map<string, number>;
  close(): Promise<void>;
}

/** Starts the collector the recipes' store posts to. */
export async function startCollector(): Promise<Collector> {
  const receipts: DeliveryReceipt[] = [];
  const inbound: InboundMessage[] = [];
  const failNext = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as DeliveryReceipt & InboundMessage;
      const key = req.url === '/receipt' ? value.mtStatus.ticketId : value.source.address;
      const failures = failNext.get(key) ?? 0;
      if (failures > 0) {
        failNext.set(key, failures - 1);
        res.writeHead(500).end();
        return;
      }
      if (req.url === '/receipt') receipts.push(value);
      else inbound.push(value);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    inbound,
    failNext,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A recipe running in its runtime. */
export interface RunningRecipe {
  /** The receiving URL (`.../sms/callbacks`). */
  readonly url: string;
  stop(): Promise<void>;
}

/** A runtime the recipes run in: `binary` is `undefined` for the ones that run inside Node. */
export interface RuntimeCase {
  readonly name: string;
  /** Why it cannot run here (its package did not install its binary), or `undefined`. */
  readonly unavailable: string | undefined;
  start(collectorUrl: string, workDir: string): Promise<RunningRecipe>;
}

async function bundle(entry: string, outfile: string, collectorUrl: string, platform: Platform, format: 'esm' | 'iife'): Promise<void> {
  await build({
    entryPoints: [join(here, entry)],
    outfile,
    bundle: true,
    format,
    platform,
    target: 'es2022',
    conditions: platform === 'node' ? [] : ['workerd', 'worker', 'edge-light', 'browser'],
    alias: { '@smsv4/fetch-webhooks': join(packageDir, 'dist', 'index.js') },
    define: { COLLECTOR_URL: JSON.stringify(collectorUrl) },
    logLevel: 'silent',
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Ends a child process: SIGTERM, then SIGKILL if it is still there after two seconds. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts a process and waits until the receiving URL answers (any status), at most `timeoutMs`;
 * rejects with the process's output when it exits or never answers.
 */
async function startProcess(command: string, args: string[], env: Record<string, string>, url: string, timeoutMs = 30_000): Promise<RunningRecipe> {
  const child = spawn(command, args, { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before it answered:\n${output}`);
    const answered = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (answered) return { url, stop: () => stopChild(child) };
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`${command} did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The binary a registry package ships, or why it is not there. */
function binaryOf(packageName: string, relative: string): { path: string } | { missing: string } {
  let dir: string;
  try {
    dir = dirname(require.resolve(`${packageName}/package.json`));
  } catch (e) {
    return { missing: `the npm package ${packageName} is not installed (${(e as Error).message})` };
  }
  const path = join(dir, relative);
  return existsSync(path) ? { path } : { missing: `the npm package ${packageName} installed no binary at ${relative} on ${process.platform}-${process.arch}` };
}

/** The platform package of workerd holding its binary (installed by workerd as an optional dependency). */
function workerdBinary(): { path: string } | { missing: string } {
  const name = `@cloudflare/workerd-${process.platform}-${process.arch === 'x64' ? '64' : process.arch}`;
  try {
    const dir = dirname(createRequire(require.resolve('workerd/package.json')).resolve(`${name}/package.json`));
    const path = join(dir, 'bin', 'workerd');
    return existsSync(path) ? { path } : { missing: `${name} has no bin/workerd` };
  } catch (e) {
    return { missing: `workerd's platform package ${name} did not install (${(e as Error).message})` };
  }
}

const nodeRecipe = (name: string, entry: string): RuntimeCase => ({
  name,
  unavailable: undefined,
  async start(collectorUrl, workDir) {
    const outfile = join(workDir, `${entry.replace(/\W+/g, '-')}.mjs`);
    await bundle(entry, outfile, collectorUrl, 'node', 'esm');
    const port = await freePort();
    return startProcess(process.execPath, [outfile], { PORT: String(port) }, `http://127.0.0.1:${port}/sms/callbacks`);
  },
});

const bun = binaryOf('bun', 'bin/bun.exe');
const deno = binaryOf('deno', 'bin.cjs');
const denoBinary = ((): { path: string } | { missing: string } => {
  if ('missing' in deno) return deno;
  const name = `@deno/${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}`;
  try {
    const dir = dirname(createRequire(require.resolve('deno/package.json')).resolve(`${name}/package.json`));
    const path = join(dir, 'deno');
    return existsSync(path) ? { path } : { missing: `${name} has no deno binary` };
  } catch (e) {
    return { missing: `deno's platform package ${name} did not install (${(e as Error).message})` };
  }
})();
const workerd = workerdBinary();

/** Every runtime of the README, in the order of the README. */
export const RUNTIMES: readonly RuntimeCase[] = [
  nodeRecipe('Hono on Node', '../recipes/hono.ts'),
  nodeRecipe('Next.js route handler on Node', 'next-on-node.ts'),
  {
    name: "Next.js route handler on Vercel's Edge Runtime (edge-runtime)",
    unavailable: undefined,
    async start(collectorUrl, workDir) {
      const outfile = join(workDir, 'next-on-edge.js');
      await bundle('next-on-edge.ts', outfile, collectorUrl, 'browser', 'iife');
      const { readFileSync } = await import('node:fs');
      const runtime = new EdgeRuntime({ initialCode: readFileSync(outfile, 'utf8') });
      const server = await runServer({ runtime, port: 0, host: '127.0.0.1' });
      return { url: `${server.url.replace(/\/$/, '')}/sms/callbacks`, stop: () => server.close() };
    },
  },
  {
    name: 'Bun.serve (bun)',
    unavailable: 'missing' in bun ? bun.missing : undefined,
    async start(collectorUrl, workDir) {
      const outfile = join(workDir, 'bun.mjs');
      await bundle('../recipes/bun.ts', outfile, collectorUrl, 'browser', 'esm');
      const port = await freePort();
      return startProcess((bun as { path: string }).path, ['run', outfile], { PORT: String(port), BUN_INSTALL_CACHE_DIR: join(workDir, 'bun-cache') }, `http://127.0.0.1:${port}/sms/callbacks`);
    },
  },
  {
    name: 'Deno.serve (deno)',
    unavailable: 'missing' in denoBinary ? denoBinary.missing : undefined,
    async start(collectorUrl, workDir) {
      const outfile = join(workDir, 'deno.mjs');
      await bundle('../recipes/deno.ts', outfile, collectorUrl, 'browser', 'esm');
      const port = await freePort();
      return startProcess(
        (denoBinary as { path: string }).path,
        ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env=PORT', outfile],
        { PORT: String(port), DENO_DIR: join(workDir, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' },
        `http://127.0.0.1:${port}/sms/callbacks`,
      );
    },
  },
  {
    name: 'Cloudflare Worker (workerd)',
    unavailable: 'missing' in workerd ? workerd.missing : undefined,
    async start(collectorUrl, workDir) {
      const outfile = join(workDir, 'worker.mjs');
      await bundle('../recipes/worker.ts', outfile, collectorUrl, 'browser', 'esm');
      const port = await freePort();
      const config = join(workDir, 'config.capnp');
      writeFileSync(
        config,
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The store's collector is on loopback: let the worker reach local addresses only.
    (name = "internet", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.mjs") ],
  compatibilityDate = "2025-01-01",
);
`,
      );
      return startProcess((workerd as { path: string }).path, ['serve', config], {}, `http://127.0.0.1:${port}/sms/callbacks`);
    },
  },
];

/** A fresh folder for the bundles of one run. */
export function workFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'smsv4-runtimes-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

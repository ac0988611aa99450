// The blocks marked `runnable` run as a reader would run them (tsx), against the sandbox: the
// sends of a page must be accepted (a ticket ID printed) and each of the page's receivers (blocks
// marked `runnable server`) must receive the sandbox's callback for every ticket sent.
// The pages use the sandbox's default address (127.0.0.1:4010) and port 3000 for receivers; the
// test gives both free ports. Each process is bounded: 60 s to start listening or to finish (tsx compiles at start; the
// bound is for a loaded machine, a passing run takes seconds).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createSandbox, type Sandbox, type SandboxServer } from '@smsv4/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { blocksOf, CHECK_DIR, pages, type CodeBlock } from './code-blocks.js';

const BOUND_MS = 60_000;
/** A ticket ID as the sandbox makes them (`7K2QD-0M4ZP-V8X1A-93TRC`). */
const TICKET = /\b[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3}\b/g;
const TSX = createRequire(import.meta.url).resolve('tsx');

interface Running {
  readonly child: ChildProcess;
  output: string;
  /** What it wrote to standard error alone. */
  errors: string;
  readonly exited: Promise<number | null>;
}

/** Starts a block with tsx, as `npx tsx file.ts` would. */
function run(file: string): Running {
  const child = spawn(process.execPath, ['--import', TSX, file], { cwd: dirname(file), stdio: ['ignore', 'pipe', 'pipe'] });
  const running: Running = {
    child,
    output: '',
    errors: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (running.output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    running.output += chunk;
    running.errors += chunk;
  });
  return running;
}

/** Waits for a process to end (killed at the bound); its exit code. */
async function ended(running: Running): Promise<number | null> {
  const timer = setTimeout(() => running.child.kill(), BOUND_MS);
  const code = await running.exited;
  clearTimeout(timer);
  return code;
}

/** Resolves once `test` holds on the process's output; rejects at the bound or when the process ends first. */
function outputMatches(running: Running, test: (output: string) => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!test(running.output)) return;
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${what} within ${BOUND_MS} ms; output:\n${running.output}`));
    }, BOUND_MS);
    const onExit = () => {
      check();
      cleanup();
      reject(new Error(`ended before ${what}; output:\n${running.output}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      running.child.stdout!.off('data', check);
      running.child.off('exit', onExit);
    };
    running.child.stdout!.on('data', check);
    running.child.once('exit', onExit);
    check();
  });
}

/** Whether a server can listen on `port` of loopback now. */
async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

/**
 * The next port for a page's receivers: counted up from below the range the system picks a
 * `listen(0)` port from (32768 and up on Linux, 49152 and up elsewhere), where every sandbox and
 * the other suites' servers listen. A port found free by `listen(0)` and closed could be taken by
 * a sandbox before the page's receiver starts; these cannot, and no two pages get the same one.
 */
let nextPort = 20_000 + (process.pid % 800) * 10;
async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = nextPort++;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port from ${nextPort - 200} to ${nextPort - 1}`);
}

const runnablePages = pages()
  .map((path) => blocksOf(path).filter((b) => b.meta.includes('runnable')))
  .filter((blocks) => blocks.length > 0);

describe('runnable blocks', () => {
  const started: Running[] = [];
  const sandboxes: { emulator: Sandbox; server: SandboxServer }[] = [];

  afterAll(async () => {
    for (const running of started) running.child.kill();
    for (const { emulator, server } of sandboxes) {
      await server.close();
      await emulator.close();
    }
  });

  it('the site has runnable blocks, receivers among them', () => {
    const all = runnablePages.flat();
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.some((b) => b.meta.includes('server'))).toBe(true);
  });

  it.concurrent.each(runnablePages.map((blocks) => [blocks[0]!.page, blocks] as const))('%s: its sends are accepted and its receivers get the callbacks', async (page, blocks: readonly CodeBlock[]) => {
    // One sandbox per page (the pages run at once): delivery takes seconds of service time, and an
    // hour of it passes each real second.
    const emulator = createSandbox({ timeScale: 3600 });
    const sandbox = await emulator.listen({ port: 0, host: '127.0.0.1' });
    sandboxes.push({ emulator, server: sandbox });
    const port = await freePort();
    const dir = join(CHECK_DIR, 'run', page.replace(/\.md$/, '').replaceAll('/', '__'));
    mkdirSync(dir, { recursive: true });
    // The project a reader sets up (the NestJS guide's settings; tsx reads `experimentalDecorators`).
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', experimentalDecorators: true, emitDecoratorMetadata: true, strict: true, types: ['node'] } }),
    );
    const file = (block: CodeBlock) => {
      const path = join(dir, `block-${block.line}.ts`);
      const code = block.code
        .replaceAll('http://127.0.0.1:4010', sandbox.url)
        .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
        .replaceAll('listen(3000', `listen(${port}`)
        .replaceAll('port: 3000', `port: ${port}`);
      writeFileSync(path, code);
      return path;
    };

    // Express 5 reports a port it could not listen on through the listen callback: a block that
    // ignored it would print its listening line with no server behind it. Each Express receiver,
    // started on a port already taken, must end with an error and print no listening line.
    for (const block of blocks.filter((b) => b.meta.includes('server') && b.code.includes("from 'express'"))) {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
      try {
        const running = run(file(block));
        const code = await ended(running);
        expect({ code, listening: running.output.includes('listening') }, running.output).toEqual({ code: 1, listening: false });
        expect(running.output).toContain('EADDRINUSE');
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    }

    const servers = blocks.filter((b) => b.meta.includes('server')).map((b) => ({ block: b, running: run(file(b)) }));
    started.push(...servers.map((s) => s.running));
    for (const { running } of servers) await outputMatches(running, (out) => out.includes('listening'), 'listening line');

    const printed: string[] = [];
    for (const block of blocks.filter((b) => !b.meta.includes('server'))) {
      const running = run(file(block));
      started.push(running);
      const code = await ended(running);
      if (code !== 0) throw new Error(`${page}:${block.line} ended with ${code}:\n${running.output}`);
      // A block that catches an error and prints it would end with 0: it must print no error at all.
      if (running.errors !== '') throw new Error(`${page}:${block.line} wrote to standard error:\n${running.output}`);
      printed.push(...(running.output.match(TICKET) ?? []));
    }
    // The messages the page's blocks sent, as the sandbox accepted them (answered 202), and the
    // tickets printed by blocks that start a sandbox of their own.
    const tickets = emulator.listMessages({ limit: 1000 }).messages.map((m) => m.ticketId);
    expect([...tickets, ...printed].length, 'messages accepted from the page (a ticket ID)').toBeGreaterThan(0);
    if (servers.length > 0) {
      for (const { running } of servers) {
        await outputMatches(running, (out) => tickets.every((t) => out.includes(t)), `callback for ${tickets.join(', ')}`).catch((error: unknown) => {
          // What the sandbox did with the page's messages (states, callback attempts), to say why.
          const record = emulator.listMessages({ limit: 1000 }).messages.map(({ ticketId, summary, timeline }) => ({ ticketId, summary, timeline }));
          throw new Error(`${(error as Error).message}\nthe sandbox's record of the page's messages:\n${JSON.stringify(record, null, 2)}`);
        });
      }
    }
  }, 4 * BOUND_MS);
});

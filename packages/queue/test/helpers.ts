/**
 * Shared helpers of the end-to-end tests: the sandbox over HTTP with a receipt receiver, the
 * sandbox's own record of every message, and worker child processes (Redis: the testing kit's
 * `startRedis`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
import { createSandbox, type MessagePage, type MessageView, type Sandbox, type SandboxOptions, type SandboxServer } from '@smsv4/sandbox';
import { serve } from '@smsv4/testing';
import { compiledScript } from '@smsv4/bench/compiled-script';
import express from 'express';
import type { SendQueue } from '../src/index.js';

/** The sandbox over HTTP, with a receipt receiver (express-webhooks) that feeds a queue. */
export interface SandboxSetup {
  readonly sandbox: Sandbox;
  readonly server: SandboxServer;
  /** Where the sandbox posts receipts. */
  readonly receiptUrl: string;
  /** The queue receipts are recorded in (set it after creating the queue). */
  receiptsTo: SendQueue | undefined;
  /** Receipts the receiver took. */
  receipts: number;
  close(): Promise<void>;
}

/** Starts the sandbox on loopback and a receiver of its receipts. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxSetup> {
  // Open admin API: the tests read the sandbox's record over HTTP (loopback, for the test's duration).
  const sandbox = createSandbox({ maxMessages: 50_000, adminToken: false, ...options });
  const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const app = express();
  const receiver = await serve(app, { teardown: 'manual' });
  const setup: SandboxSetup = {
    sandbox,
    server,
    receiptUrl: `${receiver.url}/receipts`,
    receiptsTo: undefined,
    receipts: 0,
    async close() {
      await receiver.close();
      await server.close();
      await sandbox.close();
    },
  };
  app.use(
    '/receipts',
    createWebhookMiddleware({
      allowUnauthenticated: true,
      // The one line that closes the loop.
      onDeliveryReceipt: async (receipt) => {
        setup.receipts++;
        await setup.receiptsTo?.recordDeliveryReceipt(receipt);
      },
      onError: () => undefined,
    }),
  );
  return setup;
}

/** Every message the sandbox stored, oldest first, read through its admin API. */
export async function sandboxRecord(url: string): Promise<MessageView[]> {
  const messages: MessageView[] = [];
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(`${url}/__sandbox/api/messages?offset=${offset}&limit=1000`);
    if (!response.ok) throw new Error(`admin API answered ${response.status}`);
    const page = (await response.json()) as MessagePage;
    messages.push(...page.messages);
    if (offset + 1000 >= page.total) return messages;
  }
}

/** The key a test message carries in its content (`"<text> [key]"`). */
export function keyOfContent(content: string): string | undefined {
  return /\[([^\]]+)\]$/.exec(content)?.[1];
}

/** Settings of a worker child process (see `worker-process.ts`). */
export interface WorkerProcessConfig {
  readonly redisPort: number;
  readonly sandboxUrl: string;
  readonly name: string;
  readonly concurrency: number;
  readonly rateLimit?: { perSecond: number; burst?: number };
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  readonly temporaryErrorDelayMs: number;
  readonly sendTimeoutMs: number;
  readonly keyInNote2: boolean;
}

/** A worker child process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves when the process exited. */
  readonly exited: Promise<void>;
  /** Asks the worker to close gracefully and waits for it; resolves to the messages it saw accepted. */
  stop(): Promise<number>;
  kill(): Promise<void>;
}

/** Forks a worker process (its script bundled once, run as plain Node) and waits until its worker runs. */
export async function startWorkerProcess(config: WorkerProcessConfig): Promise<WorkerProcess> {
  const child = fork(await compiledScript(new URL('./worker-process.ts', import.meta.url)), [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the worker process exited with ${String(code)} before it was ready`)));
  });
  return {
    child,
    pid: child.pid as number,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return 0;
      const report = new Promise<number>((resolve) => child.on('message', (m) => typeof m === 'object' && m !== null && resolve((m as { accepted: number }).accepted)));
      child.send('stop');
      const accepted = await Promise.race([report, exited.then(() => -1)]);
      await exited;
      return accepted;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Polls until `done()` holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(done: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await done()) return true;
    await sleep(intervalMs);
  }
  return done();
}

/** A proxy in front of the sandbox that holds each answer until `hold()` resolves. */
export interface HoldingProxy {
  readonly url: string;
  /** Awaited after the sandbox answered and before the answer is passed on (none: passed on at once). */
  hold: (() => Promise<unknown>) | undefined;
  /** Whether `hold()` resolved to a truthy value, per answer passed on. */
  released: boolean[];
  close(): Promise<void>;
}

/** Starts a {@link HoldingProxy} on loopback in front of `target`. */
export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !['host', 'connection', 'content-length'].includes(entry[0])));
        const answer = await fetch(`${target}${request.url ?? '/'}`, { method: request.method ?? 'GET', headers, ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }) });
        const body = Buffer.from(await answer.arrayBuffer());
        const released = await proxy.hold?.();
        const passed: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding'].includes(name)) passed[name] = value;
        });
        response.writeHead(answer.status, passed);
        response.end(body);
        proxy.released.push(Boolean(released));
      })().catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: HoldingProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold: undefined,
    released: [],
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}

/** The sandbox in a child process (see `sandbox-process.ts`). */
export interface SandboxProcess {
  readonly url: string;
  close(): Promise<void>;
}

/** Forks the sandbox into a process of its own and waits for its URL. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child = fork(await compiledScript(new URL('./sandbox-process.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the sandbox process exited with ${String(code)} before it was ready`)));
  });
  return {
    url,
    async close() {
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * `startRedis()`: a throwaway `redis-server` for tests of Redis-backed stores and queues, on a free
 * loopback port, without persistence, closed by the test runner. The binary is the system's
 * (Debian and Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { once as runOnce, prepareTeardown, type Teardown } from '../sandbox/teardown.js';

/** Options of {@link startRedis}. */
export interface StartRedisOptions {
  /** The `redis-server` binary to run (default `redis-server`, found on the `PATH`). */
  readonly binary?: string;
  /** Real milliseconds it may take to accept connections (default 10 000). */
  readonly startTimeoutMs?: number;
  /** How it is stopped (default `'auto'`: by the runner entry of the setup files). */
  readonly teardown?: Teardown;
  /** The port (default a free one): give a stopped server's port, with its `--dir` in `args`, to start it again. */
  readonly port?: number;
  /** More arguments of `redis-server`, after the kit's (e.g. `['--appendonly', 'yes', '--dir', dir]`: they win). */
  readonly args?: readonly string[];
}

/** A running `redis-server`. */
export interface TestRedis {
  /** `127.0.0.1`. */
  readonly host: string;
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** `{ host, port }`: the connection options of ioredis and BullMQ. */
  readonly connection: { readonly host: string; readonly port: number };
  readonly process: ChildProcess;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered, as a stalled server. */
  pause(): void;
  /** Lets a frozen server go on (SIGCONT). */
  resume(): void;
  /** Stops it (SIGTERM, then SIGKILL after a second) and waits for it to exit; once, however often it is called. */
  stop(): Promise<void>;
  /** The same as `stop()`. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export const missing = (binary: string): string =>
  `${binary} is not installed (or not on the PATH): install it (Debian, Ubuntu: apt-get install redis-server; macOS: brew install redis) to run the tests that need Redis`;

/** A port free on 127.0.0.1 right now (the probe listens on port 0 and lets it go). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts the server on a port; the child once it accepts connections, or undefined when it did not start. */
export function launch(binary: string, port: number, timeoutMs: number, args: readonly string[] = []): Promise<ChildProcess | undefined> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--logfile', '', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve) => {
    let output = '';
    const deadline = setTimeout(() => finish(undefined), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (/Ready to accept connections/i.test(output)) finish(child);
    };
    const finish = (result: ChildProcess | undefined): void => {
      clearTimeout(deadline);
      child.stdout.off('data', onData);
      child.stdout.resume();
      child.stderr.resume();
      if (result === undefined) child.kill('SIGKILL');
      resolve(result);
    };
    child.stdout.on('data', onData);
    child.once('exit', () => finish(undefined));
    child.once('error', () => finish(undefined));
  });
}

export const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // A frozen server takes no SIGTERM: it is let go on first.
    child.kill('SIGCONT');
    const force = setTimeout(() => child.kill('SIGKILL'), 1000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });

/**
 * Starts `redis-server` on a free loopback port (a few tries, in case the port is taken between
 * the probe and the start), without persistence. Stopped by the test runner when the runner entry
 * is in the setup files, otherwise as `teardown` says. Fails at once, saying how to install it,
 * where the binary is missing.
 *
 * @example
 * const redis = await startRedis();
 * const queue = createSendQueue({ connection: redis.connection, ... });
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<TestRedis> {
  const { binary = 'redis-server', startTimeoutMs = 10_000, teardown, args = [], port: fixedPort } = options;
  if (fixedPort !== undefined && !(Number.isSafeInteger(fixedPort) && fixedPort > 0 && fixedPort < 65_536)) throw new TypeError('port must be a TCP port number');
  if (!(Number.isFinite(startTimeoutMs) && startTimeoutMs > 0)) throw new TypeError('startTimeoutMs must be a positive number');
  const register = prepareTeardown(teardown, 'startRedis');
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) throw new Error(missing(binary));
  for (let attempt = 0; attempt < (fixedPort === undefined ? 5 : 1); attempt++) {
    const port = fixedPort ?? (await freePort());
    const child = await launch(binary, port, startTimeoutMs, args);
    if (child === undefined) continue;
    const stop = runOnce(() => stopChild(child));
    register(stop);
    const host = '127.0.0.1';
    return {
      host,
      port,
      url: `redis://${host}:${port}`,
      connection: { host, port },
      process: child,
      pause: () => void child.kill('SIGSTOP'),
      resume: () => void child.kill('SIGCONT'),
      stop,
      close: stop,
      [Symbol.asyncDispose]: stop,
    };
  }
  throw new Error(fixedPort === undefined ? `${binary} did not start on a free loopback port after 5 tries` : `${binary} did not start on port ${fixedPort}`);
}

/**
 * A throwaway `redis-server` for core's tests of Redis-backed stores, on a free loopback port,
 * without persistence (the same as `startRedis` of `@smsv4/testing`, which core cannot import).
 * The binary is the system's (Debian, Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/** A running `redis-server`. */
export interface CoreTestRedis {
  readonly host: string;
  readonly port: number;
  /** Freezes it (SIGSTOP): connections stay open, nothing is answered, as a stalled server. */
  pause(): void;
  /** Lets it go on (SIGCONT). */
  resume(): void;
  /** Stops it (SIGTERM, then SIGKILL after a second) and waits for it to exit. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function launch(port: number): Promise<ChildProcess | undefined> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', ''], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve) => {
    let output = '';
    const deadline = setTimeout(() => finish(undefined), 10_000);
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

/** Starts `redis-server` on a free loopback port (a few tries); fails at once, saying how to install it, where it is missing. */
export async function startRedisServer(): Promise<CoreTestRedis> {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error('redis-server is not installed: install it (Debian, Ubuntu: apt-get install redis-server; macOS: brew install redis) to run the tests that need Redis');
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = await launch(port);
    if (child === undefined) continue;
    const stop = (): Promise<void> =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 1000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      });
    // A server left frozen by a failed test could not be stopped: stop resumes it first.
    const resume = (): void => void child.kill('SIGCONT');
    return { host: '127.0.0.1', port, pause: () => void child.kill('SIGSTOP'), resume, stop: () => (resume(), stop()) };
  }
  throw new Error('redis-server did not start on a free loopback port after 5 tries');
}

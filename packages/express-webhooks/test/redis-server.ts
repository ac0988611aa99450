/**
 * A throwaway `redis-server` for the tests, on a free loopback port, without persistence. The
 * binary comes from Debian's `redis-server` package (installed by `.ci/run`); where it is missing
 * the test fails and says how to install it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A running redis-server. */
export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly process: ChildProcess;
  /** Stops it (SIGTERM, then SIGKILL after a second) and waits for its exit. */
  stop(): Promise<void>;
}

const INSTALL = 'redis-server is not installed: run `apt-get install redis-server` (Debian, Ubuntu) to run the tests that need it';

/** Fails with the install hint when the binary is missing. */
export function requireRedisServer(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) throw new Error(INSTALL);
}

/** A port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function launch(port: number): Promise<ChildProcess | undefined> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--logfile', ''],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
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

/**
 * Starts a redis-server on a free loopback port (a few tries, in case the port is taken between
 * the probe and the start).
 */
export async function startRedisServer(): Promise<RedisServer> {
  requireRedisServer();
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = await launch(port);
    if (child === undefined) continue;
    return {
      host: '127.0.0.1',
      port,
      url: `redis://127.0.0.1:${port}`,
      process: child,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 1000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    };
  }
  throw new Error('redis-server did not start on a free loopback port after 5 tries');
}

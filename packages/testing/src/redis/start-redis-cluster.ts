/**
 * `startRedisCluster()`: a throwaway Redis Cluster of a few masters (no replicas) on free loopback
 * ports, each node in a folder of its own, for tests of what must work on Redis Cluster (keys of
 * one slot per script, scripts missing on a node, a master killed and restarted). The binaries are
 * the system's `redis-server` and `redis-cli`.
 */
import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once as runOnce, prepareTeardown, type Teardown } from '../sandbox/teardown.js';
import { freePort, launch, missing, stopChild } from './start-redis.js';

/** Options of {@link startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** How many masters (default 3, the fewest Redis Cluster takes). */
  readonly masters?: number;
  /** The `redis-server` binary (default `redis-server`, found on the `PATH`). */
  readonly binary?: string;
  /** The `redis-cli` binary that joins the nodes (default `redis-cli`). */
  readonly cli?: string;
  /** Real milliseconds the cluster may take to cover every slot (default 20 000). */
  readonly startTimeoutMs?: number;
  /** How it is stopped (default `'auto'`: by the runner entry of the setup files). */
  readonly teardown?: Teardown;
  /**
   * More arguments of every node's `redis-server`, after the kit's (e.g. `['--appendonly', 'yes']`:
   * each node keeps its append-only file in its own folder, so a master killed and restarted comes
   * back with what it acknowledged).
   */
  readonly args?: readonly string[];
}

/** One master of a {@link TestRedisCluster}. */
export interface TestRedisClusterNode {
  readonly host: string;
  readonly port: number;
  /** The running process (a new one after {@link restart}). */
  readonly process: ChildProcess;
  /** Kills it (SIGKILL) and waits for it to exit: a crashed master. */
  kill(): Promise<void>;
  /** Starts it again on its port and folder (it rejoins as the master it was) and waits until the cluster is whole again. */
  restart(): Promise<void>;
  /** Freezes it (SIGSTOP). */
  pause(): void;
  /** Lets it go on (SIGCONT). */
  resume(): void;
}

/** A running Redis Cluster. */
export interface TestRedisCluster {
  readonly nodes: readonly TestRedisClusterNode[];
  /** `[{ host, port }, ...]`: the start-up nodes of ioredis's `Cluster`. */
  readonly startupNodes: readonly { readonly host: string; readonly port: number }[];
  /** Stops every node and removes their folders; once, however often it is called. */
  stop(): Promise<void>;
  /** The same as `stop()`. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const run = (file: string, args: readonly string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`${file} ${args.join(' ')}: ${stderr || error.message}`))));
  });

/** Waits until `port` reports every slot served (`cluster_state:ok`), or the deadline passes. */
async function whole(cli: string, port: number, deadline: number): Promise<void> {
  for (;;) {
    const info = await run(cli, ['-h', '127.0.0.1', '-p', String(port), 'CLUSTER', 'INFO'], 5_000).catch(() => '');
    if (/cluster_state:ok/.test(info)) return;
    if (Date.now() > deadline) throw new Error(`the Redis Cluster node on port ${port} did not report cluster_state:ok in time: ${info.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts a Redis Cluster of `masters` nodes (default 3) on free loopback ports, joined with
 * `redis-cli --cluster create`, without persistence of data (each node keeps its cluster
 * configuration in a folder of its own, so a node restarted rejoins; with `args` such as
 * `['--appendonly', 'yes']` it keeps its data there too). Resolves once every node
 * reports the cluster whole. Fails at once, saying how to install them, where the binaries are missing.
 *
 * @example
 * const cluster = await startRedisCluster();
 * const redis = new Cluster([...cluster.startupNodes]);
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<TestRedisCluster> {
  const { masters = 3, binary = 'redis-server', cli = 'redis-cli', startTimeoutMs = 20_000, teardown, args: extra = [] } = options;
  if (!Number.isSafeInteger(masters) || masters < 3) throw new TypeError('masters must be an integer of at least 3');
  if (!(Number.isFinite(startTimeoutMs) && startTimeoutMs > 0)) throw new TypeError('startTimeoutMs must be a positive number');
  const register = prepareTeardown(teardown, 'startRedisCluster');
  for (const file of [binary, cli]) {
    const probe = spawnSync(file, ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) throw new Error(missing(file));
  }
  const deadline = Date.now() + startTimeoutMs;
  const base = await mkdtemp(join(tmpdir(), 'smsv4-redis-cluster-'));
  const children: ChildProcess[] = [];
  const stop = runOnce(async () => {
    await Promise.all(children.map(stopChild));
    await rm(base, { recursive: true, force: true });
  });
  register(stop);
  try {
    const nodes: TestRedisClusterNode[] = [];
    for (let i = 0; i < masters; i++) {
      const dir = join(base, `node-${i}`);
      await mkdir(dir);
      let started: { port: number; args: string[]; child: ChildProcess } | undefined;
      for (let attempt = 0; attempt < 5 && started === undefined; attempt++) {
        const [port, bus] = [await freePort(), await freePort()];
        const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-port', String(bus), '--cluster-node-timeout', '2000', '--dir', dir, ...extra];
        const child = await launch(binary, port, Math.max(1, deadline - Date.now()), args);
        if (child !== undefined) started = { port, args, child };
      }
      if (started === undefined) throw new Error(`${binary} did not start a cluster node on a free loopback port after 5 tries`);
      const { port, args } = started;
      let child = started.child;
      children.push(child);
      nodes.push({
        host: '127.0.0.1',
        port,
        get process() {
          return child;
        },
        async kill() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGCONT');
          child.kill('SIGKILL');
          await exited;
        },
        async restart() {
          const next = await launch(binary, port, startTimeoutMs, args);
          if (next === undefined) throw new Error(`the cluster node on port ${port} did not start again`);
          child = next;
          children.push(next);
          for (const node of nodes) await whole(cli, node.port, Date.now() + startTimeoutMs);
        },
        pause: () => void child.kill('SIGSTOP'),
        resume: () => void child.kill('SIGCONT'),
      });
    }
    await run(cli, ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], Math.max(1, deadline - Date.now()));
    for (const node of nodes) await whole(cli, node.port, deadline);
    const startupNodes = nodes.map(({ host, port }) => ({ host, port }));
    return { nodes, startupNodes, stop, close: stop, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

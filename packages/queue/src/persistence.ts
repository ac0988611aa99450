/**
 * What Redis keeps of the writes it acknowledged, read at the queue's start: an enqueue answered
 * `created: true` must survive a crash of Redis, or the message is neither sent nor recorded.
 */
import type { Cluster, Redis } from 'ioredis';

/** What the queue does when Redis may lose acknowledged writes. */
export type PersistenceCheck = 'warn' | 'require' | 'ignore';

/** What was read of one server: `undefined` problems when it keeps acknowledged writes. */
export interface PersistenceVerdict {
  /** Why acknowledged writes could be lost, one sentence each (empty: none). */
  readonly problems: readonly string[];
}

const field = (info: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

/** Reads the persistence of one server (`INFO persistence`, `CONFIG GET appendfsync` where allowed). */
async function readServer(node: Redis): Promise<string[]> {
  const info = await node.info('persistence');
  const where = `${node.options.host ?? '?'}:${String(node.options.port ?? '?')}`;
  if (field(info, 'aof_enabled') !== '1') {
    return [`Redis at ${where} has no append-only file (appendonly no): writes acknowledged since its last snapshot are lost if it stops without a save`];
  }
  let fsync: string | undefined;
  try {
    const reply = (await node.config('GET', 'appendfsync')) as unknown;
    fsync = Array.isArray(reply) ? String(reply[1]) : undefined;
  } catch {
    // Managed services often refuse CONFIG: the AOF being on is what can be known.
  }
  if (fsync === 'no') return [`Redis at ${where} writes its append-only file without fsync (appendfsync no): acknowledged writes can be lost if its machine stops`];
  return [];
}

/** Whether `redis` is an ioredis `Cluster`. */
export const isCluster = (redis: Redis | Cluster): redis is Cluster => (redis as { isCluster?: unknown }).isCluster === true;

/** Reads every master (every node of a cluster, the server otherwise). */
export async function readPersistence(redis: Redis | Cluster): Promise<PersistenceVerdict> {
  if (!isCluster(redis)) return { problems: await readServer(redis) };
  // A cluster knows its masters once connected.
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const nodes = redis.nodes('master');
  const problems = (await Promise.all(nodes.map(readServer))).flat();
  return { problems };
}

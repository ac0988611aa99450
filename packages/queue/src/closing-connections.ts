/**
 * BullMQ (5.81 at least) closes a connection that is still starting by removing every listener of
 * it, then reports that failed start (`Connection is closed.`) as an 'error' event on it: with no
 * listener left, an uncaught exception that ends the process (a worker closed just after it
 * started, on SIGTERM say). For each connection of `owner` (a BullMQ queue or worker), this drops
 * an 'error' event that nobody listens to while the connection is closing or closed: the close
 * caused it. Every other error reaches the owner's listeners as before.
 */
export function dropErrorsOfClosedConnections(owner: object): void {
  for (const connection of connectionsOf<ClosingConnection>(owner)) {
    if (typeof connection.emit !== 'function' || typeof connection.listenerCount !== 'function') continue;
    const emit = connection.emit;
    connection.emit = function (this: ClosingConnection, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'error' && this.listenerCount('error') === 0 && (this.status === 'closing' || this.status === 'closed')) return false;
      return emit.call(this, event, ...args);
    };
  }
}

/** The BullMQ RedisConnections of `owner` (a queue has `connection`, a worker also `blockingConnection`). */
function connectionsOf<T>(owner: object): T[] {
  return ['connection', 'blockingConnection'].map((field) => (owner as Record<string, unknown>)[field] as T | undefined).filter((c): c is T => c !== undefined && c !== null);
}

/** What this reads of BullMQ's RedisConnection (an EventEmitter with a status). */
interface ClosingConnection {
  status?: string;
  emit(event: string | symbol, ...args: unknown[]): boolean;
  listenerCount(event: string | symbol): number;
}

/**
 * Cuts the connections of `owner` (a BullMQ queue or worker) without waiting for Redis: a close that
 * ran past its bound. Commands waiting on them reject; nothing is sent to Redis.
 */
export function cutConnections(owner: object): void {
  for (const connection of connectionsOf<{ disconnect?: (wait?: boolean) => Promise<void> }>(owner)) {
    if (typeof connection.disconnect === 'function') connection.disconnect(false).catch(() => undefined);
  }
}

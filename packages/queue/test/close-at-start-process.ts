/**
 * A process that starts a worker and closes the queue at once, then has nothing left to do: it
 * must exit by itself (the close test of queue.e2e.test.ts). Its first argument: the Redis port.
 */
import { createSendQueue } from '../src/index.js';

const queue = createSendQueue({
  connection: { host: '127.0.0.1', port: Number(process.argv[2]) },
  name: `close-at-start-${process.pid}`,
  persistence: 'ignore',
  clientOptions: { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' },
  // Far beyond the parent's bound: a stalled check left armed would hold the process past it.
  stalledIntervalMs: 600_000,
});
queue.startWorker();
await queue.close();
process.stdout.write('closed\n');

/**
 * A process that starts a worker and closes the queue at once, then has nothing left to do: it
 * must exit by itself, with no error (the close test of queue.e2e.test.ts). It does so for 20
 * queues, each closed after 0 to 14 ms, so that some close while their connections are still
 * starting. Its first argument: the Redis port.
 */
import { createSendQueue } from '../src/index.js';

for (let i = 0; i < 20; i++) {
  const queue = createSendQueue({
    connection: { host: '127.0.0.1', port: Number(process.argv[2]) },
    name: `close-at-start-${process.pid}-${i}`,
    persistence: 'ignore',
    clientOptions: { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' },
    // Far beyond the parent's bound: a stalled check left armed would hold the process past it.
    stalledIntervalMs: 600_000,
  });
  queue.startWorker();
  // Not a wait for anything: the moment of the close moves across the connections' start.
  if (i % 15 > 0) await new Promise((resolve) => setTimeout(resolve, i % 15));
  await queue.close();
}
process.stdout.write('closed\n');

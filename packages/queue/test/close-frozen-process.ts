/**
 * A process that starts a queue and a worker on a Redis, says `ready`, and on `close` from its
 * standard input closes both while the parent holds Redis frozen (SIGSTOP): `close()` must resolve
 * at its bound (`closeTimeoutMs`, 500 ms here) with the connections cut, report it to `onError`,
 * and leave nothing running, so that the process exits by itself. Its first argument: the Redis port.
 */
import { createInterface } from 'node:readline';
import { createSendQueue, QueueUnavailableError } from '../src/index.js';

const reported: string[] = [];
const queue = createSendQueue({
  connection: { host: '127.0.0.1', port: Number(process.argv[2]) },
  name: `close-frozen-${process.pid}`,
  persistence: 'ignore',
  closeTimeoutMs: 500,
  clientOptions: { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' },
  onError: (error) => void reported.push(error instanceof QueueUnavailableError ? `${error.reason}:${error.operation}` : `other:${String(error)}`),
});
const worker = queue.startWorker();
await worker.worker.waitUntilReady();
await queue.getMessage('nothing');
await queue.subscribe(() => undefined);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'close') continue;
  lines.close();
  process.stdin.destroy();
  await worker.close();
  await queue.close();
  process.stdout.write(`closed ${[...new Set(reported.filter((r) => r.startsWith('timeout:')))].sort().join(' ')}\n`);
}

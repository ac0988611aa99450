/**
 * A worker process of the multi-process tests: a queue with one worker, configured by the JSON of
 * its first argument. Tells its parent when it runs; on "stop", closes gracefully and tells how
 * many messages it saw accepted.
 */
import { createSendQueue } from '../src/index.js';
import type { WorkerProcessConfig } from './helpers.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerProcessConfig;

let accepted = 0;
const queue = createSendQueue({
  onStateChange: (change) => {
    if (change.state === 'accepted') accepted++;
  },
  connection: { host: '127.0.0.1', port: config.redisPort },
  name: config.name,
  clientOptions: { baseUrl: config.sandboxUrl, accountId: 'sandbox', password: 'sandbox-password' },
  ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
  concurrency: config.concurrency,
  lockDurationMs: config.lockDurationMs,
  stalledIntervalMs: config.stalledIntervalMs,
  retry: { temporaryErrorDelayMs: config.temporaryErrorDelayMs, allowShortTemporaryErrorDelay: true, initialDelayMs: 100, maxDelayMs: 1000 },
  sendTimeoutMs: config.sendTimeoutMs,
  keyInNote2: config.keyInNote2,
});
const worker = queue.startWorker();
await worker.worker.waitUntilReady();
process.send?.('ready');
process.on('message', (message) => {
  if (message !== 'stop') return;
  void queue.close().then(() => process.send?.({ accepted }, () => process.exit(0)));
});

/**
 * A sending process of the throughput benchmark, configured by the JSON of its first argument:
 * - `bare`: the client in a loop (`concurrency` loops at once; 1 is the plain loop), `count` sends;
 * - `worker`: a queue worker (built package) with `concurrency` jobs at once, until told "stop".
 * Answers "cpu" with the CPU time it used so far.
 */
import type { MtRequest } from '@smsv4/core';
import { createClient } from '@smsv4/transport-fetch';
import type * as Sources from '../src/index.js';

// The built queue is measured (what users run); its types are those of the sources.
const { createSendQueue } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Sources;

interface Config {
  readonly mode: 'bare' | 'worker';
  readonly sandboxUrl: string;
  readonly concurrency: number;
  readonly count?: number;
  readonly redisPort?: number;
  readonly name?: string;
  /** `worker`: the account's rate limit. */
  readonly rateLimit?: { readonly perSecond: number };
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
// The CPU time this process used so far (µs), when asked.
process.on('message', (message) => {
  if (message !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  process.send?.({ type: 'cpu', cpu: user + system });
});
const clientOptions = { baseUrl: config.sandboxUrl, accountId: 'sandbox', password: 'sandbox-password' };

if (config.mode === 'bare') {
  const client = createClient(clientOptions);
  const count = config.count ?? 0;
  let next = 0;
  const loop = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const mt: MtRequest = { destination: { address: '14155550100' }, message: { type: 'text', content: `Campaign message [b-${i}]` } };
      await client.send(mt);
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, loop));
  process.send?.({ type: 'done' }, () => process.exit(0));
} else {
  const queue = createSendQueue({ connection: { host: '127.0.0.1', port: config.redisPort as number }, name: config.name as string, clientOptions, concurrency: config.concurrency, ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }) });
  const worker = queue.startWorker();
  await worker.worker.waitUntilReady();
  process.send?.({ type: 'ready' });
  process.on('message', (message) => {
    if (message === 'stop') void queue.close().then(() => process.exit(0));
  });
}

/**
 * Benchmark of the Fetch receiver on Node (a Hono app on @hono/node-server) against its decode
 * floor: sustained receipts per second over keep-alive HTTP on loopback, the server in a child
 * process, the client (undici) in this one. The rounds, routes, checks and report are
 * `runFloorBench`'s (@smsv4/bench/floor-bench).
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/fetch-webhooks bench -- --seconds 1 --rounds 5
 *   npx -y pnpm@10.34.8 --filter @smsv4/fetch-webhooks bench -- --seconds 1 --rounds 2 --dry-run
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFloorBench } from '@smsv4/bench/floor-bench';
import { parseLoadArgs } from '@smsv4/bench/receiver-load';
import { callbackHeaders, createReceiptLoad } from '@smsv4/testing';

const flags = process.argv.slice(2).filter((arg) => arg !== '--' && arg !== '--dry-run');

await runFloorBench({
  id: 'fetch-node-floor-load',
  title: 'Fetch receiver on Node against the decode floor',
  command: `npx -y pnpm@10.34.8 --filter @smsv4/fetch-webhooks... build && npx -y pnpm@10.34.8 --filter @smsv4/fetch-webhooks bench${flags.length === 0 ? '' : ` -- ${flags.join(' ')}`}`,
  options: parseLoadArgs(),
  servers: [
    {
      name: 'Fetch receiver (@smsv4/fetch-webhooks) on Hono and @hono/node-server',
      script: join(dirname(fileURLToPath(import.meta.url)), 'receiver-server.ts'),
      summaryName: 'Fetch receiver on Node (Hono, @hono/node-server)',
      tag: 'FH',
    },
  ],
  headers: callbackHeaders('xml', { userAgent: 'smsv4-bench' }),
  load: (run) => createReceiptLoad({ run, deliveredAt: Date.UTC(2024, 2, 31, 10, 15, 2, 114) }),
  about:
    "The server is a Hono app on @hono/node-server, as in the package's README: the floors read the Fetch `Request` with core's `readRequestBody`, the receiver is `createFetchWebhookHandler` on the same app.",
});

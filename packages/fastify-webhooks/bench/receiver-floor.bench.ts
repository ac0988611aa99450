/**
 * Benchmark of the Fastify receiver (on Fastify 5 and 4), and of core's receiver on Node's own
 * `http` server, against their decode floor: sustained receipts per second over keep-alive HTTP on
 * loopback, each server in a child process, the client (undici) in this one. The rounds, routes,
 * checks and report are `runFloorBench`'s (@smsv4/bench/floor-bench).
 *
 *   npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench -- --seconds 1 --rounds 5
 *   npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench -- --seconds 1 --rounds 2 --dry-run
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFloorBench } from '@smsv4/bench/floor-bench';
import { parseLoadArgs } from '@smsv4/bench/receiver-load';
import { callbackHeaders, createReceiptLoad } from '@smsv4/testing';

const script = join(dirname(fileURLToPath(import.meta.url)), 'receiver-server.ts');
const flags = process.argv.slice(2).filter((arg) => arg !== '--' && arg !== '--dry-run');

await runFloorBench({
  id: 'fastify-node-floor-load',
  title: 'Fastify and node:http receivers against the decode floor',
  command: `npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks... build && npx -y pnpm@10.34.8 --filter @smsv4/fastify-webhooks bench${flags.length === 0 ? '' : ` -- ${flags.join(' ')}`}`,
  options: parseLoadArgs(),
  servers: [
    { name: 'Fastify 5 receiver (@smsv4/fastify-webhooks)', script, args: ['fastify'], summaryName: 'Fastify 5 receiver', tag: 'FF' },
    { name: 'Fastify 4 receiver (@smsv4/fastify-webhooks)', script, args: ['fastify4'], summaryName: 'Fastify 4 receiver', tag: 'F4' },
    { name: "core's receiver on node:http", script, args: ['node'], summaryName: "Core's receiver on node:http", tag: 'FN' },
  ],
  headers: callbackHeaders('xml', { userAgent: 'smsv4-bench' }),
  load: (run) => createReceiptLoad({ run, deliveredAt: Date.UTC(2024, 2, 31, 10, 15, 2, 114) }),
  about:
    "On Fastify the floors are routes whose content-type parser leaves the body unread, as the plugin's does; on node:http the receiver is core's `createWebhookHandler` fed with `createNodeRequestBodyReader`.",
});

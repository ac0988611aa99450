/**
 * The server side of the decode-floor load test of Fetch on Node, run in a child process (its own
 * core): a Hono app served by @hono/node-server, as the README's example, with three POST routes
 * that take the same XML receipts:
 * - `/read`, the read floor: the request's body read with core's bounded `readRequestBody`, then 200;
 * - `/decode`, the decode floor: the same reader and `decodeCallback`, then 200 (what no receiver
 *   can avoid);
 * - `/store`, the store floor: the decode floor, then the key recorded in an in-memory duplicate store;
 * - `/receiver`, the receiver: `createFetchWebhookHandler`, whose async handler takes each receipt,
 *   with the default in-memory duplicate store.
 * Answers `stats` messages with the receiver's counts and the process's CPU time.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createStoreFloor } from '@smsv4/bench/floor-bench';
import { createTakenReceipts, serveLoad } from '@smsv4/bench/receiver-load';
import { decodeCallback, readRequestBody } from '@smsv4/core';
import { Hono } from 'hono';
import { createFetchWebhookHandler } from '../src/index.js';

const taken = createTakenReceipts();
let duplicates = 0;
const receive = createFetchWebhookHandler({
  allowUnauthenticated: true,
  onDeliveryReceipt: async (receipt) => taken.take(receipt),
  onDuplicate: () => void duplicates++,
});
const MAX_BYTES = 64 * 1024;

const app = new Hono();
app.post('/read', async (c) => new Response(null, { status: (await readRequestBody(c.req.raw, { maxBytes: MAX_BYTES })).ok ? 200 : 400 }));
app.post('/decode', async (c) => {
  const body = await readRequestBody(c.req.raw, { maxBytes: MAX_BYTES });
  return new Response(null, { status: body.ok && decodeCallback(body.value, 'xml').ok ? 200 : 400 });
});
const recordKey = createStoreFloor();
app.post('/store', async (c) => {
  const body = await readRequestBody(c.req.raw, { maxBytes: MAX_BYTES });
  return new Response(null, { status: body.ok && recordKey(body.value) ? 200 : 400 });
});
app.post('/receiver', (c) => receive(c.req.raw));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  (server as Server).keepAliveTimeout = 30_000;
  serveLoad(server as Server, { counts: () => ({ ...taken.counts(), duplicates }), close: () => receive.close() });
});

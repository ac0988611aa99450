// Hono on Node (`npx tsx server.ts`)
import { serve } from '@hono/node-server';
import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
import { Hono } from 'hono';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler({
  // Open to anyone, for this package's runtime tests: in production set basicAuth (see Security).
  allowUnauthenticated: true,
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
});

const app = new Hono();
// Hand over the raw Request, before anything reads its body (c.req.json(), a validator).
app.all('/sms/callbacks', (c) => receive(c.req.raw));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, ({ port }) => {
  console.log(`listening on http://127.0.0.1:${port}/sms/callbacks`);
});

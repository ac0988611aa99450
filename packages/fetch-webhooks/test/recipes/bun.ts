// Bun (`bun run server.ts`)
import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler<[Bun.Server]>({
  // Open to anyone, for this package's runtime tests: in production set basicAuth (see Security).
  allowUnauthenticated: true,
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
  getRemoteAddress: (request, server) => server.requestIP(request)?.address,
});

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch: (request, server) =>
    new URL(request.url).pathname === '/sms/callbacks' ? receive(request, server) : new Response('Not found', { status: 404 }),
});
console.log(`listening on http://127.0.0.1:${server.port}/sms/callbacks`);

// Deno (`deno run --allow-net --allow-env=PORT server.ts`)
import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler<[Deno.ServeHandlerInfo]>({
  // Open to anyone, for this package's runtime tests: in production set basicAuth (see Security).
  allowUnauthenticated: true,
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
  getRemoteAddress: (_request, info) => info.remoteAddr.hostname,
});

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/sms/callbacks`),
  },
  (request, info) => (new URL(request.url).pathname === '/sms/callbacks' ? receive(request, info) : new Response('Not found', { status: 404 })),
);

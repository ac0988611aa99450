// Cloudflare Worker (`wrangler deploy`; src/index.ts)
import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler({
  // Open to anyone, for this package's runtime tests: in production set basicAuth (see Security).
  allowUnauthenticated: true,
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
  getRemoteAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
});

export default {
  fetch(request: Request): Promise<Response> | Response {
    if (new URL(request.url).pathname === '/sms/callbacks') return receive(request);
    return new Response('Not found', { status: 404 });
  },
};

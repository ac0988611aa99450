// Next.js App Router: app/sms/callbacks/route.ts (Node.js or Edge runtime)
import { createFetchWebhookHandler, lastForwardedFor } from '@smsv4/fetch-webhooks';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler({
  // Open to anyone, for this package's runtime tests: in production set basicAuth (see Security).
  allowUnauthenticated: true,
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
  // Behind Vercel's proxy: only the last X-Forwarded-For entry is the proxy's own, the others are the peer's words.
  getRemoteAddress: lastForwardedFor,
});

export async function POST(request: Request): Promise<Response> {
  return receive(request);
}

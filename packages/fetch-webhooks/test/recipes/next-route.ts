// Next.js App Router: app/sms/callbacks/route.ts (Node.js or Edge runtime)
import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
import { saveInbound, saveReceipt } from './store.js';

const receive = createFetchWebhookHandler({
  onDeliveryReceipt: (receipt) => saveReceipt(receipt),
  onInboundMessage: (message) => saveInbound(message),
  getRemoteAddress: (request) => request.headers.get('x-forwarded-for')?.split(',')[0]?.trim(),
});

export async function POST(request: Request): Promise<Response> {
  return receive(request);
}

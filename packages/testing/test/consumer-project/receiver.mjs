// A small receiver, as a user writes one (ESM): receipts and inbound messages into a journal.
import express from 'express';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';

export function createReceiver({ failFirst = 0 } = {}) {
  const journal = { receipts: [], inbound: [] };
  let failures = failFirst;
  const app = express();
  app.use(
    '/callbacks',
    createWebhookMiddleware({
      allowUnauthenticated: true,
      onDeliveryReceipt(receipt) {
        if (failures-- > 0) throw new Error('receipt store down');
        journal.receipts.push(receipt);
      },
      onInboundMessage(message) {
        journal.inbound.push(message);
      },
      onError: () => undefined,
    }),
  );
  return { app, journal };
}

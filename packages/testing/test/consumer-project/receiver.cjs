// The same small receiver in CommonJS.
const express = require('express');
const { createWebhookMiddleware } = require('@smsv4/express-webhooks');

function createReceiver({ failFirst = 0 } = {}) {
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

module.exports = { createReceiver };

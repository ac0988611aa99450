// The receiver conformance suite of the kit, under jest's globals, against the Express receiver.
const express = require('express');
const { createWebhookMiddleware } = require('@smsv4/express-webhooks');
const { describeReceiverConformance, serve } = require('@smsv4/testing');

describeReceiverConformance({
  name: 'express-webhooks under jest',
  runner: { describe, it, expect, beforeAll, afterAll },
  async start(options) {
    const receiver = createWebhookMiddleware(options);
    const served = await serve(express().use('/callbacks', receiver), { teardown: 'manual' });
    return { url: `${served.url}/callbacks`, close: () => (receiver.close(), served.close()) };
  },
});

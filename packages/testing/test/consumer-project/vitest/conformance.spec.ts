// The receiver conformance suite of the kit, under vitest, against the Express receiver.
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
import { describeReceiverConformance, serve } from '@smsv4/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describeReceiverConformance({
  name: 'express-webhooks under vitest',
  runner: { describe, it, expect, beforeAll, afterAll },
  async start(options) {
    const receiver = createWebhookMiddleware(options);
    const served = await serve(express().use('/callbacks', receiver), { teardown: 'manual' });
    return { url: `${served.url}/callbacks`, close: () => (receiver.close(), served.close()) };
  },
});

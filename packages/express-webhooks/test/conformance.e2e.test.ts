/** The receiver conformance suite of @smsv4/testing, on Express 4 and 5. */
import { describeReceiverConformance, serve } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS } from './helpers.js';

for (const [name, createApp] of EXPRESS_VERSIONS) {
  describeReceiverConformance({
    name,
    runner: { describe, it, expect, beforeAll, afterAll },
    forwardedFor: true,
    async start(options) {
      const app = createApp();
      app.set('trust proxy', 'loopback');
      const receiver = createWebhookMiddleware(options);
      app.use('/callbacks', receiver);
      const served = await serve(app, { teardown: 'manual' });
      return {
        url: `${served.url}/callbacks`,
        close: async () => {
          receiver.close();
          await served.close();
        },
      };
    },
  });
}

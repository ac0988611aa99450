/** The receiver conformance suite of @smsv4/testing, on Fastify 4 and 5. */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

for (const [name, createApp] of FASTIFY_VERSIONS) {
  describeReceiverConformance({
    name,
    runner: { describe, it, expect, beforeAll, afterAll },
    forwardedFor: true,
    async start(options) {
      const app = createApp({ trustProxy: '127.0.0.1' });
      await app.register(fastifyWebhooks, { prefix: '/callbacks', ...options });
      return { url: `${await listen(app)}/callbacks`, close: () => app.close() };
    },
  });
}

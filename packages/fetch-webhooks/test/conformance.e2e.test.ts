/**
 * The receiver conformance suite of @smsv4/testing, with the Fetch handler served by Node's HTTP
 * server (@hono/node-server); the peer's address is read from X-Forwarded-For (`getRemoteAddress`).
 */
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchWebhookHandler } from '../src/index.js';
import { listenFetch } from './helpers.js';

describeReceiverConformance({
  name: 'the Fetch handler on Node',
  runner: { describe, it, expect, beforeAll, afterAll },
  forwardedFor: true,
  async start(options) {
    const receiver = createFetchWebhookHandler({ getRemoteAddress: (request) => request.headers.get('x-forwarded-for') ?? undefined, ...options });
    const server = await listenFetch((request) => (new URL(request.url).pathname === '/callbacks' ? receiver(request) : new Response('not found', { status: 404 })));
    return {
      url: `${server.url}/callbacks`,
      close: async () => {
        receiver.close();
        await server.close();
      },
    };
  },
});

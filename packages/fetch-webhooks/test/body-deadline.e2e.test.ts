/**
 * A peer that sends its body slowly, or never, to the Fetch handler on Node's HTTP server (through
 * @hono/node-server, as the guide's Hono recipe): answered 408 at bodyTimeoutMs with Connection:
 * close, and the socket is closed by the server (it does not wait for Node's requestTimeout). Its
 * own file: the case waits for the bound it checks.
 */
import { postStalledBody } from '@smsv4/testing';
import { describe, expect, it } from 'vitest';
import { createFetchWebhookHandler } from '../src/index.js';
import { listenFetch } from './helpers.js';

/** The headers of the stalled posts (the body never comes whole: 400 bytes declared). */
const STALLED = { headers: { 'X-API-Version': '4', 'Content-Type': 'application/xml; charset=UTF-8' } };

describe('the body-read deadline of the Fetch handler on Node', () => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const receiver = createFetchWebhookHandler({ allowUnauthenticated: true, bodyTimeoutMs: 300, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined });
    const server = await listenFetch(receiver);
    try {
      const replies = await Promise.all([postStalledBody(`${server.url}/callbacks`, { ...STALLED, sent: '<?xml version="1.0"?><deliveryReceipt' }), postStalledBody(`${server.url}/callbacks`, STALLED)]);
      for (const reply of replies) {
        expect(reply).toMatch(/^HTTP\/1\.1 408 /);
        expect(reply.toLowerCase()).toContain('connection: close');
        expect(reply).toContain('The request body was not received within 300 ms');
      }
      expect(handled).toEqual([]);
    } finally {
      receiver.close();
      await server.close();
    }
  });
});

/**
 * A peer that sends its body slowly, or never: answered 408 at bodyTimeoutMs with Connection:
 * close, and the socket is closed by the server (it does not wait for Node's requestTimeout).
 * Its own file: each case waits for the bound it checks.
 */
import { postStalledBody } from '@smsv4/testing';
import { describe, expect, it } from 'vitest';
import { createWebhookMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, listen } from './helpers.js';

const BODY_TIMEOUT_MS = 300;

/** The headers of the stalled posts (the body never comes whole: 400 bytes declared). */
const STALLED = { headers: { 'X-API-Version': '4', 'Content-Type': 'application/xml; charset=UTF-8' } };

describe.each(EXPRESS_VERSIONS)('%s: the body-read deadline', (_name, createApp) => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const app = createApp();
    app.use('/callbacks', createWebhookMiddleware({ allowUnauthenticated: true, bodyTimeoutMs: BODY_TIMEOUT_MS, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined }));
    const server = await listen(app);
    const replies = await Promise.all([postStalledBody(`${server.url}/callbacks`, { ...STALLED, sent: '<?xml version="1.0"?><deliveryReceipt' }), postStalledBody(`${server.url}/callbacks`, STALLED)]);
    for (const reply of replies) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(reply.toLowerCase()).toContain('connection: close');
      expect(reply).toContain('The request body was not received within 300 ms');
    }
    expect(handled).toEqual([]);
    await server.close();
  });
});

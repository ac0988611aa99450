/**
 * A peer that sends its body slowly, or never: answered 408 at bodyTimeoutMs with Connection:
 * close, and the socket is closed by the server (Fastify bounds nothing by default). Its own file:
 * the case waits for the bound it checks.
 */
import { postStalledBody } from '@smsv4/testing';
import { describe, expect, it } from 'vitest';
import { fastifyWebhooks } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

/** The headers of the stalled posts (the body never comes whole: 400 bytes declared). */
const STALLED = { headers: { 'X-API-Version': '4', 'Content-Type': 'application/xml; charset=UTF-8' } };

describe.each(FASTIFY_VERSIONS)('%s: the body-read deadline', (_name, createApp) => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const app = createApp();
    await app.register(fastifyWebhooks, { prefix: '/callbacks', allowUnauthenticated: true, bodyTimeoutMs: 300, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined });
    const url = await listen(app);
    const replies = await Promise.all([postStalledBody(`${url}/callbacks`, { ...STALLED, sent: '<?xml version="1.0"?><deliveryReceipt' }), postStalledBody(`${url}/callbacks`, STALLED)]);
    for (const reply of replies) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(reply.toLowerCase()).toContain('connection: close');
    }
    expect(handled).toEqual([]);
    await app.close();
  });
});

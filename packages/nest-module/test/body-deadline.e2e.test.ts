/**
 * A peer that sends its body slowly, or never, to the module's controller, on Nest's Express and
 * Fastify platforms: an XML body (which Nest's parsers leave to the controller) is answered 408 at
 * bodyTimeoutMs with Connection: close, and the socket is closed by the server (it does not wait
 * for Node's requestTimeout). Its own file: the case waits for the bound it checks.
 */
import { postStalledBody } from '@smsv4/testing';
import { describe, expect, it } from 'vitest';
import { startReceiverOn, type Platform } from './helpers.js';

/** The headers of the stalled posts (the body never comes whole: 400 bytes declared). */
const STALLED = { headers: { 'X-API-Version': '4', 'Content-Type': 'application/xml; charset=UTF-8' } };

describe.each(['express', 'fastify'] satisfies Platform[])('on Nest with %s: the body-read deadline', (platform) => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const receiver = await startReceiverOn(platform, { allowUnauthenticated: true, bodyTimeoutMs: 300, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined });
    try {
      const replies = await Promise.all([postStalledBody(receiver.url, { ...STALLED, sent: '<?xml version="1.0"?><deliveryReceipt' }), postStalledBody(receiver.url, STALLED)]);
      for (const reply of replies) {
        expect(reply).toMatch(/^HTTP\/1\.1 408 /);
        expect(reply.toLowerCase()).toContain('connection: close');
      }
      expect(handled).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

/**
 * What is Express's own in taking events: the request and the trusted address handed to handlers.
 * Duplicates, multipart parts in any order, orphans and offsets are in the receiver conformance
 * suite (conformance.e2e.test.ts).
 */
import { postFixture } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware, type ExpressPlatform, type WebhookContext } from '../src/index.js';
import { EXPRESS_VERSIONS, listen, type Listening } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('receiving on %s', (_name, createApp) => {
  let server: Listening;
  const contexts: WebhookContext<ExpressPlatform>[] = [];
  const receiver = createWebhookMiddleware({ allowUnauthenticated: true, onDeliveryReceipt: (_receipt, context) => void contexts.push(context) });

  beforeAll(async () => {
    const app = createApp();
    app.set('trust proxy', 'loopback');
    app.use('/callbacks', receiver);
    server = await listen(app);
  });

  afterAll(async () => {
    receiver.close();
    await server.close();
  });

  it('gives handlers the Express request and the address Express trusts', async () => {
    await postFixture(`${server.url}/callbacks`, 'receipt-single-delivered.json', { headers: { 'x-forwarded-for': '203.0.113.9' }, userAgent: 'test-suite' });
    const context = contexts.at(-1);
    expect(context?.remoteAddress).toBe('203.0.113.9');
    expect(context?.platform?.req.headers['user-agent']).toBe('test-suite');
    expect(context?.format).toBe('json');
  });
});

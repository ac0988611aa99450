/**
 * What is Express's own among the paths on which the receiver does not take a callback: a body
 * another parser consumed. Every other rejection is in the receiver conformance suite
 * (conformance.e2e.test.ts).
 */
import { postFixture } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware, type WebhookError } from '../src/index.js';
import { EXPRESS_VERSIONS, listen, type Listening } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('rejections on %s', (_name, createApp) => {
  let server: Listening;
  const errors: WebhookError[] = [];

  beforeAll(async () => {
    const app = createApp();
    app.use(
      '/consumed',
      (req, _res, next) => {
        // An XML body parser of another library: it consumes the stream and leaves an object.
        req.resume();
        req.on('end', () => {
          Object.assign(req, { body: { deliveryReceipt: {} }, _body: true });
          next();
        });
      },
      createWebhookMiddleware({ onError: (e: WebhookError) => errors.push(e), onDeliveryReceipt: () => undefined }),
    );
    server = await listen(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers 500 when another parser consumed the body into something it cannot read back', async () => {
    const answer = await postFixture(`${server.url}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(errors.some((e) => e.code === 'receiver-misconfigured')).toBe(true);
  });
});

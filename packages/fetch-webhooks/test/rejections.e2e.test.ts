/**
 * What is the Fetch receiver's own among the paths on which it does not take a callback: a body
 * middleware read first (the advice names `c.req.raw`). Every other rejection is in the receiver
 * conformance suite (conformance.e2e.test.ts).
 */
import { postFixture } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchWebhookHandler, type WebhookError } from '../src/index.js';
import { listenFetch, type Listening } from './helpers.js';

describe('rejections of the Fetch receiver', () => {
  let server: Listening;
  const errors: WebhookError[] = [];
  const consumed = createFetchWebhookHandler({ allowUnauthenticated: true, onError: (e: WebhookError) => void errors.push(e), onDeliveryReceipt: () => undefined });

  beforeAll(async () => {
    server = await listenFetch(async (request) => {
      // Middleware that parsed the body before the receiver (a validator, c.req.json()).
      await request.text();
      return consumed(request);
    });
  });

  afterAll(async () => {
    consumed.close();
    await server.close();
  });

  it('answers 500 when something read the body before the receiver, and says what to do', async () => {
    const answer = await postFixture(`${server.url}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    const error = errors.find((e) => e.code === 'receiver-misconfigured');
    expect(error?.message).toMatch(/c\.req\.raw/);
  });
});

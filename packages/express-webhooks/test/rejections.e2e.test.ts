/**
 * What is Express's own among the paths on which the receiver does not take a callback: a body
 * another parser consumed. Every other rejection is in the receiver conformance suite
 * (conformance.e2e.test.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookHandler } from '@smsv4/core';
import { postFixture, serve } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeBodyReader, createWebhookMiddleware, type WebhookError } from '../src/index.js';
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
      createWebhookMiddleware({ allowUnauthenticated: true, onError: (e: WebhookError) => errors.push(e), onDeliveryReceipt: () => undefined }),
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
    // The advice is Express's: where the receiver goes.
    expect(errors.find((e) => e.code === 'receiver-misconfigured')?.message).toMatch(/: mount the receiver before it, or keep req\.rawBody$/);
  });
});

describe('createNodeBodyReader on Node\'s http, its advice given', () => {
  it('answers 500 with the consumedAdvice given when a parser consumed the body, and reads the stream otherwise', async () => {
    const errors: WebhookError[] = [];
    const receiver = createWebhookHandler({ allowUnauthenticated: true, onError: (e) => errors.push(e), onDeliveryReceipt: () => undefined });
    const answer = async (req: IncomingMessage, res: ServerResponse) => {
      const { status, headers, body } = await receiver.handle({
        method: req.method ?? '',
        headers: req.headers,
        body: createNodeBodyReader(req, { consumedAdvice: 'register the callback route before the XML parser' }),
      });
      res.writeHead(status, headers).end(body);
    };
    await using server = await serve((req, res) => {
      if (req.url !== '/consumed') return void answer(req, res);
      // An XML body parser of another library: it consumes the stream and leaves an object.
      req.resume();
      req.on('end', () => {
        Object.assign(req, { body: { deliveryReceipt: {} }, _body: true });
        void answer(req, res);
      });
    });
    expect((await postFixture(`${server.url}/consumed`, 'receipt-single-delivered.xml')).status).toBe(500);
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['receiver-misconfigured', 'the request body was consumed by a body parser whose result the receiver cannot read back: register the callback route before the XML parser'],
    ]);
    expect((await postFixture(`${server.url}/read`, 'receipt-single-delivered.xml')).status).toBe(200);
  });
});

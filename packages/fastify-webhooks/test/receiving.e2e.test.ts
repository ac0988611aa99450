/**
 * What is Fastify's own in taking events: the request and trusted address handed to handlers, the
 * route with a trailing slash, living inside an application (encapsulation, hooks, close).
 * Duplicates, multipart parts in any order and orphans are in the receiver conformance suite
 * (conformance.e2e.test.ts).
 */
import { Readable } from 'node:stream';
import { callbackFixture, postFixture } from '@smsv4/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks, type FastifyPlatform, type InboundMessage, type WebhookContext } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

describe.each(FASTIFY_VERSIONS)('receiving on %s', (_name, createApp) => {
  let app: FastifyInstance;
  let origin: string;
  const receipts: string[] = [];
  const contexts: WebhookContext<FastifyPlatform>[] = [];
  const hooks: string[] = [];

  beforeAll(async () => {
    app = createApp({ trustProxy: '127.0.0.1', bodyLimit: 1024 });
    // The application's own parser and routes, around the plugin.
    app.addContentTypeParser('application/xml', { parseAs: 'string' }, (_request, body, done) => done(null, { parsedByTheApp: String(body).length }));
    app.post('/api/echo', async (request) => ({ body: request.body }));
    app.addHook('onRequest', async (request) => void hooks.push(`${request.method} ${request.url}`));
    await app.register(fastifyWebhooks, {
      allowUnauthenticated: true,
      prefix: '/callbacks',
      onDeliveryReceipt: (receipt, context) => {
        contexts.push(context);
        receipts.push(`${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`);
      },
      // Larger than the application's bodyLimit: the plugin's own limit applies on its route.
      maxBodyBytes: 64 * 1024,
    });
    await app.register(
      async (scope) => {
        // A hook of the application that reads the body ahead and hands on a stream of the same bytes.
        scope.addHook('preParsing', async (_request, _reply, payload) => {
          const chunks: Buffer[] = [];
          for await (const chunk of payload) chunks.push(chunk as Buffer);
          return Readable.from([Buffer.concat(chunks)]);
        });
        await scope.register(fastifyWebhooks, { allowUnauthenticated: true, prefix: '/re-streamed', onDeliveryReceipt: (receipt) => void receipts.push(`re-streamed ${receipt.mtStatus.ticketId}`) });
      },
    );
    origin = await listen(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('takes a callback on its route with a trailing slash, and answers a repeat there 200 without handling it again', async () => {
    expect(await postFixture(`${origin}/callbacks`, 'receipt-multipart-part2-expired.xml')).toMatchObject({ status: 200, body: '' });
    expect((await postFixture(`${origin}/callbacks/`, 'receipt-multipart-part2-expired.xml')).status).toBe(200);
    expect(await postFixture(`${origin}/callbacks/`, 'receipt-multipart-part3-delivered.xml')).toMatchObject({ status: 200, body: '' });
    expect(receipts).toEqual(['03155-0331L-1439U-51SLFX#2', '03155-0331L-1439U-51SLFX#3']);
  });

  it('takes a callback whose body a preParsing hook read ahead and handed on as a stream', async () => {
    expect(await postFixture(`${origin}/re-streamed`, 'receipt-single-delivered.xml')).toMatchObject({ status: 200, body: '' });
    expect(receipts).toContain('re-streamed 44101-0922I-13413-21GDL');
  });

  it('gives handlers the Fastify request and the address Fastify trusts', async () => {
    await postFixture(`${origin}/callbacks`, 'receipt-single-delivered.json', { headers: { 'x-forwarded-for': '203.0.113.9' }, userAgent: 'test-suite' });
    const context = contexts.at(-1);
    expect(context?.remoteAddress).toBe('203.0.113.9');
    expect(context?.platform?.request.headers['user-agent']).toBe('test-suite');
    expect(context?.format).toBe('json');
  });

  it('keeps its parser to itself: the application still parses its own routes, and its parser never sees a callback', async () => {
    const echoed = await fetch(`${origin}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(await echoed.json()).toEqual({ body: { parsedByTheApp: 4 } });
    const json = await fetch(`${origin}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await json.json()).toEqual({ body: { a: 1 } });
    // The application's bodyLimit (1024) does not cut a callback the receiver takes (up to 64 KiB).
    const padded = callbackFixture('receipt-single-delivered.xml').body.replace('<deliveryReceipt', `${' '.repeat(2000)}<deliveryReceipt`);
    expect(padded.length).toBeGreaterThan(1024);
    const answer = await fetch(`${origin}/callbacks`, { method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-version': '4' }, body: padded });
    expect(answer.status).toBe(200);
    expect((await fetch(`${origin}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: padded })).status).toBe(413);
  });

  it("runs the application's hooks on the plugin's route", () => {
    expect(hooks).toContain('POST /callbacks');
  });

  it('hands incomplete messages over as orphans when the application closes', async () => {
    const closing = createApp();
    const handed: InboundMessage[] = [];
    await closing.register(fastifyWebhooks, { allowUnauthenticated: true, prefix: '/callbacks', onInboundMessage: (message) => void handed.push(message) });
    const url = await listen(closing);
    expect((await postFixture(`${url}/callbacks`, 'inbound-ref8-part1.xml')).status).toBe(200);
    expect(handed).toHaveLength(0);
    await closing.close();
    expect(handed).toMatchObject([{ complete: false, missingParts: [2] }]);
  });
});

/** Every path on which the Fetch receiver does not take a callback, over real HTTP on loopback. */
import { basicAuthorization } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchWebhookHandler, type FetchWebhookHandler, type WebhookError } from '../src/index.js';
import { callbackHeaders, listenFetch, loadFixture, postCallback, type Listening } from './helpers.js';

/** A body of `size` spaces sent as a stream, without a Content-Length (chunked transfer). */
function streamOf(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += 1024;
      controller.enqueue(new Uint8Array(1024).fill(0x20));
    },
  });
}

describe('rejections of the Fetch receiver', () => {
  let server: Listening;
  const errors: WebhookError[] = [];
  const handled: string[] = [];
  const credentials = { username: 'openmarket', password: 'callback-secret' };
  const authorization = basicAuthorization({ accountId: credentials.username, password: credentials.password });
  const receivers: FetchWebhookHandler[] = [];

  beforeAll(async () => {
    const common = { onError: (e: WebhookError) => errors.push(e), maxBodyBytes: 4096, handlerTimeoutMs: 100 };
    const routes: Record<string, FetchWebhookHandler> = {
      '/open': createFetchWebhookHandler({ ...common, onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId), onInboundMessage: () => undefined }),
      '/receipts-only': createFetchWebhookHandler({ ...common, onDeliveryReceipt: () => undefined }),
      '/auth': createFetchWebhookHandler({ ...common, basicAuth: credentials, onDeliveryReceipt: () => undefined }),
      '/allow-list': createFetchWebhookHandler({
        ...common,
        getRemoteAddress: (request) => request.headers.get('x-test-peer') ?? undefined,
        allowRemoteAddress: (ip) => ip === '192.0.2.10',
        onDeliveryReceipt: () => undefined,
      }),
      '/failing': createFetchWebhookHandler({ ...common, onDeliveryReceipt: () => Promise.reject(new Error('database down')) }),
      '/slow': createFetchWebhookHandler({ ...common, onDeliveryReceipt: () => new Promise((r) => setTimeout(r, 1000)) }),
    };
    receivers.push(...Object.values(routes));
    const consumed = createFetchWebhookHandler({ ...common, onDeliveryReceipt: () => undefined });
    receivers.push(consumed);
    server = await listenFetch(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/consumed') {
        // Middleware that parsed the body before the receiver (a validator, c.req.json()).
        await request.text();
        return consumed(request);
      }
      const route = routes[path];
      return route === undefined ? new Response('not found', { status: 404 }) : route(request);
    });
  });

  afterAll(async () => {
    for (const r of receivers) r.close();
    await server.close();
  });

  it('takes a valid receipt (the baseline of the rejections below)', async () => {
    const answer = await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 200, body: '' });
    expect(handled).toContain('44101-0922I-13413-21GDL');
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(`${server.url}/open`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 403 to a peer the allow-list refuses, and takes the allowed one', async () => {
    expect((await postCallback(`${server.url}/allow-list`, 'receipt-single-delivered.xml', { 'x-test-peer': '198.51.100.7' })).status).toBe(403);
    expect((await postCallback(`${server.url}/allow-list`, 'receipt-single-delivered.xml')).status).toBe(403);
    expect((await postCallback(`${server.url}/allow-list`, 'receipt-single-delivered.xml', { 'x-test-peer': '192.0.2.10' })).status).toBe(200);
  });

  it('answers 401 with a Basic challenge without or with wrong credentials, and takes the right ones', async () => {
    const none = await postCallback(`${server.url}/auth`, 'receipt-single-delivered.xml');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="sms-callbacks"/);
    const wrong = basicAuthorization({ accountId: 'openmarket', password: 'callback-secreT' });
    expect((await postCallback(`${server.url}/auth`, 'receipt-single-delivered.xml', { authorization: wrong })).status).toBe(401);
    expect((await postCallback(`${server.url}/auth`, 'receipt-single-delivered.xml', { authorization })).status).toBe(200);
  });

  it('answers 400 without X-API-Version: 4', async () => {
    const answer = await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml', { 'x-api-version': '3' });
    expect(answer).toMatchObject({ status: 400, body: 'X-API-Version must be 4\n' });
  });

  it.each(['text/plain', 'text/html', 'application/x-www-form-urlencoded', 'application/xml; charset=UTF-16'])('answers Content-Type %s with 415', async (type) => {
    expect((await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml', { 'content-type': type })).status).toBe(415);
  });

  it('answers a gzip-encoded body with 415', async () => {
    expect((await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml', { 'content-encoding': 'gzip' })).status).toBe(415);
  });

  it('answers 413 to a declared oversize body, and to an oversize chunked body', async () => {
    const big = `<deliveryReceipt>${' '.repeat(5000)}</deliveryReceipt>`;
    const declared = await fetch(`${server.url}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: big });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('Payload exceeds 4096 bytes\n');
    const chunked = await fetch(`${server.url}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: streamOf(64 * 1024), duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.text()).toBe('Payload exceeds 4096 bytes\n');
  });

  it.each([
    ['receipt-truncated.json', /^Malformed payload: Invalid JSON in the payload/],
    ['receipt-missing-ticket.json', /deliveryReceipt\.mtStatus\.ticketId is missing/],
    ['receipt-hostile-billion-laughs.xml', /Invalid XML in the payload/],
    ['receipt-unterminated-cdata.xml', /Invalid XML in the payload/],
    ['status-not-a-callback.xml', /neither a deliveryReceipt nor a mobileOriginate/],
  ])('answers %s with 400 and says why', async (fixture, message) => {
    const answer = await postCallback(`${server.url}/open`, fixture);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(message);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers 400 to an empty body', async () => {
    const response = await fetch(`${server.url}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: '' });
    expect(response.status).toBe(400);
  });

  it('answers 422 to a kind of callback the URL does not take', async () => {
    const answer = await postCallback(`${server.url}/receipts-only`, 'inbound-text.json');
    expect(answer).toMatchObject({ status: 422, body: 'This URL does not take inbound messages\n' });
  });

  it('answers 500 when the handler fails, without telling why', async () => {
    const answer = await postCallback(`${server.url}/failing`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(answer.body).not.toMatch(/database/);
    expect(errors.some((e) => e.code === 'handler-failed' && (e.cause as Error).message === 'database down')).toBe(true);
  });

  it('answers 503 when the handler takes too long', async () => {
    const answer = await postCallback(`${server.url}/slow`, 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 503, body: 'The event was not handled in time; retry later\n' });
  });

  it('answers 500 when something read the body before the receiver, and says what to do', async () => {
    const answer = await postCallback(`${server.url}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    const error = errors.find((e) => e.code === 'receiver-misconfigured');
    expect(error?.message).toMatch(/c\.req\.raw/);
  });

  it('keeps answering on the same connection after rejections that did not read the body', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml', { 'content-type': 'text/plain' })).status).toBe(415);
    }
    expect((await postCallback(`${server.url}/open`, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
    expect(loadFixture('receipt-single-delivered.xml').length).toBeGreaterThan(0);
  });
});

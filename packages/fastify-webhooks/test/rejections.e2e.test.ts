/** Every path on which the Fastify plugin does not take a callback, over real HTTP, on Fastify 4 and 5. */
import { request as httpRequest } from 'node:http';
import { basicAuthorization } from '@smsv4/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks, type FastifyWebhooksOptions, type WebhookError } from '../src/index.js';
import { FASTIFY_VERSIONS, callbackHeaders, listen, loadFixture, postCallback } from './helpers.js';

/** Posts a body of `size` bytes in chunks without a Content-Length (chunked transfer). */
function postChunked(url: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: callbackHeaders('x.xml') }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(1024, 0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe.each(FASTIFY_VERSIONS)('rejections on %s', (_name, createApp) => {
  let app: FastifyInstance;
  let origin: string;
  const errors: WebhookError[] = [];
  const handled: string[] = [];
  const credentials = { username: 'openmarket', password: 'callback-secret' };
  const authorization = basicAuthorization({ accountId: credentials.username, password: credentials.password });

  beforeAll(async () => {
    app = createApp({ trustProxy: '127.0.0.1' });
    const common = { onError: (e: WebhookError) => errors.push(e), maxBodyBytes: 4096, handlerTimeoutMs: 100 };
    const mount = (prefix: string, options: FastifyWebhooksOptions) => app.register(fastifyWebhooks, { prefix, ...options });
    mount('/open', { ...common, onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId), onInboundMessage: () => undefined });
    mount('/receipts-only', { ...common, onDeliveryReceipt: () => undefined });
    mount('/auth', { ...common, basicAuth: credentials, onDeliveryReceipt: () => undefined });
    mount('/allow-list', { ...common, allowRemoteAddress: (ip) => ip === '192.0.2.10', onDeliveryReceipt: () => undefined });
    mount('/failing', { ...common, onDeliveryReceipt: () => Promise.reject(new Error('database down')) });
    mount('/slow', { ...common, onDeliveryReceipt: () => new Promise((r) => setTimeout(r, 1000)) });
    app.register(async (scope) => {
      // A hook of the application that reads the body before the plugin's route.
      scope.addHook('preHandler', async (request) => {
        for await (const _chunk of request.raw) void _chunk;
      });
      await scope.register(fastifyWebhooks, { prefix: '/consumed', ...common, onDeliveryReceipt: () => undefined });
    });
    origin = await listen(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('takes a valid receipt (the baseline of the rejections below)', async () => {
    const answer = await postCallback(`${origin}/open`, 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 200, body: '' });
    expect(handled).toContain('44101-0922I-13413-21GDL');
  });

  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(`${origin}/open`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 403 to a peer the allow-list refuses (the address Fastify trusts), and takes the allowed one', async () => {
    expect((await postCallback(`${origin}/allow-list`, 'receipt-single-delivered.xml')).status).toBe(403);
    expect((await postCallback(`${origin}/allow-list`, 'receipt-single-delivered.xml', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(403);
    expect((await postCallback(`${origin}/allow-list`, 'receipt-single-delivered.xml', { 'x-forwarded-for': '192.0.2.10' })).status).toBe(200);
  });

  it('answers 401 with a Basic challenge without or with wrong credentials, and takes the right ones', async () => {
    const none = await postCallback(`${origin}/auth`, 'receipt-single-delivered.xml');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="sms-callbacks"/);
    const wrong = basicAuthorization({ accountId: 'openmarket', password: 'callback-secreT' });
    expect((await postCallback(`${origin}/auth`, 'receipt-single-delivered.xml', { authorization: wrong })).status).toBe(401);
    expect((await postCallback(`${origin}/auth`, 'receipt-single-delivered.xml', { authorization })).status).toBe(200);
  });

  it('answers 400 without X-API-Version: 4', async () => {
    const answer = await postCallback(`${origin}/open`, 'receipt-single-delivered.xml', { 'x-api-version': '3' });
    expect(answer).toMatchObject({ status: 400, body: 'X-API-Version must be 4\n' });
  });

  it.each(['text/plain', 'text/html', 'application/x-www-form-urlencoded', 'application/xml; charset=UTF-16'])('answers Content-Type %s with 415', async (type) => {
    expect((await postCallback(`${origin}/open`, 'receipt-single-delivered.xml', { 'content-type': type })).status).toBe(415);
  });

  it('answers a body without Content-Type with 415', async () => {
    const response = await fetch(`${origin}/open`, { method: 'POST', headers: { 'x-api-version': '4' }, body: new TextEncoder().encode(loadFixture('receipt-single-delivered.xml')) });
    expect(response.status).toBe(415);
  });

  it('answers a gzip-encoded body with 415', async () => {
    expect((await postCallback(`${origin}/open`, 'receipt-single-delivered.xml', { 'content-encoding': 'gzip' })).status).toBe(415);
  });

  it('answers 413 to a declared oversize body, and to an oversize chunked body', async () => {
    const big = `<deliveryReceipt>${' '.repeat(5000)}</deliveryReceipt>`;
    const declared = await fetch(`${origin}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: big });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('Payload exceeds 4096 bytes\n');
    expect(await postChunked(`${origin}/open`, 64 * 1024)).toEqual({ status: 413, body: 'Payload exceeds 4096 bytes\n' });
  });

  it.each([
    ['receipt-truncated.json', /^Malformed payload: Invalid JSON in the payload/],
    ['receipt-missing-ticket.json', /deliveryReceipt\.mtStatus\.ticketId is missing/],
    ['receipt-hostile-billion-laughs.xml', /Invalid XML in the payload/],
    ['receipt-unterminated-cdata.xml', /Invalid XML in the payload/],
    ['status-not-a-callback.xml', /neither a deliveryReceipt nor a mobileOriginate/],
  ])('answers %s with 400 and says why', async (fixture, message) => {
    const answer = await postCallback(`${origin}/open`, fixture);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(message);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers 400 to an empty body', async () => {
    const response = await fetch(`${origin}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: '' });
    expect(response.status).toBe(400);
  });

  it('answers 422 to a kind of callback the URL does not take', async () => {
    const answer = await postCallback(`${origin}/receipts-only`, 'inbound-text.json');
    expect(answer).toMatchObject({ status: 422, body: 'This URL does not take inbound messages\n' });
  });

  it('answers 500 when the handler fails, without telling why', async () => {
    const answer = await postCallback(`${origin}/failing`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(answer.body).not.toMatch(/database/);
    expect(errors.some((e) => e.code === 'handler-failed' && (e.cause as Error).message === 'database down')).toBe(true);
  });

  it('answers 503 when the handler takes too long', async () => {
    const answer = await postCallback(`${origin}/slow`, 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 503, body: 'The event was not handled in time; retry later\n' });
  });

  it('answers 500 when a hook read the body before the plugin, and says what to do', async () => {
    const answer = await postCallback(`${origin}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(errors.find((e) => e.code === 'receiver-misconfigured')?.message).toMatch(/read no body in hooks/);
  });

  it('drops a request whose body breaks off, without calling the handler', async () => {
    const before = handled.length;
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${origin}/open`, { method: 'POST', headers: { ...callbackHeaders('x.xml'), 'content-length': '2000' } });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(loadFixture('receipt-single-delivered.xml').slice(0, 100), () => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(handled.length).toBe(before);
    expect((await postCallback(`${origin}/open`, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
  });

  it('keeps the connection usable after rejections that did not read the body', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await postCallback(`${origin}/open`, 'receipt-single-delivered.xml', { 'content-type': 'text/plain' })).status).toBe(415);
    }
    expect((await postCallback(`${origin}/open`, 'receipt-multipart-part1-delivered.xml')).status).toBe(200);
  });

  it('refuses to register with options that make no sense', async () => {
    const bad = createApp();
    bad.register(fastifyWebhooks, { prefix: '/x' } as FastifyWebhooksOptions);
    await expect(bad.ready()).rejects.toThrow(/onDeliveryReceipt, onInboundMessage, or both/);
    await bad.close().catch(() => undefined);
  });
});

/** Every path on which the receiver does not take a callback, over real HTTP, on Express 4 and 5. */
import { request as httpRequest } from 'node:http';
import { basicAuthorization, type InboundMessage } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware, type WebhookError } from '../src/index.js';
import { EXPRESS_VERSIONS, callbackHeaders, listen, loadFixture, postCallback, type Listening } from './helpers.js';

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

describe.each(EXPRESS_VERSIONS)('rejections on %s', (_name, createApp) => {
  let server: Listening;
  const errors: WebhookError[] = [];
  const handled: string[] = [];
  const raw: InboundMessage[] = [];
  const credentials = { username: 'openmarket', password: 'callback-secret' };
  const authorization = basicAuthorization({ accountId: credentials.username, password: credentials.password });

  beforeAll(async () => {
    const app = createApp();
    const common = { onError: (e: WebhookError) => errors.push(e), maxBodyBytes: 4096, handlerTimeoutMs: 100 };
    app.use('/open', createWebhookMiddleware({ ...common, onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId), onInboundMessage: () => undefined }));
    app.use('/receipts-only', createWebhookMiddleware({ ...common, onDeliveryReceipt: () => undefined }));
    app.use('/inbound-raw', createWebhookMiddleware({ ...common, onInboundMessage: (m) => void raw.push(m) }));
    app.use('/auth', createWebhookMiddleware({ ...common, basicAuth: credentials, onDeliveryReceipt: () => undefined }));
    app.use('/allow-list', createWebhookMiddleware({ ...common, allowRemoteAddress: (ip) => ip === '192.0.2.10', onDeliveryReceipt: () => undefined }));
    app.use('/failing', createWebhookMiddleware({ ...common, onDeliveryReceipt: () => Promise.reject(new Error('database down')) }));
    app.use('/slow', createWebhookMiddleware({ ...common, onDeliveryReceipt: () => new Promise((r) => setTimeout(r, 1000)) }));
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
      createWebhookMiddleware({ ...common, onDeliveryReceipt: () => undefined }),
    );
    server = await listen(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('takes a valid receipt (the baseline of the rejections below)', async () => {
    const answer = await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 200, body: '' });
    expect(handled).toContain('44101-0922I-13413-21GDL');
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await fetch(`${server.url}/open`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 403 to a peer the allow-list refuses', async () => {
    expect((await postCallback(`${server.url}/allow-list`, 'receipt-single-delivered.xml')).status).toBe(403);
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

  it('answers 413 to a declared oversize body without reading it, and to an oversize chunked body', async () => {
    const big = `<deliveryReceipt>${' '.repeat(5000)}</deliveryReceipt>`;
    const declared = await fetch(`${server.url}/open`, { method: 'POST', headers: callbackHeaders('x.xml'), body: big });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('Payload exceeds 4096 bytes\n');
    expect(await postChunked(`${server.url}/open`, 64 * 1024)).toEqual({ status: 413, body: 'Payload exceeds 4096 bytes\n' });
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

  it('takes an inbound message whose user data header does not parse (200), whole and as received, saying why', async () => {
    const answer = await postCallback(`${server.url}/inbound-raw`, 'inbound-bad-udh.xml');
    expect(answer.status).toBe(200);
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ ticketId: '31QX9-0314A-0000C-77PQT', type: 'hexEncodedText', content: '0900034A0201', complete: true });
    expect(raw[0]?.text).toBeUndefined();
    expect(raw[0]?.headerProblem).toMatch(/^mobileOriginate\.message\.content does not start with a valid user data header \(udh is true\): /);
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

  it('answers 500 when another parser consumed the body into something it cannot read back', async () => {
    const answer = await postCallback(`${server.url}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(errors.some((e) => e.code === 'receiver-misconfigured')).toBe(true);
  });

  it('drops a request whose body breaks off, without calling the handler', async () => {
    const before = handled.length;
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${server.url}/open`, { method: 'POST', headers: { ...callbackHeaders('x.xml'), 'content-length': '2000' } });
      req.on('error', () => resolve());
      req.write(loadFixture('receipt-single-delivered.xml').slice(0, 100), () => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(handled.length).toBe(before);
    expect((await postCallback(`${server.url}/open`, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
  });

  it('keeps the connection usable after a rejection that did not read the body', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await postCallback(`${server.url}/open`, 'receipt-single-delivered.xml', { 'content-type': 'text/plain' })).status).toBe(415);
    }
    expect(loadFixture('receipt-single-delivered.xml').length).toBeGreaterThan(0);
  });
});

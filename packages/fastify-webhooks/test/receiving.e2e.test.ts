/** Taking events over real HTTP with captured payloads, and living inside an application: encapsulation, hooks, close. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks, type DuplicateEvent, type FastifyPlatform, type InboundMessage, type WebhookContext } from '../src/index.js';
import { FASTIFY_VERSIONS, eventually, listen, loadFixture, postCallback } from './helpers.js';

describe.each(FASTIFY_VERSIONS)('receiving on %s', (_name, createApp) => {
  let app: FastifyInstance;
  let origin: string;
  const receipts: string[] = [];
  const inbound: InboundMessage[] = [];
  const orphans: InboundMessage[] = [];
  const duplicates: DuplicateEvent[] = [];
  const contexts: WebhookContext<FastifyPlatform>[] = [];
  const hooks: string[] = [];

  beforeAll(async () => {
    app = createApp({ trustProxy: '127.0.0.1', bodyLimit: 1024 });
    // The application's own parser and routes, around the plugin.
    app.addContentTypeParser('application/xml', { parseAs: 'string' }, (_request, body, done) => done(null, { parsedByTheApp: String(body).length }));
    app.post('/api/echo', async (request) => ({ body: request.body }));
    app.addHook('onRequest', async (request) => void hooks.push(`${request.method} ${request.url}`));
    await app.register(fastifyWebhooks, {
      prefix: '/callbacks',
      onDeliveryReceipt: (receipt, context) => {
        contexts.push(context);
        receipts.push(`${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`);
      },
      onInboundMessage: (message) => void inbound.push(message),
      onDuplicate: (event) => void duplicates.push(event),
      // Larger than the application's bodyLimit: the plugin's own limit applies on its route.
      maxBodyBytes: 64 * 1024,
    });
    await app.register(fastifyWebhooks, { prefix: '/short', onInboundMessage: () => undefined, onOrphan: (message) => void orphans.push(message), reassemblyTimeoutMs: 100 });
    origin = await listen(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers each part of a multipart receipt 200 and every repeat 200 without handling it again', async () => {
    for (const fixture of ['receipt-multipart-part1-delivered.xml', 'receipt-multipart-part2-expired.xml', 'receipt-multipart-part3-delivered.xml']) {
      expect(await postCallback(`${origin}/callbacks`, fixture)).toMatchObject({ status: 200, body: '' });
    }
    expect((await postCallback(`${origin}/callbacks/`, 'receipt-multipart-part2-expired.xml')).status).toBe(200);
    expect(receipts).toEqual(['03155-0331L-1439U-51SLFX#1', '03155-0331L-1439U-51SLFX#2', '03155-0331L-1439U-51SLFX#3']);
    expect(duplicates.map((d) => d.key)).toEqual(['receipt:03155-0331L-1439U-51SLFX:2']);
  });

  it('gives handlers the Fastify request and the address Fastify trusts', async () => {
    await postCallback(`${origin}/callbacks`, 'receipt-single-delivered.json', { 'x-forwarded-for': '203.0.113.9' });
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
    const padded = loadFixture('receipt-single-delivered.xml').replace('<deliveryReceipt', `${' '.repeat(2000)}<deliveryReceipt`);
    expect(padded.length).toBeGreaterThan(1024);
    const answer = await fetch(`${origin}/callbacks`, { method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-version': '4' }, body: padded });
    expect(answer.status).toBe(200);
    expect((await fetch(`${origin}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: padded })).status).toBe(413);
  });

  it("runs the application's hooks on the plugin's route", () => {
    expect(hooks).toContain('POST /callbacks');
  });

  it('reassembles 16-bit UTF-16 parts posted last part first, and answers repeated parts 200', async () => {
    expect((await postCallback(`${origin}/callbacks`, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    expect(inbound).toHaveLength(0);
    expect((await postCallback(`${origin}/callbacks`, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    expect((await postCallback(`${origin}/callbacks`, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    expect(inbound).toHaveLength(1);
    expect(inbound[0]).toMatchObject({
      text: 'Привет! Это первая часть и вторая часть сообщения.',
      charset: 'UTF-16',
      ticketIds: ['8ZK1Q-0315A-77XX1-00001', '8ZK1Q-0315A-77XX1-00002'],
      complete: true,
    });
  });

  it('reports a part whose sibling never comes as an orphan', async () => {
    expect((await postCallback(`${origin}/short`, 'inbound-ref8-part1.xml')).status).toBe(200);
    const orphan = await eventually(() => orphans[0]);
    expect(orphan).toMatchObject({ complete: false, missingParts: [2], text: 'Hello ', ticketIds: ['31QX9-0314A-0000A-77PQR'] });
  });

  it('hands incomplete messages over as orphans when the application closes', async () => {
    const closing = createApp();
    const handed: InboundMessage[] = [];
    await closing.register(fastifyWebhooks, { prefix: '/callbacks', onInboundMessage: (message) => void handed.push(message) });
    const url = await listen(closing);
    expect((await postCallback(`${url}/callbacks`, 'inbound-ref8-part1.xml')).status).toBe(200);
    expect(handed).toHaveLength(0);
    await closing.close();
    expect(handed).toMatchObject([{ complete: false, missingParts: [2] }]);
  });
});

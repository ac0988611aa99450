/** Taking events over real HTTP with captured payloads: duplicates, multipart parts in any order, orphans. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware, type DuplicateEvent, type InboundMessage, type WebhookContext, type ExpressPlatform } from '../src/index.js';
import { EXPRESS_VERSIONS, eventually, listen, postCallback, type Listening } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('receiving on %s', (_name, createApp) => {
  let server: Listening;
  const receipts: string[] = [];
  const inbound: InboundMessage[] = [];
  const orphans: InboundMessage[] = [];
  const duplicates: DuplicateEvent[] = [];
  const contexts: WebhookContext<ExpressPlatform>[] = [];
  const middlewares: Array<{ close(): void }> = [];

  beforeAll(async () => {
    const app = createApp();
    app.set('trust proxy', 'loopback');
    const main = createWebhookMiddleware({
      onDeliveryReceipt: (receipt, context) => {
        contexts.push(context);
        receipts.push(`${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`);
      },
      onInboundMessage: (message) => void inbound.push(message),
      onDuplicate: (event) => void duplicates.push(event),
    });
    const short = createWebhookMiddleware({
      onInboundMessage: () => undefined,
      onOrphan: (message) => void orphans.push(message),
      reassemblyTimeoutMs: 100,
    });
    middlewares.push(main, short);
    app.use('/callbacks', main);
    app.use('/short', short);
    server = await listen(app);
  });

  afterAll(async () => {
    for (const m of middlewares) m.close();
    await server.close();
  });

  it('answers each part of a multipart receipt 200 and every repeat 200 without handling it again', async () => {
    for (const fixture of ['receipt-multipart-part1-delivered.xml', 'receipt-multipart-part2-expired.xml', 'receipt-multipart-part3-delivered.xml']) {
      expect(await postCallback(`${server.url}/callbacks`, fixture)).toMatchObject({ status: 200, body: '' });
    }
    expect((await postCallback(`${server.url}/callbacks`, 'receipt-multipart-part2-expired.xml')).status).toBe(200);
    expect(receipts).toEqual(['03155-0331L-1439U-51SLFX#1', '03155-0331L-1439U-51SLFX#2', '03155-0331L-1439U-51SLFX#3']);
    expect(duplicates.map((d) => d.key)).toEqual(['receipt:03155-0331L-1439U-51SLFX:2']);
  });

  it('gives handlers the Express request and the address Express trusts', async () => {
    await postCallback(`${server.url}/callbacks`, 'receipt-single-delivered.json', { 'x-forwarded-for': '203.0.113.9' });
    const context = contexts.at(-1);
    expect(context?.remoteAddress).toBe('203.0.113.9');
    expect(context?.platform?.req.headers['user-agent']).toBe('test-suite');
    expect(context?.format).toBe('json');
  });

  it('reassembles 16-bit UTF-16 parts posted last part first, and answers repeated parts 200', async () => {
    expect((await postCallback(`${server.url}/callbacks`, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    expect(inbound).toHaveLength(0);
    expect((await postCallback(`${server.url}/callbacks`, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
    expect((await postCallback(`${server.url}/callbacks`, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    expect(inbound).toHaveLength(1);
    expect(inbound[0]).toMatchObject({
      text: 'Привет! Это первая часть и вторая часть сообщения.',
      charset: 'UTF-16',
      ticketIds: ['8ZK1Q-0315A-77XX1-00001', '8ZK1Q-0315A-77XX1-00002'],
      complete: true,
    });
    expect((await postCallback(`${server.url}/callbacks`, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
    expect(inbound).toHaveLength(1);
  });

  it('takes an inbound message dated with an offset, as the service sends it (200), with its UTC instant', async () => {
    expect(await postCallback(`${server.url}/callbacks`, 'inbound-published-offset.xml')).toMatchObject({ status: 200, body: '' });
    const message = await eventually(() => inbound.find((m) => m.ticketId === '5Q2ZA-0829T-1510W-30UK9'));
    expect(message).toMatchObject({ submittedDate: '2015-08-29T15:10:03.029-05:00', submittedInstant: '2015-08-29T20:10:03.029Z', text: 'Is my order on its way?' });
  });

  it('reports a part whose sibling never comes as an orphan', async () => {
    expect((await postCallback(`${server.url}/short`, 'inbound-ref8-part1.xml')).status).toBe(200);
    const orphan = await eventually(() => orphans[0]);
    expect(orphan).toMatchObject({ complete: false, missingParts: [2], text: 'Hello ', ticketIds: ['31QX9-0314A-0000A-77PQR'] });
  });
});

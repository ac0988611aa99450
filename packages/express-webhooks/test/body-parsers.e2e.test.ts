/** The receiver reads the raw body itself, and still works when a body parser ran before it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookMiddleware, type DeliveryReceipt } from '../src/index.js';
import { postFixture } from '@smsv4/testing';
import { EXPRESS_MODULES, EXPRESS_VERSIONS, listen, type Listening } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('body parsers before the receiver on %s', (name, createApp) => {
  let server: Listening;
  const received: Array<{ path: string; ticketId: string; segment: number | undefined }> = [];
  const parsers = EXPRESS_MODULES[name as keyof typeof EXPRESS_MODULES];

  beforeAll(async () => {
    const app = createApp();
    const receiver = (path: string) =>
      createWebhookMiddleware({
        allowUnauthenticated: true,
        onDeliveryReceipt: (r: DeliveryReceipt) => void received.push({ path, ticketId: r.mtStatus.ticketId, segment: r.mtStatus.segmentNumber }),
      });
    app.use('/json-first', parsers.json(), receiver('json-first'));
    app.use('/text-first', parsers.text({ type: '*/*' }), receiver('text-first'));
    app.use('/raw-first', parsers.raw({ type: '*/*' }), receiver('raw-first'));
    app.use(
      '/verify-first',
      parsers.json({ verify: (req, _res, buf) => Object.assign(req, { rawBody: Buffer.from(buf) }) }),
      receiver('verify-first'),
    );
    app.use(
      '/raw-body-first',
      (req, _res, next) => {
        // Middleware of the application that reads the stream itself and leaves the bytes in req.rawBody.
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          Object.assign(req, { rawBody: Buffer.concat(chunks) });
          next();
        });
      },
      receiver('raw-body-first'),
    );
    app.use('/none', receiver('none'));
    server = await listen(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it.each(['none', 'json-first', 'text-first', 'raw-first', 'verify-first', 'raw-body-first'])('takes XML and JSON receipts at /%s', async (path) => {
    expect((await postFixture(`${server.url}/${path}`, 'receipt-single-delivered.json')).status).toBe(200);
    expect((await postFixture(`${server.url}/${path}`, 'receipt-multipart-part2-expired.xml')).status).toBe(200);
    expect(received.filter((r) => r.path === path)).toEqual([
      { path, ticketId: '44101-0922I-13413-21GDL', segment: undefined },
      { path, ticketId: '03155-0331L-1439U-51SLFX', segment: 2 },
    ]);
  });

  it('still detects duplicates of a body express.json() parsed', async () => {
    expect((await postFixture(`${server.url}/json-first`, 'receipt-single-delivered.json')).status).toBe(200);
    expect(received.filter((r) => r.path === 'json-first')).toHaveLength(2);
  });
});

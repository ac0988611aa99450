/**
 * The two ways a sandbox posts callbacks, Node's HTTP client (its default on Node) and `fetch`,
 * against one receiver on loopback: what the receiver gets and what each answers must agree.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWithFetch, RESPONSE_KEPT, type CallbackAnswer, type CallbackPost } from '../src/engine/callbacks.js';
import { createNodeCallbackPost } from '../src/engine/node-callback-post.js';

interface Got {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: Server;
let base: string;
const got: Got[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      switch (req.url) {
        case '/ok':
          res.writeHead(200).end();
          break;
        case '/text':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver says 500 – é');
          break;
        case '/long':
          res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(50_000));
          break;
        case '/redirect':
          res.writeHead(302, { location: '/ok' }).end();
          break;
        case '/hang':
          break;
        default:
          res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const node = createNodeCallbackPost();
afterAll(() => node.close());
const posts: ReadonlyArray<readonly [string, CallbackPost]> = [
  ['Node', node.post],
  ['fetch', postWithFetch(globalThis.fetch)],
];
const headers = { 'content-type': 'application/json; charset=UTF-8', 'x-api-version': '4', 'user-agent': 'smsv4-sandbox' };
const body = '{"deliveryReceipt":{"type":"final","mtStatus":{"ticketId":"A-B","code":4,"description":"é 👋"}}}';

async function both(path: string): Promise<Array<{ answer?: CallbackAnswer; error?: unknown; received?: Got }>> {
  const results = [];
  for (const [, post] of posts) {
    const before = got.length;
    try {
      const answer = await post(new URL(path, base), { headers, body, signal: AbortSignal.timeout(2_000) });
      results.push({ answer, received: got[before] });
    } catch (error) {
      results.push({ error, received: got[before] });
    }
  }
  return results;
}

describe('callback posts, Node client and fetch alike', () => {
  it('send the same method, headers and body, and read the same answer', async () => {
    const [viaNode, viaFetch] = await both('/text');
    for (const result of [viaNode, viaFetch]) {
      expect(result?.answer).toEqual({ status: 500, body: 'receiver says 500 – é' });
      expect(result?.received?.method).toBe('POST');
      expect(result?.received?.body).toBe(body);
      expect(result?.received?.headers).toMatchObject({ ...headers, 'content-length': String(Buffer.byteLength(body)) });
    }
  });

  it('keep only the start of a long answer, and follow no redirect', async () => {
    for (const result of await both('/long')) expect(result.answer).toEqual({ status: 200, body: 'x'.repeat(RESPONSE_KEPT) });
    for (const result of await both('/redirect')) expect(result.answer?.status).toBe(302);
    for (const result of await both('/ok')) expect(result.answer).toEqual({ status: 200, body: '' });
  });

  it('reject with the abort reason when the receiver does not answer in time', async () => {
    for (const [name, post] of posts) {
      const signal = AbortSignal.timeout(100);
      await expect(post(new URL('/hang', base), { headers, body, signal }), name).rejects.toMatchObject({ name: 'TimeoutError' });
    }
  });

  it('reject a network failure with its code, and a URL with credentials', async () => {
    // A port nothing listens on (fetch refuses some low ports outright).
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const closed = new URL(`http://127.0.0.1:${(spare.address() as AddressInfo).port}/`);
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    for (const [name, post] of posts) {
      const error = await post(closed, { headers, body, signal: AbortSignal.timeout(2_000) }).catch((e: unknown) => e);
      const e = error as { code?: string; cause?: { code?: string } };
      expect(e.code ?? e.cause?.code, name).toBe('ECONNREFUSED');
      await expect(post(new URL(base.replace('http://', 'http://user:pw@')), { headers, body, signal: AbortSignal.timeout(2_000) }), name).rejects.toThrow(
        /credentials/,
      );
    }
  });
});

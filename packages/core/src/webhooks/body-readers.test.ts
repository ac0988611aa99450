import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { BodyReadError } from '../body/body-read-error.js';
import { createRequestBodyReader, createStreamBodyReader } from './body-readers.js';
import { createWebhookHandler } from './webhook-handler.js';
import { WebhookError } from './webhook-error.js';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

async function* chunks(...list: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of list) yield chunk;
}
async function* failing(): AsyncGenerator<Uint8Array> {
  yield bytes(1);
  throw new Error('socket hang up');
}

describe('createStreamBodyReader', () => {
  it('resolves the octets, null when too large, and rejects a body that broke off', async () => {
    expect(await createStreamBodyReader(chunks(bytes(1), bytes(2)))(2)).toEqual(bytes(1, 2));
    expect(await createStreamBodyReader(chunks(bytes(1), bytes(2)))(1)).toBeNull();
    expect(await createStreamBodyReader(chunks(bytes(1)), { contentLength: '9' })(8)).toBeNull();
    await expect(createStreamBodyReader(failing())(8)).rejects.toBeInstanceOf(BodyReadError);
  });
});

describe('createRequestBodyReader', () => {
  it('resolves the octets, null when too large, and rejects a consumed body as a misconfiguration', async () => {
    const post = (body: string): Request => new Request('http://127.0.0.1/', { method: 'POST', body });
    expect(await createRequestBodyReader(post('ab'))(2)).toEqual(new TextEncoder().encode('ab'));
    expect(await createRequestBodyReader(post('abc'))(2)).toBeNull();
    const used = post('ab');
    await used.text();
    const rejection = await createRequestBodyReader(used)(2).catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(WebhookError);
    expect(rejection).toMatchObject({ code: 'receiver-misconfigured', message: 'the request body was read before the receiver: mount the receiver before anything that reads the body' });
    const advised = post('ab');
    await advised.text();
    await expect(createRequestBodyReader(advised, { consumedAdvice: 'hand over c.req.raw first' })(2)).rejects.toMatchObject({
      code: 'receiver-misconfigured',
      message: 'the request body was read before the receiver: hand over c.req.raw first',
    });
  });
});

describe('createStreamBodyReader', () => {
  it("ends a consumed stream's misconfiguration with the adapter's advice", async () => {
    const ended = Readable.from([new TextEncoder().encode('ab')]);
    for await (const chunk of ended) void chunk;
    await expect(createStreamBodyReader(ended, { consumedAdvice: 'read no body in hooks' })(2)).rejects.toMatchObject({
      code: 'receiver-misconfigured',
      message: 'the request body was read before the receiver: read no body in hooks',
    });
  });
});

const RECEIPT = loadFixture('delivery-receipt/single-delivered.xml');

describe('the readers behind the receiver, on a real Node request', () => {
  /** A Node server whose requests go to a receiver through createStreamBodyReader. */
  async function serve(maxBodyBytes: number) {
    const failures: unknown[] = [];
    const handler = createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: () => undefined, maxBodyBytes, requireApiVersion: false });
    const server = createServer((req: IncomingMessage, res) => {
      const read = createStreamBodyReader(req, { contentLength: req.headers['content-length'] });
      const body = (maxBytes: number) => read(maxBytes).catch((e: unknown) => {
        failures.push(e);
        throw e;
      });
      void handler.handle({ method: req.method ?? '', headers: req.headers, body }).then((answer) => res.writeHead(answer.status, answer.headers).end(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { port, failures, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  /** Posts a body in chunks without a declared length; resolves the status (or the socket error). */
  const postChunked = (port: number, parts: readonly string[], { destroyAfter }: { destroyAfter?: number } = {}): Promise<number | string> =>
    new Promise((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/xml', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (e) => resolve(e.message));
      parts.forEach((part, i) => {
        if (destroyAfter !== undefined && i === destroyAfter) return;
        req.write(part);
      });
      if (destroyAfter === undefined) req.end();
      else setTimeout(() => req.destroy(), 50);
    });

  it('takes a chunked body, and answers 413 on a connection still able to carry it when the body runs past the limit', async () => {
    const server = await serve(RECEIPT.length);
    try {
      expect(await postChunked(server.port, [RECEIPT.slice(0, 40), RECEIPT.slice(40)])).toBe(200);
      expect(await postChunked(server.port, [RECEIPT, ' '.repeat(100), ' '.repeat(100)])).toBe(413);
    } finally {
      await server.close();
    }
  });

  it('answers a body that breaks off mid-stream without crashing, and keeps serving', async () => {
    const server = await serve(1024);
    try {
      const broken = await postChunked(server.port, [RECEIPT.slice(0, 40), RECEIPT.slice(40)], { destroyAfter: 1 });
      expect(typeof broken).toBe('string');
      await expect.poll(() => server.failures.length).toBe(1);
      expect(server.failures[0]).toBeInstanceOf(BodyReadError);
      expect(server.failures[0]).toMatchObject({ code: 'aborted' });
      expect(await postChunked(server.port, [RECEIPT])).toBe(200);
    } finally {
      await server.close();
    }
  });
});

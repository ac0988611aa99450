import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WebhookError } from './webhook-error.js';
import { createNodeRequestBodyReader, type NodeRequestBody } from './node-request-body-reader.js';

const text = (value: unknown): string => new TextDecoder().decode(value as Uint8Array);

/** A Node request of `content-type`, its body streamed, or read by a parser that left `left` on it. */
function request(contentType: string, body: string, left?: Partial<Record<'body' | 'rawBody' | '_body', unknown>>): PassThrough & NodeRequestBody {
  const stream = new PassThrough();
  const req = Object.assign(stream, { headers: { 'content-type': contentType, 'content-length': String(new TextEncoder().encode(body).length) } });
  if (left === undefined) {
    stream.end(body);
    return req;
  }
  stream.resume();
  stream.end(body);
  return Object.assign(req, left);
}

const consumed = async (req: NodeRequestBody, options?: { consumedAdvice: string }): Promise<unknown> =>
  createNodeRequestBodyReader(req, options)(1024).catch((e: unknown) => e);

describe('createNodeRequestBodyReader', () => {
  it('reads an unread stream with the limit: its octets, null past the limit (Content-Length first)', async () => {
    expect(text(await createNodeRequestBodyReader(request('application/xml', '<a/>'))(4))).toBe('<a/>');
    expect(await createNodeRequestBodyReader(request('application/xml', '<a/>'))(3)).toBeNull();
  });

  it("takes back what a parser left: req.rawBody first, then bytes or text in req.body", async () => {
    const rawBody = new TextEncoder().encode('{"raw":1}');
    expect(await createNodeRequestBodyReader(request('application/json', '{"raw":1}', { _body: true, rawBody, body: { raw: 1 } }))(1024)).toBe(rawBody);
    expect(await createNodeRequestBodyReader(request('text/plain', '<a/>', { _body: true, body: '<a/>' }))(1024)).toBe('<a/>');
    const bytes = new TextEncoder().encode('<a/>');
    expect(await createNodeRequestBodyReader(request('application/xml', '<a/>', { _body: true, body: bytes }))(1024)).toBe(bytes);
  });

  it('writes parsed JSON back as text, and sees a stream read to its end without body-parser\'s flag as consumed', async () => {
    const req = request('application/json; charset=utf-8', '{"a": [1, "x"]}', { _body: true, body: { a: [1, 'x'] } });
    expect(await createNodeRequestBodyReader(req)(1024)).toBe('{"a":[1,"x"]}');
    const ended = request('application/json', '{"a":1}', { body: { a: 1 } });
    await new Promise((resolve) => ended.once('end', resolve));
    expect(await createNodeRequestBodyReader(ended)(1024)).toBe('{"a":1}');
  });

  it('rejects a body a parser turned into what cannot be read back as a misconfiguration, with the advice given', async () => {
    const xml = () => request('application/xml', '<a/>', { _body: true, body: { a: '' } });
    const withDefault = await consumed(xml());
    expect(withDefault).toBeInstanceOf(WebhookError);
    expect(withDefault).toMatchObject({
      code: 'receiver-misconfigured',
      message: 'the request body was consumed by a body parser whose result the receiver cannot read back: mount the receiver before it, or keep req.rawBody',
    });
    const advised = await consumed(xml(), { consumedAdvice: 'register the route without a parser' });
    expect((advised as Error).message).toMatch(/: register the route without a parser$/);
    // JSON parsed from a body that was not declared JSON is not written back either.
    expect(await consumed(request('text/plain', '{}', { _body: true, body: {} }))).toMatchObject({ code: 'receiver-misconfigured' });
  });
});

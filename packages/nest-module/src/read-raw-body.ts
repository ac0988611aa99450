/**
 * The raw body of a request for the receiver, whatever Nest's body parsers did: `req.rawBody` when
 * the application was created with `rawBody: true`, the unread stream (XML, which Nest's parsers
 * leave alone, or anything when `bodyParser: false`), or a parsed JSON value written back.
 */
import type { IncomingMessage } from 'node:http';
import { WebhookError, formatOfContentType, type BodyInput, type BodyReader } from '@smsv4/core';

/** What Nest's parsers (body-parser) may have left on the request. */
interface ParsedRequest extends IncomingMessage {
  body?: unknown;
  /** Set by Nest's parsers with `NestFactory.create(AppModule, { rawBody: true })`. */
  rawBody?: unknown;
  /** Set by body-parser 1 (Express 4, Nest 10) once it consumed the stream. */
  _body?: boolean;
}

const isBytesOrText = (value: unknown): value is BodyInput => typeof value === 'string' || value instanceof Uint8Array;

/** The body a parser already read, or `undefined` when the stream is still unread. */
function consumedBody(req: ParsedRequest): Promise<BodyInput> | undefined {
  if (req._body !== true && !req.readableEnded) return undefined;
  if (isBytesOrText(req.rawBody)) return Promise.resolve(req.rawBody);
  if (isBytesOrText(req.body)) return Promise.resolve(req.body);
  // Nest's JSON parser ran without rawBody: the text is gone, the value is written back (a repeated
  // member can no longer be seen).
  if (req.body !== null && typeof req.body === 'object' && formatOfContentType(req.headers['content-type']) === 'json') {
    return Promise.resolve(JSON.stringify(req.body));
  }
  return Promise.reject(
    new WebhookError(
      'receiver-misconfigured',
      'the request body was consumed by a body parser whose result the receiver cannot read back: create the application with { rawBody: true }, or do not parse this route',
    ),
  );
}

/** Reads the stream, stopping (and discarding the rest) once more than `maxBytes` arrived. */
function readStream(req: IncomingMessage, maxBytes: number): Promise<BodyInput | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.readableEnded && !over) reject(new Error('the request was aborted before its body was complete'));
    });
  });
}

/** A `BodyReader` for the request of a Nest application on Express. */
export function bodyReaderOf(req: IncomingMessage): BodyReader {
  return (maxBytes) => consumedBody(req) ?? readStream(req, maxBytes);
}

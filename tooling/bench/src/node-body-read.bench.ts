import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { readBodyStream } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

// A typical delivery receipt's size; each request gets its body on the next turn of the event loop, as from a socket.
const BODY = Buffer.from('x'.repeat(474));
const BATCH = 200;
const MAX_BYTES = 64 * 1024;

function request(): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = { 'content-length': String(BODY.length) };
  setImmediate(() => {
    req.push(BODY);
    req.push(null);
  });
  return req;
}

/** The hand-written reader the Express adapter had before core's: `data` / `end` / `error` / `close` events. */
function readWithEvents(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
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
      if (!req.readableEnded && !over) reject(new Error('aborted'));
    });
  });
}

const batch = (read: (req: IncomingMessage) => Promise<unknown>) => () => Promise.all(Array.from({ length: BATCH }, () => read(request())));

/** core's bounded stream reader on Node requests vs a hand-written `data`-event reader (and vs Node's async iterator). */
export const nodeBodyRead: BenchSuite = {
  id: 'node-body-read',
  title: "Reading a Node request's body: core's readBodyStream vs hand-written 'data' events",
  path: "Node request body read (readBodyStream)",
  items: BATCH,
  itemName: 'requests',
  baseline: { name: "hand-written 'data' events", fn: batch((req) => readWithEvents(req, MAX_BYTES)) },
  subjects: [
    { name: 'readBodyStream(req)', fn: batch((req) => readBodyStream(req, { maxBytes: MAX_BYTES, contentLength: req.headers['content-length'] })) },
    {
      name: "readBodyStream over the request's async iterator",
      // Hides the request's events, so the reader takes the async iterator protocol (the path of any other source).
      fn: batch((req) => readBodyStream({ [Symbol.asyncIterator]: () => req[Symbol.asyncIterator]() }, { maxBytes: MAX_BYTES, contentLength: req.headers['content-length'] })),
    },
  ],
  target: { kind: 'max-time-ratio', value: 1.1, subject: 'readBodyStream(req)' },
  notes: () => [
    `Body: ${BODY.length} bytes with its Content-Length, one chunk per request on the next turn of the event loop; ${BATCH} requests read concurrently per call (creating each request included in every row).`,
    "readBodyStream reads a Node stream through its events; the third row is the async iterator protocol every other source takes, which Node serves with more work per request.",
  ],
};

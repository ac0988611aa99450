import { readRequestBody } from '@smsv4/core';
import type { BenchSuite } from './harness.js';

// A typical delivery receipt's size, with its Content-Length, as a Fetch handler (Hono, Bun, a Worker) receives it.
const BODY = new TextEncoder().encode('x'.repeat(474));
const BATCH = 200;
const MAX_BYTES = 64 * 1024;

const request = (): Request => new Request('http://127.0.0.1/callbacks', { method: 'POST', body: BODY, headers: { 'content-length': String(BODY.length) } });
const response = (): Response => new Response(BODY, { headers: { 'content-length': String(BODY.length) } });

const batch = (read: () => Promise<unknown>) => () => Promise.all(Array.from({ length: BATCH }, read));

/** core's bounded reader of Fetch bodies, chunk by chunk with its limit, vs the runtime's unbounded `arrayBuffer()`. */
export const fetchBodyRead: BenchSuite = {
  id: 'fetch-body-read',
  title: "Reading a Fetch body: core's readRequestBody vs the runtime's arrayBuffer()",
  path: 'Fetch body read (readRequestBody)',
  items: BATCH,
  itemName: 'requests',
  baseline: { name: 'new Uint8Array(await request.arrayBuffer()) (no limit)', fn: batch(async () => new Uint8Array(await request().arrayBuffer())) },
  subjects: [
    { name: 'readRequestBody(request)', fn: batch(() => readRequestBody(request(), { maxBytes: MAX_BYTES })) },
    { name: 'readRequestBody(response) (the client reading an answer)', fn: batch(() => readRequestBody(response(), { maxBytes: MAX_BYTES })) },
  ],
  target: { kind: 'max-time-ratio', value: 1.1, subject: 'readRequestBody(request)' },
  notes: () => [
    `Body: ${BODY.length} bytes with its Content-Length; ${BATCH} requests read concurrently per call (creating each Request or Response included in every row). Node's own Request and Response (undici).`,
    'readRequestBody reads every body through its stream, counting octets and cancelling once past the limit whatever the Content-Length says; arrayBuffer() reads to the end with no limit.',
  ],
};

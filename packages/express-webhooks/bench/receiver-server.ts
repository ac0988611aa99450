/**
 * The server side of the load test, run in a child process (its own core): one Express app with
 * six POST routes that take the same XML receipts:
 * - `/bare`, the baseline: what a user writes to receive a receipt minimally, `express.text()` to
 *   read the body and fast-xml-parser to parse it, then `res.status(200).end()` (no body:
 *   `res.sendStatus()` would also hash one for its ETag);
 * - `/receiver`, the receiver mounted the same way (`app.post('/receiver', receiver)`), whose handler
 *   counts each receipt it takes by ticket ID and part (an async handler, as applications write them);
 * - `/ignore`, a route that answers 200 without reading the body (for reference: what any route costs);
 * - `/read` and `/decode`, the receiver's first steps alone (for reference: where its cost goes): core's
 *   bounded body reader, then 200 (the read floor); the same reader and `decodeCallback` (XML
 *   well-formedness, the receipt's members and rules, its timestamp), then 200 (the decode floor:
 *   what no receiver can avoid; each call is timed, and compared with the same bodies decoded in a
 *   tight loop when the stats are asked for);
 * - `/telemetry`, the same receiver given `telemetry: createTelemetry({ api })` with the OpenTelemetry
 *   API installed but no SDK registered (its providers are no-ops), counting apart.
 * Answers `stats` messages with the receivers' counts and the process's CPU time.
 */
import { createServer, type IncomingMessage } from 'node:http';
import * as otelApi from '@opentelemetry/api';
import { createTakenReceipts, serveLoad } from '@smsv4/bench/receiver-load';
import express5 from 'express';
import express4 from 'express4';
import { createTelemetry, decodeCallback, readBodyStream } from '@smsv4/core';
import { XMLParser } from 'fast-xml-parser';
import { createWebhookMiddleware } from '../src/index.js';

const major = process.argv[2] === '4' ? 4 : 5;
const express = major === 4 ? express4 : express5;
const app = express();
const handled = createTakenReceipts();
let duplicates = 0;
const handledWithTelemetry = createTakenReceipts();
let duplicatesWithTelemetry = 0;

// Receipts carry their facts in attributes: fast-xml-parser's default would drop them.
const parser = new XMLParser({ ignoreAttributes: false });
app.post('/bare', express.text({ type: ['application/xml', 'text/xml'] }), (req, res) => {
  parser.parse(req.body as string);
  res.status(200).end();
});
app.post('/ignore', (_req, res) => {
  res.status(200).end();
});
const readBody = (req: IncomingMessage) => readBodyStream(req, { maxBytes: 64 * 1024, contentLength: req.headers['content-length'] });
app.post('/read', (req, res) => {
  void readBody(req).then((body) => res.status(body.ok ? 200 : 400).end());
});
// decodeCallback timed in place (inside the server, between requests), and the bodies kept to time
// the same calls in a tight loop when the stats are asked for.
let decodeCalls = 0;
// Milliseconds (performance.now(): a number, no allocation inside the timed span).
let decodeMillis = 0;
const decoded: Uint8Array[] = [];
app.post('/decode', (req, res) => {
  void readBody(req).then((body) => {
    if (!body.ok) return void res.status(400).end();
    const started = performance.now();
    const ok = decodeCallback(body.value, 'xml').ok;
    decodeMillis += performance.now() - started;
    decodeCalls++;
    if (decoded.length < 4096 && typeof body.value !== 'string') decoded.push(body.value);
    res.status(ok ? 200 : 400).end();
  });
});
/** Nanoseconds per decodeCallback over the kept bodies in a tight loop (a warm-up pass first). */
function decodeInLoop(): number {
  if (decoded.length === 0) return 0;
  for (const body of decoded) decodeCallback(body, 'xml');
  const passes = 5;
  const started = performance.now();
  for (let p = 0; p < passes; p++) for (const body of decoded) decodeCallback(body, 'xml');
  return ((performance.now() - started) * 1e6) / (passes * decoded.length);
}
// An async handler, as applications write them.
const receiver = createWebhookMiddleware({
  allowUnauthenticated: true,
  onDeliveryReceipt: async (receipt) => handled.take(receipt),
  onDuplicate: () => void duplicates++,
});
// Mounted as the bare handler is (a POST route), so that both pay the same routing.
app.post('/receiver', receiver);
// The API is loaded, no SDK registered: what an application pays that wires telemetry but exports nothing.
const withTelemetry = createWebhookMiddleware({
  allowUnauthenticated: true,
  telemetry: createTelemetry({ api: otelApi }),
  onDeliveryReceipt: (receipt) => handledWithTelemetry.take(receipt),
  onDuplicate: () => void duplicatesWithTelemetry++,
});
app.post('/telemetry', withTelemetry);

const server = createServer({ keepAliveTimeout: 30_000 }, app);
server.listen(0, '127.0.0.1', () => {
  serveLoad(server, {
    counts: () => ({
      ...handled.counts(),
      duplicates,
      telemetry: { ...handledWithTelemetry.counts(), duplicates: duplicatesWithTelemetry },
      decodeInPlace: decodeCalls === 0 ? 0 : (decodeMillis * 1e6) / decodeCalls,
      decodeInLoop: decodeInLoop(),
    }),
    close: () => {
      receiver.close();
      withTelemetry.close();
    },
  });
});

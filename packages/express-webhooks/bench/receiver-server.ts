/**
 * The server side of the load test, run in a child process (its own core): one Express app with
 * three POST routes that take the same XML receipts:
 * - `/bare`, the baseline: what a user writes to receive a receipt minimally, `express.text()` to
 *   read the body and fast-xml-parser to parse it, then `res.status(200).end()` (no body:
 *   `res.sendStatus()` would also hash one for its ETag);
 * - `/receiver`, the receiver mounted the same way (`app.post('/receiver', receiver)`), whose handler
 *   counts each receipt it takes by ticket ID and part;
 * - `/ignore`, a route that answers 200 without reading the body (for reference: what any route costs).
 * Answers `stats` messages with the receiver's counts and the process's CPU time.
 */
import { createServer } from 'node:http';
import { serveLoad } from '@smsv4/bench/receiver-load';
import express5 from 'express';
import express4 from 'express4';
import { XMLParser } from 'fast-xml-parser';
import { createWebhookMiddleware } from '../src/index.js';

const major = process.argv[2] === '4' ? 4 : 5;
const express = major === 4 ? express4 : express5;
const app = express();
const handled = new Map<string, number>();
let duplicates = 0;

// Receipts carry their facts in attributes: fast-xml-parser's default would drop them.
const parser = new XMLParser({ ignoreAttributes: false });
app.post('/bare', express.text({ type: ['application/xml', 'text/xml'] }), (req, res) => {
  parser.parse(req.body as string);
  res.status(200).end();
});
app.post('/ignore', (_req, res) => {
  res.status(200).end();
});
const receiver = createWebhookMiddleware({
  onDeliveryReceipt(receipt) {
    const key = `${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`;
    handled.set(key, (handled.get(key) ?? 0) + 1);
  },
  onDuplicate: () => void duplicates++,
});
// Mounted as the bare handler is (a POST route), so that both pay the same routing.
app.post('/receiver', receiver);

const server = createServer({ keepAliveTimeout: 30_000 }, app);
server.listen(0, '127.0.0.1', () => {
  serveLoad(server, {
    counts: () => {
      let doubles = 0;
      for (const count of handled.values()) if (count > 1) doubles++;
      return { handled: handled.size, doubles, duplicates };
    },
    close: () => receiver.close(),
  });
});

/**
 * The server side of the load test, run in a child process (its own core): one Express app with a
 * bare handler that only answers 200 (`app.post('/bare', ...)`) and the receiver mounted the same way
 * (`app.post('/receiver', receiver)`), whose handler counts each receipt it takes by ticket ID and
 * part. Answers `stats` messages with those counts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5 from 'express';
import express4 from 'express4';
import { createWebhookMiddleware } from '../src/index.js';

const major = process.argv[2] === '4' ? 4 : 5;
const app = major === 4 ? express4() : express5();
const handled = new Map<string, number>();
let duplicates = 0;

app.post('/bare', (_req, res) => {
  res.sendStatus(200);
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
  process.send?.({ kind: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

process.on('message', (message: { kind: string }) => {
  if (message.kind === 'stats') {
    let doubles = 0;
    for (const count of handled.values()) if (count > 1) doubles++;
    const cpu = process.cpuUsage();
    process.send?.({ kind: 'stats', handled: handled.size, doubles, duplicates, cpuMicros: cpu.user + cpu.system });
  } else if (message.kind === 'close') {
    receiver.close();
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});

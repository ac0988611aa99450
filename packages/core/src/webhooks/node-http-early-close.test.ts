/**
 * Core's receiver on plain `node:http`, written as the guide writes it (the answer's headers passed
 * to `writeHead`): a request refused before its body is read gets `Connection: close`, and Node
 * closes the socket instead of reading the rest of a body that never ends.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthorization } from '../http/basic-auth.js';
import { createNodeRequestBodyReader } from './node-request-body-reader.js';
import { createWebhookHandler } from './webhook-handler.js';

/** Most bytes of an endless body sent before deciding the server kept reading it. */
const LIMIT_BYTES = 8 * 1024 * 1024;

let server: Server;
let port: number;
/** Bytes the server's sockets read, per connection, once each closed. */
const readBySockets: number[] = [];
beforeAll(async () => {
  const receiver = createWebhookHandler({ basicAuth: { username: 'openmarket', password: 's3cret' }, onDeliveryReceipt: () => undefined });
  server = createServer(async (req, res) => {
    const answer = await receiver.handle({ method: req.method ?? '', headers: req.headers, body: createNodeRequestBodyReader(req) });
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  server.on('connection', (socket) => socket.on('close', () => readBySockets.push(socket.bytesRead)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Posts a chunked body that never ends (up to LIMIT_BYTES); resolves with the answer's head and whether the server closed first. */
function postEndless(headers: Record<string, string>): Promise<{ head: string; closed: boolean; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = `400\r\n${' '.repeat(1024)}\r\n`;
    let head = '';
    let sent = 0;
    let done = false;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ head, closed, sent });
    };
    const pump = (): void => {
      while (!done && sent < LIMIT_BYTES) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (sent >= LIMIT_BYTES) finish(false);
    };
    socket.setEncoding('latin1').on('data', (data: string) => (head += data));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`POST /sms/callbacks HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-version: 4\r\n${lines}transfer-encoding: chunked\r\n\r\n`);
    pump();
  });
}

describe('core receiver on node:http: early rejections close the connection', () => {
  for (const [what, headers, status] of [
    ['401 without credentials', { 'content-type': 'application/xml' }, 401],
    ['415 for text/plain', { 'content-type': 'text/plain', authorization: basicAuthorization({ accountId: 'openmarket', password: 's3cret' }) }, 415],
  ] as const) {
    it(`answers ${what} with Connection: close, and closes the socket without reading the endless body`, async () => {
      const before = readBySockets.length;
      const answer = await postEndless(headers);
      expect(answer.head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(answer.head.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(answer.closed).toBe(true);
      await expect.poll(() => readBySockets.length).toBe(before + 1);
      // The server stopped reading well before the client stopped sending.
      expect(readBySockets[before]).toBeLessThan(LIMIT_BYTES / 2);
    });
  }
});

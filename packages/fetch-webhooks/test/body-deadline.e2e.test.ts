/**
 * A peer that sends its body slowly, or never, to the Fetch handler on Node's HTTP server (through
 * @hono/node-server, as the guide's Hono recipe): answered 408 at bodyTimeoutMs with Connection:
 * close, and the socket is closed by the server (it does not wait for Node's requestTimeout). Its
 * own file: the case waits for the bound it checks.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createFetchWebhookHandler } from '../src/index.js';
import { listenFetch } from './helpers.js';

/** Sends the headers and `sent` bytes of a body declared longer; resolves with what came back once the server closed the socket. */
function slowPost(port: number, sent: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
    socket.write(['POST /callbacks HTTP/1.1', 'Host: 127.0.0.1', 'X-API-Version: 4', 'Content-Type: application/xml; charset=UTF-8', 'Content-Length: 400', '', sent].join('\r\n'));
  });
}

describe('the body-read deadline of the Fetch handler on Node', () => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const receiver = createFetchWebhookHandler({ allowUnauthenticated: true, bodyTimeoutMs: 300, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined });
    const server = await listenFetch(receiver);
    const port = Number(new URL(server.url).port);
    try {
      const replies = await Promise.all([slowPost(port, '<?xml version="1.0"?><deliveryReceipt'), slowPost(port, '')]);
      for (const reply of replies) {
        expect(reply).toMatch(/^HTTP\/1\.1 408 /);
        expect(reply.toLowerCase()).toContain('connection: close');
        expect(reply).toContain('The request body was not received within 300 ms');
      }
      expect(handled).toEqual([]);
    } finally {
      receiver.close();
      await server.close();
    }
  });
});

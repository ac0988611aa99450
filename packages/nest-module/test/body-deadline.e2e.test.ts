/**
 * A peer that sends its body slowly, or never, to the module's controller, on Nest's Express and
 * Fastify platforms: an XML body (which Nest's parsers leave to the controller) is answered 408 at
 * bodyTimeoutMs with Connection: close, and the socket is closed by the server (it does not wait
 * for Node's requestTimeout). Its own file: the case waits for the bound it checks.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReceiverOn, type Platform } from './helpers.js';

/** Sends the headers and `sent` bytes of a body declared longer; resolves with what came back once the server closed the socket. */
function slowPost(url: string, sent: string): Promise<string> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
    socket.write([`POST ${pathname} HTTP/1.1`, 'Host: 127.0.0.1', 'X-API-Version: 4', 'Content-Type: application/xml; charset=UTF-8', 'Content-Length: 400', '', sent].join('\r\n'));
  });
}

describe.each(['express', 'fastify'] satisfies Platform[])('on Nest with %s: the body-read deadline', (platform) => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const receiver = await startReceiverOn(platform, { allowUnauthenticated: true, bodyTimeoutMs: 300, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined });
    try {
      const replies = await Promise.all([slowPost(receiver.url, '<?xml version="1.0"?><deliveryReceipt'), slowPost(receiver.url, '')]);
      for (const reply of replies) {
        expect(reply).toMatch(/^HTTP\/1\.1 408 /);
        expect(reply.toLowerCase()).toContain('connection: close');
      }
      expect(handled).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

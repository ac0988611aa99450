/**
 * A peer that sends its body slowly, or never: answered 408 at bodyTimeoutMs with Connection:
 * close, and the socket is closed by the server (it does not wait for Node's requestTimeout).
 * Its own file: each case waits for the bound it checks.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createWebhookMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, listen } from './helpers.js';

const BODY_TIMEOUT_MS = 300;

/** Sends the headers and `sent` bytes of a body declared longer; resolves with what came back once the server closed the socket. */
function slowPost(port: number, sent: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(reply));
    socket.write(
      ['POST /callbacks HTTP/1.1', 'Host: 127.0.0.1', 'X-API-Version: 4', 'Content-Type: application/xml; charset=UTF-8', 'Content-Length: 400', '', sent].join('\r\n'),
    );
  });
}

describe.each(EXPRESS_VERSIONS)('%s: the body-read deadline', (_name, createApp) => {
  it('answers 408 with Connection: close and frees the socket of a body that stops coming', async () => {
    const handled: unknown[] = [];
    const app = createApp();
    app.use('/callbacks', createWebhookMiddleware({ allowUnauthenticated: true, bodyTimeoutMs: BODY_TIMEOUT_MS, onDeliveryReceipt: (r) => void handled.push(r), onError: () => undefined }));
    const server = await listen(app);
    const replies = await Promise.all([slowPost(Number(new URL(server.url).port), '<?xml version="1.0"?><deliveryReceipt'), slowPost(Number(new URL(server.url).port), '')]);
    for (const reply of replies) {
      expect(reply).toMatch(/^HTTP\/1\.1 408 /);
      expect(reply.toLowerCase()).toContain('connection: close');
      expect(reply).toContain('The request body was not received within 300 ms');
    }
    expect(handled).toEqual([]);
    await server.close();
  });
});

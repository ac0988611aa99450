/**
 * postStalledBody on real servers on loopback: what a server that bounds a body's reading writes
 * back, what one that never closes gets (the helper's own bound), and the lengths it refuses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postStalledBody } from '../src/index.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose handler gets each request; resolves with its URL. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('postStalledBody', () => {
  it('sends the headers and the start of a body declared longer, and resolves with the answer once the server closes', async () => {
    const seen: { headers: Record<string, unknown>; url: string | undefined; body: string }[] = [];
    const url = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
        // Everything sent came: the server gives up on the rest, as a receiver at its bound does.
        if (body === '<?xml') {
          seen.push({ headers: req.headers, url: req.url, body });
          res.writeHead(408, { connection: 'close', 'content-type': 'text/plain' }).end('too slow\n');
          req.socket.destroySoon();
        }
      });
    });
    const reply = await postStalledBody(`${url}/callbacks?x=1`, { headers: { 'X-API-Version': '4', 'Content-Length': '9', Host: 'elsewhere' }, sent: '<?xml', declaredLength: 50 });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(reply).toContain('too slow');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/callbacks?x=1');
    expect(seen[0]?.headers).toMatchObject({ 'x-api-version': '4', 'content-length': '50', host: new URL(url).host });
  });

  it('rejects at its bound when the server never closes the connection', async () => {
    const url = await listen(() => undefined);
    await expect(postStalledBody(url, { timeoutMs: 200 })).rejects.toThrow('the server did not close the connection of a stalled body within 200 ms; it answered: ""');
  });

  it('refuses a declared length that the part sent would reach', async () => {
    await expect(postStalledBody('http://127.0.0.1:9/', { sent: 'abcd', declaredLength: 4 })).rejects.toThrow('declaredLength (4) must be a whole number greater than the 4 bytes sent');
    await expect(postStalledBody('http://127.0.0.1:9/', { declaredLength: 1.5 })).rejects.toThrow(RangeError);
  });
});

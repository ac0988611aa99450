/**
 * The server side of the decode-floor load test, run in a child process (its own core): three POST
 * routes of one server that take the same XML receipts, on Fastify 5 (`fastify`), Fastify 4
 * (`fastify4`) or Node's own `http` server with core's receiver (`node`):
 * - `/read`, the read floor: the body read with core's bounded reader, then 200;
 * - `/decode`, the decode floor: the same reader and `decodeCallback`, then 200 (what no receiver
 *   can avoid);
 * - `/store`, the store floor: the decode floor, then the key recorded in an in-memory duplicate store;
 * - `/receiver`, the receiver (the Fastify plugin registered at that prefix; on Node, core's
 *   `createWebhookHandler` fed with `createNodeRequestBodyReader`), whose async handler counts each
 *   receipt it takes by ticket ID and part, with the default in-memory duplicate store.
 * Answers `stats` messages with the receiver's counts and the process's CPU time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createStoreFloor } from '@smsv4/bench/floor-bench';
import { createTakenReceipts, serveLoad } from '@smsv4/bench/receiver-load';
import { createNodeRequestBodyReader, createWebhookHandler, decodeCallback, readBodyStream, type DeliveryReceipt } from '@smsv4/core';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { fastifyWebhooks } from '../src/index.js';

const platform = process.argv[2] === 'node' ? 'node' : process.argv[2] === 'fastify4' ? 'fastify4' : 'fastify';
const taken = createTakenReceipts();
let duplicates = 0;
const count = async (receipt: DeliveryReceipt): Promise<void> => taken.take(receipt);
const receiverOptions = { allowUnauthenticated: true, onDeliveryReceipt: count, onDuplicate: () => void duplicates++ } as const;
const MAX_BYTES = 64 * 1024;
const readBody = (stream: AsyncIterable<Uint8Array>, contentLength: string | undefined) => readBodyStream(stream, { maxBytes: MAX_BYTES, contentLength });
type Floor = 'read' | 'decode' | 'store';
const recordKey = createStoreFloor();
/** The floors' answer for a body: 200 when read (and, for the decode floor, decoded; for the store floor, decoded and its key recorded). */
const floorStatus = async (stream: AsyncIterable<Uint8Array>, contentLength: string | undefined, floor: Floor): Promise<number> => {
  const body = await readBody(stream, contentLength);
  if (!body.ok) return 400;
  if (floor === 'read') return 200;
  return (floor === 'decode' ? decodeCallback(body.value, 'xml').ok : recordKey(body.value)) ? 200 : 400;
};

const counts = () => ({ ...taken.counts(), duplicates });

if (platform !== 'node') {
  const app = (platform === 'fastify4' ? fastify4 : fastify5)();
  // The floors read the raw stream, as the plugin does: no content-type parser reads it first.
  void app.register(async (floors) => {
    floors.removeAllContentTypeParsers();
    floors.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    for (const floor of ['read', 'decode', 'store'] as const) {
      floors.post(`/${floor}`, async (request, reply) => {
        const status = await floorStatus(request.body as AsyncIterable<Uint8Array>, request.headers['content-length'], floor);
        return reply.code(status).send();
      });
    }
  });
  void app.register(fastifyWebhooks, { prefix: '/receiver', ...receiverOptions });
  await app.listen({ port: 0, host: '127.0.0.1' });
  serveLoad(app.server, { counts, close: () => app.close() });
} else {
  const receiver = createWebhookHandler(receiverOptions);
  const send = (res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}, body = ''): void => {
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const server = createServer({ keepAliveTimeout: 30_000 }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/receiver') {
      void receiver.handle({ method: req.method ?? '', headers: req.headers, body: createNodeRequestBodyReader(req) }).then((answer) => send(res, answer.status, answer.headers, answer.body));
      return;
    }
    const floor: Floor = req.url === '/decode' ? 'decode' : req.url === '/store' ? 'store' : 'read';
    void floorStatus(req, req.headers['content-length'], floor).then((status) => send(res, status));
  });
  server.listen(0, '127.0.0.1', () => serveLoad(server, { counts, close: () => receiver.close() }));
}

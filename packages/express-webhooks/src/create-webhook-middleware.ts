/**
 * The Express adapter: translates a request into core's `createWebhookHandler` and its answer
 * back. Works with Express 4 and 5 (it only uses Node's request and response), whether or not a
 * body parser ran before it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookHandler, type BodyReader, type WebhookHandler, type WebhookHandlerOptions, type WebhookRequest, type WebhookResponse } from '@smsv4/core';
import { createNodeBodyReader } from './read-body.js';

/** What the handlers find in `context.platform`. */
export interface ExpressPlatform {
  /** The Express request (a Node `IncomingMessage`). */
  readonly req: IncomingMessage;
}

/** Options of {@link createWebhookMiddleware}: those of core's `createWebhookHandler`. */
export type WebhookMiddlewareOptions = WebhookHandlerOptions<ExpressPlatform>;

/** An Express middleware that receives delivery receipts and inbound messages. */
export interface WebhookMiddleware {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** The platform-neutral receiver behind it. */
  readonly handler: WebhookHandler<ExpressPlatform>;
  /** Stops the orphan sweeps; with the in-memory reassembly store, hands incomplete multipart messages to `onOrphan` (call on shutdown). */
  close(): void;
}

/** The peer address: Express's `req.ip` (which honours its `trust proxy` setting), else the socket's. */
function remoteAddressOf(req: IncomingMessage): string | undefined {
  const ip = (req as IncomingMessage & { ip?: unknown }).ip;
  return typeof ip === 'string' && ip !== '' ? ip : req.socket?.remoteAddress;
}

const EMPTY_BODY = Object.freeze({ 'content-length': '0' });

/**
 * Node's request headers as a `get(name)` lookup: their names are lower case already, so each read
 * is one property access (core asks with lower-case names).
 */
class NodeHeaders {
  readonly #headers: IncomingMessage['headers'];
  constructor(headers: IncomingMessage['headers']) {
    this.#headers = headers;
  }
  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * One request as core's receiver takes it. A class, not an object literal with a getter: every
 * request has the same shape, and the getter (on the prototype) closes over nothing.
 */
class ExpressWebhookRequest implements WebhookRequest<ExpressPlatform> {
  readonly method: string;
  readonly headers: NodeHeaders;
  readonly body: BodyReader;
  readonly platform: ExpressPlatform;
  constructor(req: IncomingMessage) {
    this.method = req.method ?? '';
    this.headers = new NodeHeaders(req.headers);
    this.body = createNodeBodyReader(req);
    this.platform = { req };
  }
  /** Worked out only when asked (Express's req.ip runs its proxy rules on every read). */
  get remoteAddress(): string | undefined {
    return remoteAddressOf(this.platform.req);
  }
}

function send(res: ServerResponse, answer: WebhookResponse): void {
  if (res.headersSent || res.writableEnded) return;
  if (answer.body === '') {
    // The 200 of a taken event (the hot path): no other header, no body.
    res.writeHead(answer.status, Object.keys(answer.headers).length === 0 ? EMPTY_BODY : { ...answer.headers, ...EMPTY_BODY });
    res.end();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}

/**
 * Creates the Express middleware of a receiver. Mount it at the receiving URL; it answers every
 * request itself (POST only), so nothing after it runs for that path.
 *
 * @example
 * import express from 'express';
 * import { createWebhookMiddleware } from '@smsv4/express-webhooks';
 *
 * const app = express();
 * app.use('/sms/callbacks', createWebhookMiddleware({
 *   basicAuth: { username: 'openmarket', password: callbackPassword },
 *   onDeliveryReceipt: async (receipt) => saveReceipt(receipt),
 *   onInboundMessage: async (message) => saveInbound(message),
 * }));
 */
export function createWebhookMiddleware(options: WebhookMiddlewareOptions): WebhookMiddleware {
  const handler = createWebhookHandler<ExpressPlatform>(options);
  const middleware = (req: IncomingMessage, res: ServerResponse): void => {
    void handler
      .handle(new ExpressWebhookRequest(req))
      .then((answer) => {
        try {
          send(res, answer);
        } catch {
          // Writing the answer failed (the socket is gone): nothing more can be said to the peer.
          if (!res.headersSent) res.destroy();
        }
      });
  };
  return Object.assign(middleware, { handler, close: () => handler.close() });
}

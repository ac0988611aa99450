/**
 * The Fetch adapter: translates a Web `Request` into core's `createWebhookHandler` and its answer
 * into a `Response`. Runs wherever the Fetch standard does (Hono, Next.js route handlers, Bun,
 * Deno, Cloudflare Workers, Vercel Edge, Node 20 with any Fetch server).
 */
import { createWebhookHandler, type BodyReader, type WebhookHandler, type WebhookHandlerOptions, type WebhookRequest, type WebhookResponse } from '@smsv4/core';
import { createFetchBodyReader } from './read-request-body.js';

/** What the handlers find in `context.platform`: the request and the arguments the runtime passed after it. */
export interface FetchPlatform<A extends unknown[] = unknown[]> {
  /** The Fetch request (its body already read by the receiver). */
  readonly request: Request;
  /** What the runtime passed after the request: Workers' `env` and `ctx`, Deno's `info`, Bun's `server`. */
  readonly args: A;
}

/** Options of {@link createFetchWebhookHandler}: those of core's `createWebhookHandler`, and how to find the peer's address. */
export interface FetchWebhookHandlerOptions<A extends unknown[] = unknown[]> extends WebhookHandlerOptions<FetchPlatform<A>> {
  /**
   * The peer's IP address, for `allowRemoteAddress` and `context.remoteAddress` (asked only when
   * needed). The Fetch `Request` does not carry it; each runtime tells it its own way, e.g. Deno:
   * `(request, info) => info.remoteAddr.hostname`; Bun: `(request, server) => server.requestIP(request)?.address`;
   * Cloudflare: `(request) => request.headers.get('cf-connecting-ip') ?? undefined`; behind one
   * proxy that appends to `X-Forwarded-For`: `lastForwardedFor` (never the first entry, which the
   * client writes). Default: none.
   */
  readonly getRemoteAddress?: (request: Request, ...args: A) => string | undefined;
}

/** A Fetch handler that receives delivery receipts and inbound messages: `(request, ...args) => Promise<Response>`. */
export interface FetchWebhookHandler<A extends unknown[] = unknown[]> {
  (request: Request, ...args: A): Promise<Response>;
  /** The platform-neutral receiver behind it. */
  readonly handler: WebhookHandler<FetchPlatform<A>>;
  /** Hands incomplete multipart inbound messages to `onOrphan` and stops the reassembly timers (call on shutdown). */
  close(): void;
}

/**
 * One request as core's receiver takes it. A class, not an object literal with a getter: every
 * request has the same shape, and the getter (on the prototype) closes over nothing.
 */
class FetchWebhookRequest<A extends unknown[]> implements WebhookRequest<FetchPlatform<A>> {
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyReader;
  readonly platform: FetchPlatform<A>;
  readonly #getRemoteAddress: ((request: Request, ...args: A) => string | undefined) | undefined;
  constructor(request: Request, args: A, getRemoteAddress: ((request: Request, ...args: A) => string | undefined) | undefined) {
    this.method = request.method;
    this.headers = request.headers;
    this.body = createFetchBodyReader(request);
    this.platform = { request, args };
    this.#getRemoteAddress = getRemoteAddress;
  }
  /** Asked of `getRemoteAddress` only when something needs it. */
  get remoteAddress(): string | undefined {
    return this.#getRemoteAddress?.(this.platform.request, ...this.platform.args);
  }
}

const hasHeaders = (headers: Readonly<Record<string, string>>): boolean => {
  for (const _ in headers) return true;
  return false;
};

/** The answer as a `Response` (no headers given when it has none: the runtime's conversion of an empty record is not free). */
function toResponse(answer: WebhookResponse): Response {
  const body = answer.body === '' ? null : answer.body;
  return new Response(body, hasHeaders(answer.headers) ? { status: answer.status, headers: answer.headers } : { status: answer.status });
}

/**
 * Creates a Fetch handler of a receiver. It answers every request it is given (POST only): route
 * the receiving URL to it.
 *
 * @example
 * import { createFetchWebhookHandler } from '@smsv4/fetch-webhooks';
 *
 * const receive = createFetchWebhookHandler({
 *   basicAuth: { username: 'openmarket', password: callbackPassword },
 *   onDeliveryReceipt: async (receipt) => saveReceipt(receipt),
 *   onInboundMessage: async (message) => saveInbound(message),
 * });
 * // Next.js: app/sms/callbacks/route.ts
 * export const POST = (request: Request) => receive(request);
 */
export function createFetchWebhookHandler<A extends unknown[] = unknown[]>(options: FetchWebhookHandlerOptions<A>): FetchWebhookHandler<A> {
  const { getRemoteAddress, ...receiverOptions } = options ?? ({} as FetchWebhookHandlerOptions<A>);
  if (getRemoteAddress !== undefined && typeof getRemoteAddress !== 'function') throw new TypeError('getRemoteAddress must be a function');
  const handler = createWebhookHandler<FetchPlatform<A>>(receiverOptions);
  const receive = async (request: Request, ...args: A): Promise<Response> => {
    // Duck-typed: runtimes and servers (Hono on Node, edge sandboxes) hand over their own Request classes.
    if (typeof request?.headers?.get !== 'function') throw new TypeError('the Fetch webhook handler takes a Request');
    const answer = await handler.handle(new FetchWebhookRequest(request, args, getRemoteAddress));
    return toResponse(answer);
  };
  return Object.assign(receive, { handler, close: () => handler.close() });
}

/**
 * The Fastify adapter: a plugin that routes the receiving URL to core's `createWebhookHandler`.
 * Inside its own encapsulated context it replaces the content-type parsers with one that hands the
 * body stream through unread, so the receiver reads the raw body itself, with its limit, after its
 * header checks; the parsers, routes and body limit of the rest of the application are untouched.
 * Works with Fastify 4 and 5.
 */
import { createStreamBodyReader, createWebhookHandler, type BodyReader, type WebhookHandlerOptions, type WebhookRequest } from '@smsv4/core';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

/** What the handlers find in `context.platform`. */
export interface FastifyPlatform {
  /** The Fastify request (`request.raw` is Node's). */
  readonly request: FastifyRequest;
  /** The reply (the receiver sends the answer itself: do not send on it). */
  readonly reply: FastifyReply;
}

/**
 * Options of {@link fastifyWebhooks}: those of core's `createWebhookHandler`. Mount it where the
 * service posts with Fastify's own `prefix` option of `register`.
 */
export type FastifyWebhooksOptions = WebhookHandlerOptions<FastifyPlatform>;

/** Every method is routed to the receiver, which answers all but POST 405 with `Allow: POST`. */
const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

const isAsyncIterable = (value: unknown): value is AsyncIterable<Uint8Array> =>
  value !== null && typeof value === 'object' && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

const EMPTY: BodyReader = () => Promise.resolve(new Uint8Array(0));

const CONSUMED_ADVICE = 'a hook read request.raw before the route of @smsv4/fastify-webhooks: read no body in hooks that run on its prefix';

/**
 * The body stream read with the receiver's limit; one a hook of the application already read to
 * its end is a misconfiguration (answered 500, so the service retries once it is fixed).
 */
function streamBody(stream: AsyncIterable<Uint8Array>, contentLength: string | undefined): BodyReader {
  return createStreamBodyReader(stream, { contentLength, consumedAdvice: CONSUMED_ADVICE });
}

/**
 * One request as core's receiver takes it. A class, not an object literal with a getter: every
 * request has the same shape, and the getter (on the prototype) closes over nothing.
 */
class FastifyWebhookRequest implements WebhookRequest<FastifyPlatform> {
  readonly method: string;
  readonly headers: FastifyRequest['headers'];
  readonly body: BodyReader;
  readonly platform: FastifyPlatform;
  constructor(request: FastifyRequest, reply: FastifyReply) {
    const stream = request.body;
    this.method = request.method;
    this.headers = request.headers;
    this.body = isAsyncIterable(stream) ? streamBody(stream, request.headers['content-length']) : EMPTY;
    this.platform = { request, reply };
  }
  /** Read only when asked (Fastify's `request.ip` runs its proxy rules on every read). */
  get remoteAddress(): string {
    return this.platform.request.ip;
  }
}

/** The register options Fastify itself reads; they are not the receiver's. */
type RegisterOptions = FastifyWebhooksOptions & { prefix?: string; logLevel?: string; logSerializers?: unknown };

/**
 * The Fastify plugin of a receiver of delivery receipts and inbound messages. Register it with a
 * `prefix`: it answers every request to that path itself. Incomplete multipart messages are handed
 * to `onOrphan` when the application closes.
 *
 * @example
 * import Fastify from 'fastify';
 * import { fastifyWebhooks } from '@smsv4/fastify-webhooks';
 *
 * const app = Fastify();
 * await app.register(fastifyWebhooks, {
 *   prefix: '/sms/callbacks',
 *   basicAuth: { username: 'openmarket', password: callbackPassword },
 *   onDeliveryReceipt: async (receipt) => saveReceipt(receipt),
 *   onInboundMessage: async (message) => saveInbound(message),
 * });
 */
export const fastifyWebhooks: FastifyPluginCallback<FastifyWebhooksOptions> = (fastify: FastifyInstance, options, done) => {
  const { prefix: _prefix, logLevel: _logLevel, logSerializers: _logSerializers, ...receiverOptions } = (options ?? {}) as RegisterOptions;
  let handler: ReturnType<typeof createWebhookHandler<FastifyPlatform>>;
  try {
    handler = createWebhookHandler<FastifyPlatform>(receiverOptions);
  } catch (error) {
    done(error as Error);
    return;
  }

  // This context only: the body stays an unread stream (request.body), whatever its content type.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));
  fastify.addHook('onClose', (_instance, closed) => {
    handler.close();
    closed();
  });

  fastify.route({
    method: METHODS,
    url: '/',
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const answer = await handler.handle(new FastifyWebhookRequest(request, reply));
      return reply.code(answer.status).headers(answer.headers).send(answer.body === '' ? undefined : answer.body);
    },
  });
  done();
};

Object.defineProperty(fastifyWebhooks, Symbol.for('fastify.display-name'), { value: '@smsv4/fastify-webhooks' });

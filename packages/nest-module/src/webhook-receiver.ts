/**
 * The receiver behind the webhook controller: at start-up it finds the `@OnDeliveryReceipt()` and
 * `@OnInboundMessage()` methods of every provider and hands them to core's `createWebhookHandler`;
 * per request it translates Nest's (Express's) request and response to and from core's plain data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, Reflector } from '@nestjs/core';
import {
  WEBHOOK_REJECTIONS,
  createWebhookHandler,
  type CallbackKind,
  type WebhookContext,
  type WebhookError,
  type WebhookHandler,
  type BodyReader,
  type WebhookRequest,
  type WebhookResponse,
} from '@smsv4/core';
import { SmsBasicAuthGuard } from './basic-auth-guard.js';
import { createNestBodyReader } from './read-body.js';
import { SmsModuleError } from './sms-module-error.js';
import type { NestPlatform, SmsModuleOptions } from './sms-module-options.js';
import { SMS_MODULE_OPTIONS } from './tokens.js';
import { HANDLER_METADATA } from './webhook-decorators.js';

/** The metadata key of a route's Fastify config (what `@RouteConfig()` of `@nestjs/platform-fastify` sets). */
export const FASTIFY_ROUTE_CONFIG = '__fastify_route_config__';
/** The member of the webhook route's Fastify config that holds its path. */
export const WEBHOOK_ROUTE_MARK = 'smsv4WebhookPath';

/** What the receiver uses of a Fastify request and reply (`@nestjs/platform-fastify` stays optional). */
interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly ip: string;
  readonly headers: IncomingMessage['headers'];
}
interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(body?: string): FastifyReplyLike;
}
interface FastifyRouteOptions {
  readonly config?: Record<string, unknown>;
  readonly handler?: unknown;
  onRequest?: unknown;
}

/**
 * The path a route's Fastify config marks it with: from the route's options, or from the metadata
 * Nest copies onto the handler it routes (Nest's `all()` routes pass no config to Fastify).
 */
function markedPath(route: FastifyRouteOptions): unknown {
  const fromOptions = route.config?.[WEBHOOK_ROUTE_MARK];
  if (fromOptions !== undefined) return fromOptions;
  const getMetadata = (Reflect as { getMetadata?: (key: string, target: object) => unknown }).getMetadata;
  const handler = route.handler;
  if (typeof getMetadata !== 'function' || typeof handler !== 'function') return undefined;
  return (getMetadata(FASTIFY_ROUTE_CONFIG, handler) as Record<string, unknown> | undefined)?.[WEBHOOK_ROUTE_MARK];
}

/** What the receiver uses of an Express application's router (Express 4: `app._router`, 5: `app.router`). */
interface ExpressLayer {
  readonly name?: string;
  readonly route?: { readonly path?: unknown; readonly stack?: readonly { readonly handle?: unknown }[] };
}
interface ExpressAppLike {
  use(path: string, handler: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): unknown;
  readonly _router?: { stack?: ExpressLayer[] };
  readonly router?: { stack?: ExpressLayer[] };
}

/** The body parsers Nest and Express mount (`express.json()`, `urlencoded`, `raw`, `text`). */
const PARSER_LAYER = /^(json|urlencoded|raw|text)Parser$/;

/** The token of the webhook path the module was declared with (`null`: no controller). */
export const SMS_WEBHOOK_PATH = '@smsv4/nest-module:webhook-path';

/** One decorated method, found at start-up. */
export interface DiscoveredHandler {
  readonly kind: CallbackKind;
  /** `ClassName.methodName`, for logs. */
  readonly name: string;
  readonly call: (event: unknown, context: WebhookContext<NestPlatform>) => unknown;
}

type EventHandler = (event: unknown, context: WebhookContext<NestPlatform>) => unknown;

/** Runs every handler of one kind: all of them settle before the answer, any failure fails the event. */
function combine(handlers: readonly DiscoveredHandler[]): EventHandler | undefined {
  if (handlers.length === 0) return undefined;
  if (handlers.length === 1) return (handlers[0] as DiscoveredHandler).call;
  return async (event, context) => {
    const results = await Promise.allSettled(handlers.map((h) => Promise.resolve().then(() => h.call(event, context))));
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} of ${handlers.length} handlers failed`);
  };
}

/** The peer address: Express's `req.ip` (which honours its `trust proxy` setting), else the socket's. */
function remoteAddressOf(req: IncomingMessage): string | undefined {
  const ip = (req as IncomingMessage & { ip?: unknown }).ip;
  return typeof ip === 'string' && ip !== '' ? ip : req.socket?.remoteAddress;
}

/** Node's request headers as a `get(name)` lookup (their names are lower case already). */
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
class NestWebhookRequest implements WebhookRequest<NestPlatform> {
  readonly method: string;
  readonly headers: NodeHeaders;
  readonly body: BodyReader;
  readonly platform: NestPlatform;
  constructor(req: IncomingMessage) {
    this.method = req.method ?? '';
    this.headers = new NodeHeaders(req.headers);
    this.body = createNestBodyReader(req);
    this.platform = { req };
  }
  /** Worked out only when asked (Express's req.ip runs its proxy rules on every read). */
  get remoteAddress(): string | undefined {
    return remoteAddressOf(this.platform.req);
  }
}

/** A request on the Fastify platform: Node's request underneath, the peer's address as Fastify's `trustProxy` gives it. */
class NestFastifyWebhookRequest extends NestWebhookRequest {
  readonly #request: FastifyRequestLike;
  constructor(request: FastifyRequestLike) {
    super(request.raw);
    this.#request = request;
  }
  override get remoteAddress(): string | undefined {
    return this.#request.ip;
  }
}

const EMPTY_BODY = Object.freeze({ 'content-length': '0' });

function send(res: ServerResponse, answer: WebhookResponse): void {
  if (res.headersSent || res.writableEnded) return;
  if (answer.body === '') {
    res.writeHead(answer.status, Object.keys(answer.headers).length === 0 ? EMPTY_BODY : { ...answer.headers, ...EMPTY_BODY });
    res.end();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}

/** The methods of an object and its prototypes (not `Object.prototype`'s), each name once. */
function methodNames(instance: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(instance) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/**
 * Receives delivery receipts and inbound messages for the webhook controller. Injectable: read
 * `handler.pendingMessages`, or call `handle(req, res)` from a route of your own.
 */
@Injectable()
export class SmsWebhookReceiver implements OnModuleInit, OnModuleDestroy {
  readonly #logger = new Logger('SmsWebhooks');
  #handler: WebhookHandler<NestPlatform> | undefined;
  #handlers: readonly DiscoveredHandler[] = [];

  constructor(
    @Inject(SMS_MODULE_OPTIONS) private readonly options: SmsModuleOptions,
    @Inject(SMS_WEBHOOK_PATH) private readonly path: string | null,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(SmsBasicAuthGuard) private readonly guard?: SmsBasicAuthGuard,
  ) {}

  /**
   * Called by `SmsModule` before Nest registers the routes. On Fastify, the webhook route is answered
   * from its onRequest hook, before Fastify looks for a parser of its content type: the body
   * reaches core's reader unread (with the receiver's limit), and the credentials are checked before
   * any byte of it is read. The hook is attached as Nest registers the route.
   */
  attachToPlatform(): void {
    const { path } = this;
    const adapter = this.adapterHost?.httpAdapter as { getType?: () => string; getInstance?: () => unknown } | undefined;
    if (path === null || adapter?.getType?.() !== 'fastify') return;
    const fastify = adapter.getInstance?.() as { addHook?: (name: 'onRoute', hook: (route: FastifyRouteOptions) => void) => void } | undefined;
    fastify?.addHook?.('onRoute', (route) => {
      if (markedPath(route) !== path) return;
      const before = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? (route.onRequest as unknown[]) : [route.onRequest];
      route.onRequest = [...before, (request: FastifyRequestLike, reply: FastifyReplyLike) => this.#receiveOnFastify(request, reply)];
    });
  }

  /** Finds the decorated handlers and creates core's receiver (an application with a bad setup does not start). */
  onModuleInit(): void {
    const handlers = this.discover();
    this.#handlers = handlers;
    if (this.path === null) {
      if (handlers.length > 0) {
        this.#logger.warn(`${handlers.map((h) => h.name).join(', ')} will never be called: SmsModule was declared without webhookPath`);
      }
      return;
    }
    const adapter = this.adapterHost?.httpAdapter as { getType?: () => string } | undefined;
    const platform = adapter?.getType?.();
    if (platform !== undefined && platform !== 'express' && platform !== 'fastify') {
      throw new SmsModuleError(
        'unsupported-platform',
        `SmsModule: the webhook controller runs on the Express platform (@nestjs/platform-express) or the Fastify platform (@nestjs/platform-fastify), this application runs on ${platform}: use one of them, or declare the module without webhookPath and call SmsWebhookReceiver.handle(req, res) with Node's request and response from a route of your own`,
      );
    }
    const receipts = handlers.filter((h) => h.kind === 'delivery-receipt');
    const inbound = handlers.filter((h) => h.kind === 'inbound-message');
    if (handlers.length === 0) {
      throw new SmsModuleError(
        'no-webhook-handlers',
        `SmsModule: webhookPath '${this.path}' is set but no provider has an @OnDeliveryReceipt() or @OnInboundMessage() method: add one (in a provider of any module), or declare the module without webhookPath`,
      );
    }
    const onDeliveryReceipt = combine(receipts);
    const onInboundMessage = combine(inbound);
    const { basicAuth, realm: _realm, ...webhooks } = this.options.webhooks ?? {};
    try {
      this.#handler = createWebhookHandler<NestPlatform>({
        onError: (error: WebhookError) => this.#logger.error(error.message, error.cause instanceof Error ? error.cause.stack : undefined),
        ...webhooks,
        // The credentials are checked by SmsBasicAuthGuard, before the receiver.
        ...(basicAuth === undefined ? {} : { allowUnauthenticated: true }),
        ...(onDeliveryReceipt === undefined ? {} : { onDeliveryReceipt }),
        ...(onInboundMessage === undefined ? {} : { onInboundMessage }),
      });
    } catch (e) {
      throw new SmsModuleError('invalid-options', `SmsModule: webhooks: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    if (platform === 'express') this.#guardBeforeParsers();
    const names = (list: readonly DiscoveredHandler[]) => (list.length === 0 ? 'none' : list.map((h) => h.name).join(', '));
    this.#logger.log(`Receiving callbacks at /${this.path.replace(/^\/+/, '')}: receipts → ${names(receipts)}; inbound messages → ${names(inbound)}`);
  }

  /** Stops the orphan sweeps; with the in-memory reassembly store, hands incomplete multipart messages over as orphans. */
  onModuleDestroy(): void {
    this.#handler?.close();
  }

  /** The platform-neutral receiver (`undefined` before start-up, or without `webhookPath`). */
  get handler(): WebhookHandler<NestPlatform> | undefined {
    return this.#handler;
  }

  /** The decorated methods found at start-up. */
  get handlers(): readonly DiscoveredHandler[] {
    return this.#handlers;
  }

  /** Answers one callback request; never rejects. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handler = this.#handler;
    if (handler === undefined) throw new Error('SmsWebhookReceiver.handle was called before the application started, or without webhookPath');
    try {
      const answer = await handler.handle(new NestWebhookRequest(req));
      send(res, answer);
    } catch {
      // Writing the answer failed (the socket is gone): nothing more can be said to the peer.
      if (!res.headersSent) res.destroy();
    }
  }

  /**
   * On Express, Nest mounts its body parsers before any guard runs: with `basicAuth`, a stranger's
   * JSON body would be read and parsed before the guard refused it. Once the routes are registered,
   * a middleware for the webhook route's own path (found by the mark its handler carries, so a
   * global prefix is included) is moved before the first parser: it refuses wrong credentials
   * without reading the body, and lets the others through to the parsers and the controller.
   */
  #guardBeforeParsers(): void {
    const guard = this.guard;
    if (guard === undefined || !guard.checksCredentials) return;
    const app = (this.adapterHost?.httpAdapter as { getInstance?: () => unknown } | undefined)?.getInstance?.() as ExpressAppLike | undefined;
    if (typeof app?.use !== 'function') return;
    const stack = (app._router ?? app.router)?.stack;
    if (!Array.isArray(stack)) return;
    const route = stack.find((layer) => layer.route?.stack?.some((entry) => markedPath({ handler: entry.handle }) === this.path));
    const routePath = route?.route?.path;
    const firstParser = stack.findIndex((layer) => PARSER_LAYER.test(layer.name ?? ''));
    if (typeof routePath !== 'string' || firstParser === -1) return;
    app.use(routePath, (req, res, next) => {
      // Mounted at the route's path: only the route itself (with or without a trailing slash) is checked.
      const rest = (req as IncomingMessage & { path?: string }).path;
      if ((rest !== '/' && rest !== '') || guard.authorizes(req.headers.authorization)) {
        next();
        return;
      }
      const { status, description } = WEBHOOK_REJECTIONS.unauthorized;
      const body = JSON.stringify({ statusCode: status, message: description });
      res.writeHead(status, { 'www-authenticate': guard.challenge, connection: 'close', 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
    const added = stack.pop() as ExpressLayer;
    stack.splice(firstParser, 0, added);
  }

  /** Answers the webhook route on Fastify, from its onRequest hook (the body not parsed yet). */
  async #receiveOnFastify(request: FastifyRequestLike, reply: FastifyReplyLike): Promise<FastifyReplyLike> {
    const handler = this.#handler;
    if (handler === undefined) throw new Error('the webhook route was called before the application started');
    if (this.guard !== undefined && !this.guard.authorizes(request.headers.authorization)) {
      // The answer of the guard's HttpException on Express, as Nest's exception filter writes it.
      const { status, description } = WEBHOOK_REJECTIONS.unauthorized;
      return reply
        .code(status)
        .headers({ 'www-authenticate': this.guard.challenge, connection: 'close', 'content-type': 'application/json; charset=utf-8' })
        .send(JSON.stringify({ statusCode: status, message: description }));
    }
    const answer = await handler.handle(new NestFastifyWebhookRequest(request));
    return reply
      .code(answer.status)
      .headers(answer.headers as Record<string, string>)
      .send(answer.body === '' ? undefined : answer.body);
  }

  private discover(): DiscoveredHandler[] {
    const found: DiscoveredHandler[] = [];
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const { instance } = wrapper;
      if (instance === null || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const method of methodNames(instance)) {
        const fn = (instance as Record<string, unknown>)[method] as (...args: unknown[]) => unknown;
        for (const [kind, key] of Object.entries(HANDLER_METADATA) as Array<[CallbackKind, string]>) {
          if (this.reflector.get(key, fn) !== true) continue;
          const name = `${(instance as object).constructor?.name ?? 'provider'}.${method}`;
          if (!wrapper.isDependencyTreeStatic() || wrapper.isTransient) {
            throw new SmsModuleError('invalid-handler', `SmsModule: ${name} handles callbacks but its provider is not a singleton (request-scoped or transient): move the handler to a singleton provider`);
          }
          found.push({ kind, name, call: (event, context) => fn.call(instance, event, context) });
        }
      }
    }
    return found;
  }
}

/**
 * The options of `SmsModule`, and their check at start-up. The client's options are
 * `@smsv4/transport-fetch`'s, the receiver's are `@smsv4/core`'s `createWebhookHandler` options (the
 * same names as `@smsv4/express-webhooks`), less the two handlers, which are decorated methods here.
 */
import type { IncomingMessage } from 'node:http';
import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency, Provider, Type } from '@nestjs/common';
import type { WebhookHandlerOptions } from '@smsv4/core';
import type { ClientOptions } from '@smsv4/transport-fetch';
import { SmsModuleError } from './sms-module-error.js';

/** What the handlers find in `context.platform`. */
export interface NestPlatform {
  /** The request (Express's, a Node `IncomingMessage`). */
  readonly req: IncomingMessage;
}

/**
 * Options of the webhook receiver: those of core's `createWebhookHandler` without
 * `onDeliveryReceipt` and `onInboundMessage` (decorate provider methods with `@OnDeliveryReceipt()`
 * and `@OnInboundMessage()` instead). `basicAuth` and `realm` are enforced by `SmsBasicAuthGuard`.
 */
export type SmsWebhookOptions = Omit<WebhookHandlerOptions<NestPlatform>, 'onDeliveryReceipt' | 'onInboundMessage'>;

/** The options the module runs with: given to `forRoot`, or returned by the `forRootAsync` factory. */
export interface SmsModuleOptions {
  /** Options of the injected client (`createClient` of `@smsv4/transport-fetch`): `baseUrl` or `urls`, `accountId`, `password`, ... */
  readonly client: ClientOptions;
  /** Options of the webhook receiver; only with `webhookPath`. */
  readonly webhooks?: SmsWebhookOptions;
}

/** Options fixed when the module is declared (routes and scope exist before any factory runs). */
export interface SmsModuleDeclaration {
  /** Registers the module globally: every module can inject the client without importing it (default `false`). */
  readonly isGlobal?: boolean;
  /**
   * Path of the webhook controller (e.g. `'sms/callbacks'`; the global prefix applies, versioning does
   * not). Absent: no controller is registered and decorated handlers are never called.
   */
  readonly webhookPath?: string;
}

/** Options of `SmsModule.forRoot`. */
export interface SmsModuleSyncOptions extends SmsModuleOptions, SmsModuleDeclaration {}

/** A class that makes the options, for `forRootAsync({ useClass })` and `forRootAsync({ useExisting })`. */
export interface SmsOptionsFactory {
  createSmsOptions(): SmsModuleOptions | Promise<SmsModuleOptions>;
}

/** Options of `SmsModule.forRootAsync`: exactly one of `useFactory`, `useClass`, `useExisting`. */
export interface SmsModuleAsyncOptions extends SmsModuleDeclaration, Pick<ModuleMetadata, 'imports'> {
  /** Makes the options from the providers named in `inject` (e.g. `ConfigService`). */
  readonly useFactory?: (...args: never[]) => SmsModuleOptions | Promise<SmsModuleOptions>;
  /** The providers handed to `useFactory`, in order. */
  readonly inject?: ReadonlyArray<InjectionToken | OptionalFactoryDependency>;
  /** A class the module instantiates, whose `createSmsOptions()` makes the options. */
  readonly useClass?: Type<SmsOptionsFactory>;
  /** An existing provider (from `imports`) whose `createSmsOptions()` makes the options. */
  readonly useExisting?: InjectionToken<SmsOptionsFactory>;
  /** More providers of the module (e.g. what `useClass` needs). */
  readonly extraProviders?: Provider[];
}

const OPTION_KEYS = new Set(['client', 'webhooks']);
const DECLARATION_KEYS = new Set(['isGlobal', 'webhookPath']);
const HANDLER_KEYS = { onDeliveryReceipt: '@OnDeliveryReceipt()', onInboundMessage: '@OnInboundMessage()' } as const;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

function invalid(message: string): SmsModuleError {
  return new SmsModuleError('invalid-options', `SmsModule: ${message}`);
}

/** Checks what is fixed at declaration; throws an {@link SmsModuleError}. */
export function checkDeclaration({ isGlobal, webhookPath }: SmsModuleDeclaration, call: string): void {
  if (isGlobal !== undefined && typeof isGlobal !== 'boolean') throw invalid(`${call}: isGlobal must be a Boolean, got ${describe(isGlobal)}`);
  if (webhookPath !== undefined && typeof webhookPath !== 'string') {
    throw invalid(`${call}: webhookPath must be a string such as 'sms/callbacks', got ${describe(webhookPath)}`);
  }
}

/**
 * Checks the options the module runs with (what `forRoot` got or the async factory returned) and
 * returns them; throws an {@link SmsModuleError} whose message says which option and why. The
 * client's and the receiver's own checks run when they are created (their `TypeError` becomes the
 * `cause`).
 */
export function checkModuleOptions(options: unknown, { webhookPath, source }: { webhookPath: string | undefined; source: string }): SmsModuleOptions {
  if (!isObject(options)) throw invalid(`${source} must be an object with a client member, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (DECLARATION_KEYS.has(key)) {
      throw invalid(`${source} has ${key}, which forRootAsync takes itself (routes and scope are fixed before the factory runs): move it next to useFactory`);
    }
    if (!OPTION_KEYS.has(key)) throw invalid(`${source} has an unknown member ${key} (known: client, webhooks)`);
  }
  if (!isObject(options.client)) throw invalid(`client must be an object of @smsv4/transport-fetch client options, got ${describe(options.client)}`);
  const { webhooks } = options;
  if (webhooks !== undefined) {
    if (!isObject(webhooks)) throw invalid(`webhooks must be an object, got ${describe(webhooks)}`);
    for (const [key, decorator] of Object.entries(HANDLER_KEYS)) {
      if (key in webhooks) throw invalid(`webhooks.${key} is not an option here: decorate a provider method with ${decorator}`);
    }
    if (webhookPath === undefined) throw invalid('webhooks are configured but no webhookPath is given: give webhookPath to forRoot or forRootAsync');
  }
  return options as unknown as SmsModuleOptions;
}

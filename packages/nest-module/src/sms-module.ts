/**
 * `SmsModule`: the client, core's codec, and (with `webhookPath`) the webhook controller, declared
 * with `forRoot(options)` or `forRootAsync({ imports, inject, useFactory | useClass | useExisting })`.
 * Written by hand rather than with `ConfigurableModuleBuilder`, so that `isGlobal` means the same in
 * both and every option is checked at start-up with a message that names it.
 */
import { Inject, Module, type DynamicModule, type FactoryProvider, type NestModule, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { createClient, type SmsClient } from '@smsv4/transport-fetch';
import { SmsBasicAuthGuard } from './basic-auth-guard.js';
import { SmsCodec } from './sms-codec.js';
import { SmsModuleError } from './sms-module-error.js';
import {
  checkDeclaration,
  checkModuleOptions,
  type SmsModuleAsyncOptions,
  type SmsModuleDeclaration,
  type SmsModuleOptions,
  type SmsModuleSyncOptions,
  type SmsOptionsFactory,
} from './sms-module-options.js';
import { SMS_CLIENT, SMS_MODULE_OPTIONS } from './tokens.js';
import { createWebhookController } from './webhook-controller.js';
import { SMS_WEBHOOK_PATH, SmsWebhookReceiver } from './webhook-receiver.js';

/** The client, made from the checked options; its own `TypeError` becomes the cause of an `SmsModuleError`. */
const clientProvider: FactoryProvider<SmsClient> = {
  provide: SMS_CLIENT,
  useFactory: (options: SmsModuleOptions) => {
    try {
      return createClient(options.client);
    } catch (e) {
      throw new SmsModuleError('invalid-options', `SmsModule: client: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  },
  inject: [SMS_MODULE_OPTIONS],
};

interface Parts extends SmsModuleDeclaration {
  readonly options: Provider;
  readonly imports?: DynamicModule['imports'];
  readonly providers?: readonly Provider[];
}

function declare({ isGlobal = false, webhookPath, options, imports = [], providers = [] }: Parts): DynamicModule {
  return {
    module: SmsModule,
    global: isGlobal,
    imports: [DiscoveryModule, ...imports],
    providers: [
      options,
      ...providers,
      clientProvider,
      SmsCodec,
      SmsBasicAuthGuard,
      { provide: SMS_WEBHOOK_PATH, useValue: webhookPath ?? null },
      SmsWebhookReceiver,
    ],
    controllers: webhookPath === undefined ? [] : [createWebhookController(webhookPath)],
    exports: [SMS_CLIENT, SMS_MODULE_OPTIONS, SmsCodec, SmsBasicAuthGuard, SmsWebhookReceiver],
  };
}

/**
 * The module. Import it once, usually in the root module, with `isGlobal: true` so that every module
 * can inject the client.
 *
 * @example
 * @Module({
 *   imports: [
 *     ConfigModule.forRoot(),
 *     SmsModule.forRootAsync({
 *       isGlobal: true,
 *       webhookPath: 'sms/callbacks',
 *       inject: [ConfigService],
 *       useFactory: (config: ConfigService) => ({
 *         client: { baseUrl: config.getOrThrow('SMS_BASE_URL'), accountId: config.getOrThrow('SMS_ACCOUNT_ID'), password: config.getOrThrow('SMS_PASSWORD') },
 *       }),
 *     }),
 *   ],
 *   providers: [SmsEventsService], // its @OnDeliveryReceipt() / @OnInboundMessage() methods get the callbacks
 * })
 * export class AppModule {}
 */
@Module({})
export class SmsModule implements NestModule {
  constructor(@Inject(SmsWebhookReceiver) private readonly receiver: SmsWebhookReceiver) {}

  /** Called by Nest before it registers the routes: the receiver hooks the webhook route on Fastify. */
  configure(): void {
    this.receiver.attachToPlatform();
  }

  /** Declares the module with options known now. */
  static forRoot(options: SmsModuleSyncOptions): DynamicModule {
    if (options === null || typeof options !== 'object') throw new SmsModuleError('invalid-options', 'SmsModule: forRoot needs an options object with a client member');
    const { isGlobal, webhookPath, ...rest } = options;
    checkDeclaration({ isGlobal, webhookPath }, 'forRoot');
    return declare({
      isGlobal,
      webhookPath,
      options: { provide: SMS_MODULE_OPTIONS, useFactory: () => checkModuleOptions(rest, { webhookPath, source: 'the options of forRoot' }) },
    });
  }

  /** Declares the module with options made by a factory, a class or an existing provider (e.g. from `ConfigService`). */
  static forRootAsync(options: SmsModuleAsyncOptions): DynamicModule {
    if (options === null || typeof options !== 'object') throw new SmsModuleError('invalid-options', 'SmsModule: forRootAsync needs an options object');
    const { isGlobal, webhookPath, imports, inject = [], useFactory, useClass, useExisting, extraProviders = [] } = options;
    checkDeclaration({ isGlobal, webhookPath }, 'forRootAsync');
    const ways = [useFactory, useClass, useExisting].filter((w) => w !== undefined).length;
    if (ways !== 1) {
      throw new SmsModuleError('invalid-options', `SmsModule: forRootAsync needs exactly one of useFactory, useClass and useExisting, got ${ways}`);
    }
    if (useFactory !== undefined && typeof useFactory !== 'function') throw new SmsModuleError('invalid-options', 'SmsModule: forRootAsync: useFactory must be a function');
    if (!Array.isArray(inject)) throw new SmsModuleError('invalid-options', 'SmsModule: forRootAsync: inject must be an array of providers');
    const source = 'the options returned by the forRootAsync factory';
    const check = (made: unknown): SmsModuleOptions => checkModuleOptions(made, { webhookPath, source });
    const providers: Provider[] = [...extraProviders];
    let provider: Provider;
    if (useFactory !== undefined) {
      const factory = useFactory as (...args: unknown[]) => unknown;
      provider = { provide: SMS_MODULE_OPTIONS, useFactory: async (...args: unknown[]) => check(await factory(...args)), inject: [...inject] };
    } else {
      const token = useClass ?? useExisting;
      if (useClass !== undefined) providers.push({ provide: useClass, useClass });
      provider = {
        provide: SMS_MODULE_OPTIONS,
        useFactory: async (factory: SmsOptionsFactory) => {
          if (typeof factory?.createSmsOptions !== 'function') throw new SmsModuleError('invalid-options', 'SmsModule: forRootAsync: the options factory class has no createSmsOptions() method');
          return check(await factory.createSmsOptions());
        },
        inject: [token as NonNullable<typeof token>],
      };
    }
    return declare({ isGlobal, webhookPath, options: provider, imports, providers });
  }
}

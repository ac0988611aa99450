/**
 * Declaring the module: forRoot, forRootAsync with a config service (factory, class, existing
 * provider), isGlobal in both, the injected client against the sandbox over loopback, the codec,
 * and the start-up checks with their messages.
 */
import { Inject, Injectable, Module, Scope, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { Sandbox } from '@smsv4/sandbox';
import { startSandbox, type TestSandbox } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InjectSmsClient,
  InjectSmsOptions,
  OnDeliveryReceipt,
  SMS_CLIENT,
  SmsCodec,
  SmsModule,
  SmsModuleError,
  SmsApiError,
  type SmsClient,
  type SmsModuleOptions,
  type SmsOptionsFactory,
} from '../src/index.js';
import { createRecordingLogger } from './helpers.js';

let sandbox: Sandbox;
let server: TestSandbox;

beforeAll(async () => {
  server = await startSandbox();
  sandbox = server.sandbox;
});

afterAll(async () => {
  await server?.close();
});

/** A service of the application that sends through the injected client. */
@Injectable()
class NotificationsService {
  constructor(@InjectSmsClient() readonly sms: SmsClient) {}

  async notify(to: string, text: string): Promise<string> {
    const { ticketId } = await this.sms.send({ destination: { address: to }, message: { type: 'text', content: text } });
    return ticketId;
  }
}

/** A feature module that does not import SmsModule: it sees the client only when the module is global. */
@Module({ providers: [NotificationsService], exports: [NotificationsService] })
class FeatureModule {}

const environment = () => ({ SMS_BASE_URL: server.url, SMS_ACCOUNT_ID: 'sandbox', SMS_PASSWORD: 'sandbox-password' });
const configModule = () => ConfigModule.forRoot({ ignoreEnvFile: true, load: [environment] });
const fromConfig = (config: ConfigService): SmsModuleOptions => ({
  client: { baseUrl: config.getOrThrow<string>('SMS_BASE_URL'), accountId: config.getOrThrow<string>('SMS_ACCOUNT_ID'), password: config.getOrThrow<string>('SMS_PASSWORD') },
});

@Injectable()
class SmsConfig implements SmsOptionsFactory {
  constructor(@Inject(ConfigService) private readonly config: ConfigService) {}

  createSmsOptions(): SmsModuleOptions {
    return fromConfig(this.config);
  }
}

@Module({ imports: [configModule()], providers: [SmsConfig], exports: [SmsConfig] })
class SmsConfigModule {}

async function boot(metadata: ModuleMetadata) {
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

const DECLARATIONS: ReadonlyArray<readonly [string, (isGlobal: boolean) => DynamicModule]> = [
  ['forRoot', (isGlobal) => SmsModule.forRoot({ isGlobal, client: { baseUrl: server.url, accountId: 'sandbox', password: 'sandbox-password' } })],
  [
    'forRootAsync with useFactory and ConfigService',
    (isGlobal) => SmsModule.forRootAsync({ isGlobal, imports: [configModule()], inject: [ConfigService], useFactory: fromConfig }),
  ],
  ['forRootAsync with useClass', (isGlobal) => SmsModule.forRootAsync({ isGlobal, imports: [configModule()], useClass: SmsConfig })],
  ['forRootAsync with useExisting', (isGlobal) => SmsModule.forRootAsync({ isGlobal, imports: [SmsConfigModule], useExisting: SmsConfig })],
];

describe.each(DECLARATIONS)('%s', (_name, declare) => {
  it('injects a client that sends to the sandbox over loopback', async () => {
    const app = await boot({ imports: [declare(false)], providers: [NotificationsService] });
    try {
      const ticketId = await app.get(NotificationsService).notify('14155550100', 'Your code is 1234');
      expect(ticketId).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
      expect(sandbox.snapshot().messages.some((m) => m.ticketId === ticketId)).toBe(true);
      expect(app.get(SMS_CLIENT)).toBe(app.get(NotificationsService).sms);
    } finally {
      await app.close();
    }
  });

  it('with isGlobal: true, reaches a module that does not import it', async () => {
    const app = await boot({ imports: [declare(true), FeatureModule] });
    try {
      const ticketId = await app.get(NotificationsService).notify('14155550101', 'Global');
      expect(sandbox.snapshot().messages.some((m) => m.ticketId === ticketId)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('without isGlobal, stays out of a module that does not import it', async () => {
    await expect(boot({ imports: [declare(false), FeatureModule] })).rejects.toThrow(/can't resolve dependencies of the NotificationsService/);
  });
});

describe('what the module provides', () => {
  it('injects core\'s codec and estimator, and the checked options', async () => {
    @Injectable()
    class Uses {
      constructor(
        @Inject(SmsCodec) readonly codec: SmsCodec,
        @InjectSmsOptions() readonly options: SmsModuleOptions,
      ) {}
    }
    const app = await boot({ imports: [SmsModule.forRoot({ client: { baseUrl: server.url, accountId: 'sandbox', password: 'sandbox-password' } })], providers: [Uses] });
    try {
      const { codec, options } = app.get(Uses);
      expect(codec.estimateSegments('Привет, это длинное сообщение. '.repeat(3), { operator: { maxParts: 4 } })).toMatchObject({ encoding: 'UCS-2', segments: 2 });
      expect(codec.encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } }, 'json')).toBe(
        '{"mobileTerminate":{"destination":{"address":"14155550100"},"message":{"type":"text","content":"Hi"}}}',
      );
      expect(codec.decodeDeliveryReceipt('{"deliveryReceipt":{"type":"final"}}', 'json').ok).toBe(false);
      expect(options.client.accountId).toBe('sandbox');
    } finally {
      await app.close();
    }
  });

  it('rejects with the client\'s SmsApiError when the service refuses', async () => {
    const app = await boot({ imports: [SmsModule.forRoot({ client: { baseUrl: server.url, accountId: 'blocked', password: 'blocked-password' } })], providers: [NotificationsService] });
    try {
      const error = await app.get(NotificationsService).notify('14155550100', 'Hi').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SmsApiError);
      expect(error).toMatchObject({ kind: 'api-error', code: '432', reachedService: 'yes' });
    } finally {
      await app.close();
    }
  });
});

describe('start-up checks', () => {
  @Injectable()
  class Handler {
    @OnDeliveryReceipt()
    take(): void {}
  }

  const valid = { baseUrl: 'http://127.0.0.1:9', accountId: 'a', password: 'b' };
  const refuses = async (metadata: ModuleMetadata, code: string, message: string | RegExp) => {
    const error = await boot(metadata).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SmsModuleError);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ name: 'SmsModuleError', code });
    expect((error as Error).message).toMatch(message);
    return error as SmsModuleError;
  };

  it('names a client option the client refuses, with its TypeError as the cause', async () => {
    const error = await refuses({ imports: [SmsModule.forRoot({ client: { ...valid, baseUrl: 'not a url' } })] }, 'invalid-options', 'SmsModule: client: invalid URL for send: not a url');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('says what the async factory returned wrong', async () => {
    await refuses({ imports: [SmsModule.forRootAsync({ useFactory: () => undefined as never })] }, 'invalid-options', 'SmsModule: the options returned by the forRootAsync factory must be an object with a client member, got undefined');
    await refuses(
      { imports: [SmsModule.forRootAsync({ useFactory: () => ({ client: valid, webhookPath: 'x' }) as never })] },
      'invalid-options',
      /has webhookPath, which forRootAsync takes itself/,
    );
    await refuses({ imports: [SmsModule.forRootAsync({ useFactory: async () => ({ client: valid, webhook: {} }) as never })] }, 'invalid-options', 'unknown member webhook (known: client, webhooks)');
    await refuses(
      { imports: [SmsModule.forRootAsync({ imports: [configModule()], inject: [ConfigService], useFactory: (c: ConfigService) => ({ client: { ...valid, accountId: c.get<string>('NOT_SET') as string } }) })] },
      'invalid-options',
      /^SmsModule: client: /,
    );
  });

  it('refuses webhook options that cannot work', async () => {
    await refuses({ imports: [SmsModule.forRoot({ client: valid, webhooks: { allowUnauthenticated: true, maxBodyBytes: 10 } })] }, 'invalid-options', /webhooks are configured but no webhookPath is given/);
    await refuses(
      { imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { allowUnauthenticated: true, onDeliveryReceipt: () => undefined } as never })] },
      'invalid-options',
      'webhooks.onDeliveryReceipt is not an option here: decorate a provider method with @OnDeliveryReceipt()',
    );
    const error = await refuses({ imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { allowUnauthenticated: true, maxBodyBytes: 0 } })], providers: [Handler] }, 'invalid-options', 'SmsModule: webhooks: maxBodyBytes must be a positive integer, got 0');
    expect(error.cause).toBeInstanceOf(TypeError);
    await refuses(
      { imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { basicAuth: { username: 'a:b', password: 'c' } } })], providers: [Handler] },
      'invalid-options',
      /basicAuth credentials need a username without a colon/,
    );
    await refuses(
      { imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { basicAuth: { username: 'openmarket', password: '' } } })], providers: [Handler] },
      'invalid-options',
      /basicAuth credentials need a non-empty username and a non-empty password/,
    );
  });

  it('refuses a logger or telemetry the receiver and the Basic auth guard cannot report to', async () => {
    const basicAuth = { username: 'sms', password: 'callback-password' };
    const error = await refuses(
      { imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { basicAuth, logger: { info: () => undefined } as never } })], providers: [Handler] },
      'invalid-options',
      'SmsModule: webhooks: logger must have info, warn and error methods (pino-style: (fields, message))',
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    await refuses(
      { imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb', webhooks: { basicAuth, telemetry: {} as never } })], providers: [Handler] },
      'invalid-options',
      "SmsModule: webhooks: telemetry must be the result of core's createTelemetry",
    );
  });

  it('refuses a webhook path without handlers, and handlers on a request-scoped provider', async () => {
    await refuses({ imports: [SmsModule.forRoot({ client: valid, webhookPath: 'sms/callbacks' })] }, 'no-webhook-handlers', /webhookPath 'sms\/callbacks' is set but no provider has an @OnDeliveryReceipt\(\) or @OnInboundMessage\(\) method/);
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      @OnDeliveryReceipt()
      take(): void {}
    }
    await refuses({ imports: [SmsModule.forRoot({ client: valid, webhookPath: 'cb' })], providers: [PerRequest] }, 'invalid-handler', 'SmsModule: PerRequest.take handles callbacks but its provider is not a singleton');
  });

  it('refuses a bad declaration at once', () => {
    expect(() => SmsModule.forRoot({ client: valid, isGlobal: 'yes' as never })).toThrow('SmsModule: forRoot: isGlobal must be a Boolean, got string');
    expect(() => SmsModule.forRoot({ client: valid, webhookPath: 42 as never })).toThrow(/webhookPath must be a string/);
    expect(() => SmsModule.forRootAsync({ useFactory: () => ({ client: valid }), useClass: SmsConfig })).toThrow('SmsModule: forRootAsync needs exactly one of useFactory, useClass and useExisting, got 2');
    expect(() => SmsModule.forRootAsync({})).toThrow(/got 0/);
  });

  it('warns when decorated handlers exist but no webhookPath was declared', async () => {
    const logger = createRecordingLogger();
    const moduleRef = await Test.createTestingModule({ imports: [SmsModule.forRoot({ client: valid })], providers: [Handler] }).compile();
    const app = moduleRef.createNestApplication({ logger });
    await app.init();
    await app.close();
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'Handler.take will never be called: SmsModule was declared without webhookPath',
    ]);
  });
});

import { Reflector, type DiscoveryService, type HttpAdapterHost } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { SmsModuleError } from './sms-module-error.js';
import { OnDeliveryReceipt } from './webhook-decorators.js';
import { SmsWebhookReceiver } from './webhook-receiver.js';

class Receipts {
  @OnDeliveryReceipt()
  take(): void {}
}

function receiverOn(platform: string | undefined): SmsWebhookReceiver {
  const wrapper = { instance: new Receipts(), isDependencyTreeStatic: () => true, isTransient: false };
  const discovery = { getProviders: () => [wrapper] } as unknown as DiscoveryService;
  const host = { httpAdapter: platform === undefined ? undefined : { getType: () => platform } } as unknown as HttpAdapterHost;
  return new SmsWebhookReceiver({ client: { accountId: 'a', password: 'b' }, webhooks: { allowUnauthenticated: true } }, 'cb', discovery, new Reflector(), host);
}

describe('SmsWebhookReceiver on start-up', () => {
  it('refuses a platform other than Express and Fastify, saying what to do instead', () => {
    const error = (() => {
      try {
        receiverOn('koa').onModuleInit();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SmsModuleError);
    expect(error).toMatchObject({
      code: 'unsupported-platform',
      message:
        'SmsModule: the webhook controller runs on the Express platform (@nestjs/platform-express) or the Fastify platform (@nestjs/platform-fastify), this application runs on koa: use one of them, or declare the module without webhookPath and call SmsWebhookReceiver.handle(req, res) with Node\'s request and response from a route of your own',
    });
  });

  it('starts on Express, on Fastify, and without an HTTP adapter (an application context)', () => {
    for (const platform of ['express', 'fastify', undefined]) {
      const receiver = receiverOn(platform);
      receiver.onModuleInit();
      expect(receiver.handlers.map((h) => h.name)).toEqual(['Receipts.take']);
      expect(receiver.handler?.maxBodyBytes).toBe(65_536);
      receiver.onModuleDestroy();
    }
  });
});

describe('SmsWebhookReceiver: who may post', () => {
  const start = (webhooks: object | undefined) => {
    const wrapper = { instance: new Receipts(), isDependencyTreeStatic: () => true, isTransient: false };
    const discovery = { getProviders: () => [wrapper] } as unknown as DiscoveryService;
    const host = { httpAdapter: { getType: () => 'express' } } as unknown as HttpAdapterHost;
    const receiver = new SmsWebhookReceiver({ client: { accountId: 'a', password: 'b' }, ...(webhooks === undefined ? {} : { webhooks }) }, 'cb', discovery, new Reflector(), host);
    receiver.onModuleInit();
    receiver.onModuleDestroy();
  };

  it('refuses to start without basicAuth, allowRemoteAddress or allowUnauthenticated: true, naming the threat', () => {
    expect(() => start(undefined)).toThrow(/SmsModule: webhooks: a receiver needs basicAuth or allowRemoteAddress: .*forged delivery receipts.*allowUnauthenticated: true/);
    expect(() => start({ realm: 'x' })).toThrow(SmsModuleError);
  });

  it('starts with basicAuth (checked by the guard), an allow-list, or allowUnauthenticated: true', () => {
    expect(() => start({ basicAuth: { username: 'openmarket', password: 's3cret' } })).not.toThrow();
    expect(() => start({ allowRemoteAddress: () => true })).not.toThrow();
    expect(() => start({ allowUnauthenticated: true })).not.toThrow();
  });
});

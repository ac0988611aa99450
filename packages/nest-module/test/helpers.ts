/** Shared helpers of the end-to-end tests: Nest applications on loopback, requests, a recording logger. */
import type { INestApplication, LoggerService, ModuleMetadata } from '@nestjs/common';
import type { NestApplicationOptions } from '@nestjs/common';
import { Injectable } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { WebhookHandlerOptions } from '@smsv4/core';
import { eventually, type CallbackAnswer, type ReceiverUnderTest } from '@smsv4/testing';
import { OnDeliveryReceipt, OnInboundMessage, SmsModule } from '../src/index.js';

export { eventually };

/** A Nest application listening on 127.0.0.1 (any free port). */
export interface RunningApp {
  readonly app: INestApplication;
  readonly url: string;
  close(): Promise<void>;
}

/** The HTTP platform of a Nest application under test. */
export type Platform = 'express' | 'fastify';

/** Compiles a testing module and serves it over HTTP on loopback (on Express unless told otherwise; Fastify trusts a loopback proxy). */
export async function startApp(
  metadata: ModuleMetadata,
  options: NestApplicationOptions = {},
  configure: (app: INestApplication) => void = () => undefined,
  platform: Platform = 'express',
): Promise<RunningApp> {
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const app =
    platform === 'express'
      ? moduleRef.createNestApplication({ logger: false, ...options })
      : moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter({ trustProxy: 'loopback' }), { logger: false, ...options });
  configure(app);
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, url, close: () => app.close() };
}

/** Any request, its answer read whole. */
export async function request(url: string, init: RequestInit): Promise<CallbackAnswer> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** A logger that keeps what Nest and the module log. */
export function createRecordingLogger(): LoggerService & { readonly entries: Array<{ level: string; message: string; trace?: string }> } {
  const entries: Array<{ level: string; message: string; trace?: string }> = [];
  const record = (level: string) => (message: unknown, ...rest: unknown[]) => {
    const trace = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
    entries.push({ level, message: String(message), ...(trace === undefined ? {} : { trace }) });
  };
  return { entries, log: record('log'), error: record('error'), warn: record('warn'), debug: record('debug'), verbose: record('verbose') };
}

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };

/**
 * Starts a Nest application whose webhook controller, at `/callbacks`, takes these options as
 * `webhooks`, with a provider whose decorated methods call the handlers given (none for the others);
 * it trusts a loopback proxy. The receivers of the conformance and telemetry suites.
 */
export async function startReceiver(options: WebhookHandlerOptions): Promise<ReceiverUnderTest> {
  return startReceiverOn('express', options);
}

/** {@link startReceiver} on either platform. */
export async function startReceiverOn(platform: Platform, { onDeliveryReceipt, onInboundMessage, ...webhooks }: WebhookHandlerOptions): Promise<ReceiverUnderTest> {
  class Handlers {}
  const decorate = (name: string, handler: (...args: never[]) => unknown, decorator: MethodDecorator): void => {
    Object.defineProperty(Handlers.prototype, name, { value: handler, writable: true, configurable: true });
    decorator(Handlers.prototype, name, Object.getOwnPropertyDescriptor(Handlers.prototype, name) as PropertyDescriptor);
  };
  if (onDeliveryReceipt !== undefined) decorate('receipt', onDeliveryReceipt, OnDeliveryReceipt());
  if (onInboundMessage !== undefined) decorate('inbound', onInboundMessage, OnInboundMessage());
  Injectable()(Handlers);
  const running = await startApp(
    { imports: [SmsModule.forRoot({ client: CLIENT, webhookPath: 'callbacks', webhooks })], providers: [Handlers] },
    {},
    (app) => {
      if (platform === 'express') (app as NestExpressApplication).set('trust proxy', 'loopback');
    },
    platform,
  );
  return { url: `${running.url}/callbacks`, close: () => running.close() };
}

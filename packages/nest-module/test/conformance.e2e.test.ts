/**
 * The receiver conformance suite of @smsv4/testing, against SmsModule's webhook controller: each
 * receiver is a Nest application whose decorated handlers call the suite's.
 */
import { Injectable } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { describeReceiverConformance } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnDeliveryReceipt, OnInboundMessage, SmsModule } from '../src/index.js';
import { startApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };

describeReceiverConformance({
  name: 'the Nest webhook controller',
  runner: { describe, it, expect, beforeAll, afterAll },
  forwardedFor: true,
  // Nest's JSON body parser runs before the controller and answers JSON that does not parse itself.
  frameworkParsesJson: true,
  async start({ onDeliveryReceipt, onInboundMessage, ...webhooks }) {
    // A provider with a decorated method for each handler the suite gives (none for the others).
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
      (app) => void (app as NestExpressApplication).set('trust proxy', 'loopback'),
    );
    return { url: `${running.url}/callbacks`, close: () => running.close() };
  },
});

/**
 * The server side of the benchmark, run in a child process (its own core): one Nest 11 application
 * (Express platform, default body parsers) with five routes that take the same XML receipts:
 * - `/bare`, the baseline: a Nest controller receiving a receipt minimally, as a user would write it
 *   (the Express platform's `express.text()` reads the body, mounted with `app.use` for the route;
 *   fast-xml-parser parses it; the controller answers 200);
 * - `/sms/callbacks`, this package's webhook controller with one `@OnDeliveryReceipt()` method;
 * - `/express`, @smsv4/express-webhooks' middleware mounted with `app.use` in the same application;
 * - `/ignore`, a Nest controller that answers 200 without reading the body (for reference);
 * - `/sms/telemetry`, a second declaration of the module whose receiver is given
 *   `telemetry: createTelemetry({ api })` with the OpenTelemetry API installed but no SDK registered
 *   (its providers are no-ops); the same decorated method takes its receipts, counted apart by path.
 * The receivers' handlers count each receipt by ticket ID and part. Answers `stats` messages with
 * those counts and the process's CPU time.
 */
import 'reflect-metadata';
import type { IncomingMessage, Server } from 'node:http';
import * as otelApi from '@opentelemetry/api';
import { Body, Controller, HttpCode, Injectable, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { serveLoad } from '@smsv4/bench/receiver-load';
import { createTelemetry } from '@smsv4/core';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
import express from 'express';
import { XMLParser } from 'fast-xml-parser';
import { OnDeliveryReceipt, SmsModule, type DeliveryReceipt, type NestPlatform, type WebhookContext } from '../src/index.js';

const counts = { nest: new Map<string, number>(), express: new Map<string, number>(), telemetry: new Map<string, number>() };
const duplicates = { nest: 0, express: 0, telemetry: 0 };
const count = (map: Map<string, number>, receipt: DeliveryReceipt): void => {
  const key = `${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`;
  map.set(key, (map.get(key) ?? 0) + 1);
};

// Receipts carry their facts in attributes: fast-xml-parser's default would drop them.
const parser = new XMLParser({ ignoreAttributes: false });

@Controller('bare')
class BareController {
  @Post()
  @HttpCode(200)
  take(@Body() body: string): void {
    parser.parse(body);
  }
}

@Controller('ignore')
class IgnoreController {
  @Post()
  @HttpCode(200)
  take(): void {}
}

@Injectable()
class Receipts {
  @OnDeliveryReceipt()
  take(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>): void {
    const req = context.platform?.req as (IncomingMessage & { originalUrl?: string }) | undefined;
    count((req?.originalUrl ?? req?.url ?? '').startsWith('/sms/telemetry') ? counts.telemetry : counts.nest, receipt);
  }
}

@Module({
  imports: [
    SmsModule.forRoot({
      client: { baseUrl: 'http://127.0.0.1:9', accountId: 'bench', password: 'bench' },
      webhookPath: 'sms/callbacks',
      webhooks: { allowUnauthenticated: true, onDuplicate: () => void duplicates.nest++ },
    }),
    // The API is loaded, no SDK registered: what an application pays that wires telemetry but exports nothing.
    SmsModule.forRoot({
      client: { baseUrl: 'http://127.0.0.1:9', accountId: 'bench', password: 'bench' },
      webhookPath: 'sms/telemetry',
      webhooks: { allowUnauthenticated: true, telemetry: createTelemetry({ api: otelApi }), onDuplicate: () => void duplicates.telemetry++ },
    }),
  ],
  controllers: [BareController, IgnoreController],
  providers: [Receipts],
})
class BenchModule {}

const app = await NestFactory.create(BenchModule, { logger: false });
app.use('/bare', express.text({ type: ['application/xml', 'text/xml'] }));
const middleware = createWebhookMiddleware({ allowUnauthenticated: true, onDeliveryReceipt: (receipt) => count(counts.express, receipt), onDuplicate: () => void duplicates.express++ });
app.use('/express', middleware);
await app.listen(0, '127.0.0.1');
const server = app.getHttpServer() as Server;
server.keepAliveTimeout = 30_000;
serveLoad(server, {
  counts: () => {
    const doubles = (map: Map<string, number>) => [...map.values()].filter((n) => n > 1).length;
    return {
      handled: { nest: counts.nest.size, express: counts.express.size, telemetry: counts.telemetry.size },
      doubles: { nest: doubles(counts.nest), express: doubles(counts.express), telemetry: doubles(counts.telemetry) },
      duplicates,
    };
  },
  close: async () => {
    middleware.close();
    await app.close();
  },
});

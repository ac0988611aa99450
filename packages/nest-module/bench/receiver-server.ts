/**
 * The server side of the benchmark, run in a child process (its own core): one Nest 11 application
 * (the Express platform with its default body parsers, or the Fastify platform when the first
 * argument is `fastify`) with these routes, that take the same XML receipts:
 * - `/bare`, the baseline: a Nest controller receiving a receipt minimally, as a user would write it
 *   (on Express, the platform's `express.text()` reads the body, mounted with `app.use` for the route;
 *   on Fastify, a content-type parser reads it as a string; fast-xml-parser parses it; the controller
 *   answers 200);
 * - `/sms/callbacks`, this package's webhook controller with one `@OnDeliveryReceipt()` method;
 * - `/express` (Express platform only), @smsv4/express-webhooks' middleware mounted with `app.use` in
 *   the same application;
 * - `/ignore`, a Nest controller that answers 200 without reading the body (for reference);
 * - `/read` and `/decode`, the receiver's first steps alone in Nest controllers: core's bounded body
 *   reader on Node's request, then 200 (the read floor); the same reader and `decodeCallback`, then
 *   200 (the decode floor: what no receiver can avoid);
 * - `/sms/telemetry`, a second declaration of the module whose receiver is given
 *   `telemetry: createTelemetry({ api })` with the OpenTelemetry API installed but no SDK registered
 *   (its providers are no-ops); the same decorated method takes its receipts, counted apart by path.
 * The receivers' handlers count each receipt by ticket ID and part. Answers `stats` messages with
 * those counts and the process's CPU time.
 */
import 'reflect-metadata';
import type { IncomingMessage, Server } from 'node:http';
import * as otelApi from '@opentelemetry/api';
import { text } from 'node:stream/consumers';
import { Body, Controller, HttpCode, Injectable, Module, Post, Req, Res, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { createTakenReceipts, serveLoad } from '@smsv4/bench/receiver-load';
import { createTelemetry, decodeCallback, readBodyStream } from '@smsv4/core';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
import express from 'express';
import { XMLParser } from 'fast-xml-parser';
import { OnDeliveryReceipt, SmsModule, type DeliveryReceipt, type NestPlatform, type WebhookContext } from '../src/index.js';

const counts = { nest: createTakenReceipts(), express: createTakenReceipts(), telemetry: createTakenReceipts() };
const duplicates = { nest: 0, express: 0, telemetry: 0 };

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

/** Node's request under either platform's (Fastify's request keeps it as `raw`). */
const nodeRequest = (req: IncomingMessage | { raw: IncomingMessage }): IncomingMessage => ('raw' in req ? req.raw : req);
/** Answers 200 or 400 with no body, on either platform's reply. */
const answer = (res: { status?: (code: number) => { end(): void }; code?: (code: number) => { send(): void } }, ok: boolean): void => {
  if (res.code !== undefined) res.code(ok ? 200 : 400).send();
  else res.status?.(ok ? 200 : 400).end();
};
const readBody = (req: IncomingMessage) => readBodyStream(req, { maxBytes: 64 * 1024, contentLength: req.headers['content-length'] });

@Controller('read')
class ReadController {
  @Post()
  async take(@Req() req: IncomingMessage | { raw: IncomingMessage }, @Res() res: Parameters<typeof answer>[0]): Promise<void> {
    const body = await readBody(nodeRequest(req));
    answer(res, body.ok);
  }
}

@Controller('decode')
class DecodeController {
  @Post()
  async take(@Req() req: IncomingMessage | { raw: IncomingMessage }, @Res() res: Parameters<typeof answer>[0]): Promise<void> {
    const body = await readBody(nodeRequest(req));
    answer(res, body.ok && decodeCallback(body.value, 'xml').ok);
  }
}

@Injectable()
class Receipts {
  @OnDeliveryReceipt()
  take(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>): void {
    const req = context.platform?.req as (IncomingMessage & { originalUrl?: string }) | undefined;
    ((req?.originalUrl ?? req?.url ?? '').startsWith('/sms/telemetry') ? counts.telemetry : counts.nest).take(receipt);
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
  controllers: [BareController, IgnoreController, ReadController, DecodeController],
  providers: [Receipts],
})
class BenchModule {}

const XML = ['application/xml', 'text/xml'];
const platform = process.argv[2] === 'fastify' ? 'fastify' : 'express';
const middleware = createWebhookMiddleware({ allowUnauthenticated: true, onDeliveryReceipt: (receipt) => counts.express.take(receipt), onDuplicate: () => void duplicates.express++ });
let app: INestApplication;
if (platform === 'express') {
  app = await NestFactory.create(BenchModule, { logger: false });
  app.use('/bare', express.text({ type: XML }));
  app.use('/express', middleware);
} else {
  // Fastify has no parser for XML: the baseline's reads the body as a string; on the floors' routes the
  // body stays unread for core's reader (the webhook route is answered before any parser runs).
  const adapter = new FastifyAdapter();
  adapter.getInstance().addContentTypeParser(XML, (request, payload, done) => {
    if (request.url !== '/bare') return void done(null, undefined);
    text(payload).then((body) => done(null, body), (error: Error) => done(error, undefined));
  });
  app = await NestFactory.create(BenchModule, adapter, { logger: false });
}
await app.listen(0, '127.0.0.1');
const server = app.getHttpServer() as Server;
server.keepAliveTimeout = 30_000;
serveLoad(server, {
  counts: () => {
    const [nest, express, telemetry] = [counts.nest.counts(), counts.express.counts(), counts.telemetry.counts()];
    return {
      handled: { nest: nest.handled, express: express.handled, telemetry: telemetry.handled },
      doubles: { nest: nest.doubles, express: express.doubles, telemetry: telemetry.doubles },
      duplicates,
    };
  },
  close: async () => {
    middleware.close();
    await app.close();
  },
});

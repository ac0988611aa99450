/**
 * The webhook controller over real HTTP with captured payloads: decorated handlers in any provider,
 * 200 only after every handler resolved, 5xx on failure, duplicates, multipart receipts and inbound
 * reassembly, every rejection, the Basic auth guard, the global prefix and URI versioning.
 */
import { Inject, Injectable, Module, VersioningType } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OnDeliveryReceipt,
  OnInboundMessage,
  SmsModule,
  SmsWebhookReceiver,
  WebhookError,
  type DeliveryReceipt,
  type DuplicateEvent,
  type InboundMessage,
  type NestPlatform,
  type WebhookContext,
} from '../src/index.js';
import { postFixture } from '@smsv4/testing';
import { createRecordingLogger, eventually, request, startApp, type RunningApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };
const JOURNAL = 'JOURNAL';

/** What the handlers saw, and what they must do next. */
class Journal {
  receipts: string[] = [];
  audit: string[] = [];
  inbound: InboundMessage[] = [];
  contexts: Array<WebhookContext<NestPlatform>> = [];
  duplicates: DuplicateEvent[] = [];
  errors: WebhookError[] = [];
  /** Ticket IDs whose receipt handler fails once more, per remaining count. */
  failNext = new Map<string, number>();
  /** Ticket IDs whose audit handler fails once more. */
  auditFailNext = new Map<string, number>();
}

function take(counts: Map<string, number>, key: string): boolean {
  const left = counts.get(key) ?? 0;
  if (left <= 0) return false;
  counts.set(key, left - 1);
  return true;
}

@Injectable()
class ReceiptsService {
  constructor(@Inject(JOURNAL) private readonly journal: Journal) {}

  @OnDeliveryReceipt()
  async save(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>): Promise<void> {
    await new Promise((r) => setTimeout(r, 5));
    const { ticketId, segmentNumber } = receipt.mtStatus;
    if (take(this.journal.failNext, ticketId)) throw new Error(`receipt store down for ${ticketId}`);
    this.journal.contexts.push(context);
    this.journal.receipts.push(`${ticketId}#${segmentNumber ?? 1}`);
  }
}

/** A second provider, in another module, that also takes receipts: both run before the 200. */
@Injectable()
class AuditService {
  constructor(@Inject(JOURNAL) private readonly journal: Journal) {}

  @OnDeliveryReceipt()
  record(receipt: DeliveryReceipt): void {
    if (take(this.journal.auditFailNext, receipt.mtStatus.ticketId)) throw new Error('audit log full');
    this.journal.audit.push(receipt.mtStatus.ticketId);
  }

  @OnInboundMessage()
  async inbound(message: InboundMessage): Promise<void> {
    this.journal.inbound.push(message);
  }

  /** Not decorated: never called. */
  notAHandler(): void {
    throw new Error('not a handler');
  }
}

@Module({ providers: [AuditService] })
class AuditModule {}

describe('the webhook controller', () => {
  const journal = new Journal();
  const logger = createRecordingLogger();
  let main: RunningApp;
  let guarded: RunningApp;
  let prefixed: RunningApp;

  beforeAll(async () => {
    const journalProvider = { provide: JOURNAL, useValue: journal };
    @Module({ providers: [journalProvider], exports: [journalProvider] })
    class JournalModule {}
    const journalGlobal = { module: JournalModule, global: true };
    guarded = await startApp({
      imports: [
        journalGlobal,
        SmsModule.forRoot({
          client: CLIENT,
          webhookPath: '/callbacks/',
          webhooks: {
            basicAuth: [
              { username: 'openmarket', password: 'old-secret' },
              { username: 'openmarket', password: 'new-secret' },
            ],
            realm: 'acme',
            onError: (error) => void journal.errors.push(error),
          },
        }),
      ],
      providers: [ReceiptsService],
    });
    prefixed = await startApp(
      { imports: [journalGlobal, SmsModule.forRoot({ client: CLIENT, webhookPath: 'sms', webhooks: { allowUnauthenticated: true } })], providers: [ReceiptsService] },
      {},
      (app) => {
        app.setGlobalPrefix('api');
        app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
      },
    );
    // Last: Nest's static logger is the last application's, and this one records.
    main = await startApp(
      {
        imports: [
          journalGlobal,
          SmsModule.forRoot({
            client: CLIENT,
            webhookPath: 'sms/callbacks',
            webhooks: {
              allowUnauthenticated: true,
              onDuplicate: (event) => void journal.duplicates.push(event),
              maxBodyBytes: 4096,
              handlerTimeoutMs: 2000,
            },
          }),
          AuditModule,
        ],
        providers: [ReceiptsService],
      },
      { logger },
    );
  });

  afterAll(async () => {
    await main?.close();
    await guarded?.close();
    await prefixed?.close();
  });

  const callbacks = () => `${main.url}/sms/callbacks`;

  it('takes an XML receipt: 200 with an empty body once both providers handled it; the same receipt in JSON is a duplicate', async () => {
    const answer = await postFixture(callbacks(), 'receipt-single-delivered.xml');
    expect(answer).toMatchObject({ status: 200, body: '' });
    expect(answer.headers.get('content-length')).toBe('0');
    expect(journal.receipts).toEqual(['44101-0922I-13413-21GDL#1']);
    expect(journal.audit).toEqual(['44101-0922I-13413-21GDL']);
    expect(await postFixture(callbacks(), 'receipt-single-delivered.json')).toMatchObject({ status: 200, body: '' });
    expect(journal.receipts).toHaveLength(1);
    expect(journal.duplicates.map((d) => [d.key, d.reason, d.kind])).toEqual([['receipt:44101-0922I-13413-21GDL:1', 'seen', 'delivery-receipt']]);
  });

  it('gives handlers the format, the duplicate key, the request and the peer address', async () => {
    journal.failNext.set('03155-0331L-1439U-51SLFX', 0);
    await postFixture(callbacks(), 'receipt-multipart-part1-delivered.xml', { userAgent: 'test-suite' });
    const context = journal.contexts.at(-1);
    expect(context?.format).toBe('xml');
    expect(context?.key).toBe('receipt:03155-0331L-1439U-51SLFX:1');
    expect(context?.platform?.req.headers['user-agent']).toBe('test-suite');
    expect(context?.remoteAddress).toMatch(/127\.0\.0\.1$/);
  });

  it('answers each part of a multipart receipt 200 and a repeat 200 without handling it again', async () => {
    for (const fixture of ['receipt-multipart-part2-expired.xml', 'receipt-multipart-part3-delivered.xml', 'receipt-multipart-part2-expired.xml'] as const) {
      expect((await postFixture(callbacks(), fixture)).status).toBe(200);
    }
    expect(journal.receipts.filter((r) => r.startsWith('03155-0331L-1439U-51SLFX'))).toEqual([
      '03155-0331L-1439U-51SLFX#1',
      '03155-0331L-1439U-51SLFX#2',
      '03155-0331L-1439U-51SLFX#3',
    ]);
    expect(journal.duplicates.map((d) => d.key).filter((k) => k.includes('03155'))).toEqual(['receipt:03155-0331L-1439U-51SLFX:2']);
  });

  it('answers 500 when a handler throws, logs the error through Nest, and handles the retry once', async () => {
    // The audit handler fails once; the receipt handler succeeds, but the event is not taken.
    journal.auditFailNext.set('9BBBB-0315C-0A1B2-C3D4E', 1);
    const body = '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="9BBBB-0315C-0A1B2-C3D4E" code="4" description="Message delivered"/></deliveryReceipt>';
    const post = () => request(callbacks(), { method: 'POST', headers: { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4' }, body });
    const failed = await post();
    expect(failed).toMatchObject({ status: 500, body: 'The event could not be handled; retry later\n' });
    expect(failed.body).not.toContain('audit log full');
    const logged = await eventually(() => logger.entries.find((e) => e.level === 'error' && e.message.includes('receipt:9BBBB-0315C-0A1B2-C3D4E:1')));
    expect(logged.trace).toContain('audit log full');
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(journal.audit.filter((t) => t === '9BBBB-0315C-0A1B2-C3D4E')).toHaveLength(1);
    // The receipt handler ran on both deliveries that reached the handlers: handlers must be idempotent.
    expect(journal.receipts.filter((t) => t.startsWith('9BBBB'))).toHaveLength(2);
  });

  it('answers 500 when an async handler rejects, and hands the error with its cause to onError', async () => {
    journal.failNext.set('8CCCC-0315C-0A1B2-C3D4E', 1);
    const body = '<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="8CCCC-0315C-0A1B2-C3D4E" code="4" description="Message delivered"/></deliveryReceipt>';
    const headers = { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4', authorization: basic('openmarket', 'old-secret') };
    expect((await request(`${guarded.url}/callbacks`, { method: 'POST', headers, body })).status).toBe(500);
    const error = journal.errors.find((e) => e.ticketId === '8CCCC-0315C-0A1B2-C3D4E');
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toMatchObject({ name: 'WebhookError', code: 'handler-failed', key: 'receipt:8CCCC-0315C-0A1B2-C3D4E:1' });
    expect((error?.cause as Error).message).toBe('receipt store down for 8CCCC-0315C-0A1B2-C3D4E');
    expect((await request(`${guarded.url}/callbacks`, { method: 'POST', headers, body })).status).toBe(200);
  });

  it('takes a single-part JSON inbound message', async () => {
    expect((await postFixture(callbacks(), 'inbound-text.json')).status).toBe(200);
    expect(journal.inbound.at(-1)).toMatchObject({ text: 'STOP & unsubscribe 👋', type: 'text', source: { address: '12065551234' } });
  });

  it('exposes the receiver and the handlers it found', () => {
    const receiver = main.app.get(SmsWebhookReceiver);
    expect(receiver.handlers.map((h) => `${h.kind} ${h.name}`).sort()).toEqual([
      'delivery-receipt AuditService.record',
      'delivery-receipt ReceiptsService.save',
      'inbound-message AuditService.inbound',
    ]);
    expect(receiver.handler?.pendingMessages).toBe(0);
    expect(logger.entries.some((e) => e.level === 'log' && e.message.startsWith('Receiving callbacks at /sms/callbacks'))).toBe(true);
  });

  it.each([
    ['GET', {}, undefined, 405, 'Callbacks are POST requests\n'],
    ['POST', { 'x-api-version': '3' }, 'receipt-single-delivered.xml', 400, 'X-API-Version must be 4\n'],
    ['POST', { 'content-type': 'text/plain' }, 'receipt-single-delivered.xml', 415, undefined],
    ['POST', {}, 'receipt-hostile-billion-laughs.xml', 400, undefined],
    ['POST', {}, 'receipt-missing-ticket.json', 400, 'Malformed payload: Required member deliveryReceipt.mtStatus.ticketId is missing\n'],
    ['POST', {}, 'status-not-a-callback.xml', 400, 'Payload is neither a deliveryReceipt nor a mobileOriginate\n'],
  ] as const)('answers %s %j %s with %i', async (method, headers, fixture, status, body) => {
    const answer =
      fixture === undefined ? await request(callbacks(), { method, headers }) : await postFixture(callbacks(), fixture, { headers });
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    if (body !== undefined) expect(answer.body).toBe(body);
    if (status === 405) expect(answer.headers.get('allow')).toBe('POST');
  });

  it('leaves a JSON body that does not parse to Nest\'s JSON parser when it ran first: 400 all the same', async () => {
    const answer = await postFixture(callbacks(), 'receipt-truncated.json');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses a body over maxBodyBytes with 413, from Content-Length and while reading a chunked body', async () => {
    const big = `<deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" code="4" description="${'x'.repeat(5000)}"/></deliveryReceipt>`;
    const headers = { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4' };
    const declared = await request(callbacks(), { method: 'POST', headers, body: big });
    expect(declared).toMatchObject({ status: 413, body: 'Payload exceeds 4096 bytes\n' });
    const chunked = await request(callbacks(), {
      method: 'POST',
      headers,
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('guards the route with Basic credentials when basicAuth is set (every pair of a rotation)', async () => {
    const url = `${guarded.url}/callbacks`;
    const none = await postFixture(url, 'receipt-multipart-part3-delivered.xml');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="acme", charset="UTF-8"');
    expect(JSON.parse(none.body)).toMatchObject({ statusCode: 401, message: 'Callbacks to this URL need valid Basic credentials' });
    expect((await postFixture(url, 'receipt-multipart-part3-delivered.xml', { headers: { authorization: basic('openmarket', 'wrong') } })).status).toBe(401);
    expect((await postFixture(url, 'receipt-multipart-part3-delivered.xml', { headers: { authorization: 'Bearer abc' } })).status).toBe(401);
    expect((await postFixture(url, 'receipt-multipart-part3-delivered.xml', { headers: { authorization: basic('openmarket', 'old-secret') } })).status).toBe(200);
    expect((await postFixture(url, 'receipt-multipart-part1-delivered.xml', { headers: { authorization: basic('openmarket', 'new-secret') } })).status).toBe(200);
  });

  it('lives under the global prefix and outside URI versioning', async () => {
    expect((await postFixture(`${prefixed.url}/api/sms`, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
    expect((await postFixture(`${prefixed.url}/api/v1/sms`, 'receipt-multipart-part3-delivered.xml')).status).toBe(404);
    expect((await postFixture(`${prefixed.url}/sms`, 'receipt-multipart-part3-delivered.xml')).status).toBe(404);
  });
});

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

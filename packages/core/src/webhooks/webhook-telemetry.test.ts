import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { createTestSdk } from '../../test/otel-sdk.js';
import { createTelemetry } from '../telemetry/create-telemetry.js';
import type { TelemetryLogger } from '../telemetry/logger.js';
import { TELEMETRY_METRICS } from '../telemetry/telemetry-names.js';
import type { TicketStore } from '../telemetry/ticket-store.js';
import type { ReassemblerTimers } from './inbound-reassembler.js';
import type { WebhookError } from './webhook-error.js';
import { createWebhookHandler, type WebhookHandlerOptions, type WebhookRequest } from './webhook-handler.js';

// The receiver's side of the telemetry: what a user sees of real callbacks in spans, metrics and logs.

type Line = { level: string; fields: Record<string, unknown>; message: string };
function memoryLogger(): TelemetryLogger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

function post(path: string): WebhookRequest {
  return {
    method: 'POST',
    headers: { 'x-api-version': '4', 'content-type': path.endsWith('.json') ? 'application/json; charset=UTF-8' : 'application/xml; charset=UTF-8' },
    body: loadFixture(path),
  };
}

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  contextManager.enable();
  api.context.setGlobalContextManager(contextManager);
});
afterAll(() => {
  api.context.disable();
});

let sdk = createTestSdk();
afterEach(async () => {
  await sdk.shutdown();
  sdk = createTestSdk();
});

function receiver(options: Partial<WebhookHandlerOptions> & { logContent?: boolean; logger?: TelemetryLogger; ticketStore?: TicketStore; ticketLookupTimeoutMs?: number }) {
  const { logContent, logger, ticketStore, ticketLookupTimeoutMs, ...rest } = options;
  const errors: WebhookError[] = [];
  const telemetry = createTelemetry({
    api: sdk.api,
    tracerProvider: sdk.tracerProvider,
    meterProvider: sdk.meterProvider,
    ...(logContent === undefined ? {} : { logContent }),
    ...(logger === undefined ? {} : { logger }),
    ...(ticketStore === undefined ? {} : { ticketStore }),
    ...(ticketLookupTimeoutMs === undefined ? {} : { ticketLookupTimeoutMs }),
  });
  const handler = createWebhookHandler({ allowUnauthenticated: true, onError: (e) => errors.push(e), telemetry, ...rest } as WebhookHandlerOptions);
  return { handler, errors, telemetry };
}

const callbackSpans = () => sdk.finishedSpans().filter((s) => s.name.startsWith('smsv4 receive'));

describe('receiver telemetry: a failing handler', () => {
  it("puts the handler's error on the callback's span: error status and an exception event, no message content", async () => {
    const { handler } = receiver({
      onInboundMessage: async () => {
        await Promise.resolve();
        throw new RangeError('database refused the row');
      },
    });
    const response = await handler.handle(post('mobile-originate/text-attribute.xml'));
    expect(response.status).toBe(500);
    const [span, ...others] = callbackSpans();
    expect(others).toEqual([]);
    expect(span?.status).toEqual({ code: api.SpanStatusCode.ERROR, message: 'handler-failed' });
    expect(span?.events.map((e) => e.name)).toEqual(['exception']);
    const event = span?.events[0]?.attributes ?? {};
    expect(event['exception.type']).toBe('RangeError');
    expect(event['exception.message']).toBe('database refused the row');
    expect(String(event['exception.stacktrace'])).toMatch(/^RangeError: database refused the row\n\s+at /);
    expect(span?.attributes).toEqual({
      'smsv4.callback.kind': 'inbound-message',
      'smsv4.ticket_id': '2213K-0122M-1347B-28U4E',
      'smsv4.outcome': 'rejected',
      'smsv4.duplicate': false,
      'http.response.status_code': 500,
      'smsv4.rejection': 'handler-failed',
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('STOP');
  });

  it('records a handler that throws at once the same way, and a handler that succeeds with no exception event', async () => {
    const { handler } = receiver({
      onDeliveryReceipt: () => {
        throw new TypeError('bad receipt handling');
      },
      onInboundMessage: () => undefined,
    });
    expect((await handler.handle(post('delivery-receipt/single-delivered.xml'))).status).toBe(500);
    expect((await handler.handle(post('mobile-originate/text-attribute.xml'))).status).toBe(200);
    const [failed, handled] = callbackSpans();
    expect(failed?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(failed?.events.map((e) => [e.name, e.attributes?.['exception.type'], e.attributes?.['exception.message']])).toEqual([['exception', 'TypeError', 'bad receipt handling']]);
    expect(handled?.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(handled?.events).toEqual([]);
  });
});

describe("receiver telemetry: the handler's own spans", () => {
  it('are children of the callback span, also after an await in the handler', async () => {
    const app = sdk.tracerProvider.getTracer('app');
    const { handler } = receiver({
      onInboundMessage: async () => {
        await new Promise((r) => setTimeout(r, 1));
        app.startSpan('save message').end();
      },
    });
    expect((await handler.handle(post('mobile-originate/text-attribute.xml'))).status).toBe(200);
    const [callback] = callbackSpans();
    const own = sdk.finishedSpans().find((s) => s.name === 'save message');
    expect(own?.parentSpanContext?.spanId).toBe(callback?.spanContext().spanId);
    expect(own?.spanContext().traceId).toBe(callback?.spanContext().traceId);
  });
});

describe('receiver telemetry: reassembly orphans', () => {
  it('counts a multipart message whose parts did not all arrive before the timeout, and logs it', async () => {
    let fire: (() => void) | undefined;
    const timers: ReassemblerTimers = { setTimeout: (fn) => (fire = fn), clearTimeout: () => undefined };
    let clock = 0;
    const logger = memoryLogger();
    const orphans: unknown[] = [];
    const { handler } = receiver({ onInboundMessage: () => undefined, onOrphan: (m) => void orphans.push(m), timers, now: () => clock, reassemblyTimeoutMs: 1000, logger });
    expect((await handler.handle(post('mobile-originate/udh8-part1.xml'))).status).toBe(200);
    expect(await sdk.points(TELEMETRY_METRICS.orphans.name)).toEqual([]);
    clock = 1000;
    fire?.();
    expect(orphans).toHaveLength(1);
    const points = await sdk.points(TELEMETRY_METRICS.orphans.name);
    expect(points.map((p) => [p.attributes, p.value])).toEqual([[{}, 1]]);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([
      {
        level: 'warn',
        fields: { ticketId: '31QX9-0314A-0000A-77PQR', partsHeld: 1, missingParts: [2] },
        message: 'multipart inbound message 31QX9-0314A-0000A-77PQR handed over incomplete: parts 2 missing',
      },
    ]);
    // The part itself was counted as held, not as an orphan.
    const callbacks = await sdk.points(TELEMETRY_METRICS.callbacks.name);
    expect(callbacks.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'part-stored' }, 1]]);
    handler.close();
  });
});

describe('receiver telemetry: logContent', () => {
  const cases = [
    ['mobile-originate/text-attribute.xml', { 'smsv4.source': '12065551234', 'smsv4.destination': '24273', 'smsv4.message.content': 'STOP & unsubscribe 👋' }],
    ['delivery-receipt/single-delivered.xml', { 'smsv4.destination': '12065551234' }],
  ] as const;

  it("records a callback's source, destination and content on its span and log line only with logContent: true", async () => {
    for (const logContent of [true, false]) {
      const logger = memoryLogger();
      const { handler } = receiver({ onInboundMessage: () => undefined, onDeliveryReceipt: () => undefined, logContent, logger });
      for (const [path] of cases) expect((await handler.handle(post(path))).status).toBe(200);
      const spans = callbackSpans();
      const lines = logger.lines;
      cases.forEach(([, personal], i) => {
        const attributes = spans[i]?.attributes ?? {};
        const fields = lines[i]?.fields ?? {};
        const recorded = Object.fromEntries(Object.entries(attributes).filter(([k]) => ['smsv4.source', 'smsv4.destination', 'smsv4.message.content'].includes(k)));
        const logged = Object.fromEntries(Object.entries(fields).filter(([k]) => ['source', 'destination', 'content'].includes(k)));
        expect(recorded).toEqual(logContent ? personal : {});
        expect(logged).toEqual(
          logContent ? Object.fromEntries(Object.entries(personal).map(([k, v]) => [k.replace('smsv4.', '').replace('message.', ''), v])) : {},
        );
      });
      if (!logContent) {
        const everything = JSON.stringify([spans.map((s) => s.attributes), lines]);
        for (const personal of ['12065551234', '24273', 'STOP']) expect(everything).not.toContain(personal);
      }
      await sdk.shutdown();
      sdk = createTestSdk();
    }
  });
});

describe('receiver telemetry: a ticket store that answers late or fails', () => {
  const RECEIPT = 'delivery-receipt/single-delivered.xml';

  it('waits for the store, links the receipt, and records the latency', async () => {
    const store: TicketStore = {
      remember: () => undefined,
      find: async (ticketId) => {
        await new Promise((r) => setTimeout(r, 5));
        return ticketId === '44101-0922I-13413-21GDL'
          ? { sentAt: Date.parse('2024-03-14T09:26:50.000Z'), context: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 } }
          : undefined;
      },
    };
    const { handler } = receiver({ onDeliveryReceipt: () => undefined, ticketStore: store });
    expect((await handler.handle(post(RECEIPT))).status).toBe(200);
    expect(callbackSpans()[0]?.links.map((l) => l.context)).toEqual([{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }]);
    expect((await sdk.points(TELEMETRY_METRICS.deliveryLatency.name)).map((p) => p.value)).toMatchObject([{ count: 1, sum: 3 }]);
  });

  it('answers 200 without link or latency, and logs why, when the store fails or takes longer than ticketLookupTimeoutMs', async () => {
    const failing: TicketStore = { remember: () => undefined, find: () => Promise.reject(new Error('connection lost')) };
    const hanging: TicketStore = { remember: () => undefined, find: () => new Promise(() => undefined) };
    for (const [store, message] of [
      [failing, 'ticket store: looking up 44101-0922I-13413-21GDL failed (its receipt goes without link and latency): connection lost'],
      [hanging, 'ticket store: looking up 44101-0922I-13413-21GDL took over 20 ms (its receipt goes without link and latency)'],
    ] as const) {
      const logger = memoryLogger();
      const handled: string[] = [];
      const { handler } = receiver({ onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId), ticketStore: store, ticketLookupTimeoutMs: 20, logger });
      expect((await handler.handle(post(RECEIPT))).status).toBe(200);
      expect(handled).toEqual(['44101-0922I-13413-21GDL']);
      expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([message]);
    }
    expect(callbackSpans().map((s) => s.links.length)).toEqual([0, 0]);
    expect(await sdk.points(TELEMETRY_METRICS.deliveryLatency.name)).toEqual([]);
  });
});

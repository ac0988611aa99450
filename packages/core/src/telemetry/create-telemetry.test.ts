import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSdk } from '../../test/otel-sdk.js';
import { createTelemetry } from './create-telemetry.js';
import type { TelemetryLogger } from './logger.js';
import { TELEMETRY_METRICS } from './telemetry-names.js';

type Line = { level: string; fields: Record<string, unknown>; message: string };
function memoryLogger(): TelemetryLogger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
let sdk = createTestSdk();
afterEach(async () => {
  await sdk.shutdown();
  sdk = createTestSdk();
});

describe('createTelemetry: client calls', () => {
  it('records the call span, a client span per attempt under it, and the send counters', async () => {
    const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    const call = t.clientCall('send');
    call.attempt({ attempt: 1, method: 'POST', url: 'http://127.0.0.1:4010/sms/v4/mt', startedAt: T0, durationMs: 40, httpStatus: 500, errorKind: 'api-error', code: '1010', nextDelayMs: 10_000 });
    call.attempt({ attempt: 2, method: 'POST', url: 'http://127.0.0.1:4010/sms/v4/mt', startedAt: T0 + 10_040, durationMs: 20, httpStatus: 202, requestId: 'r-2' });
    call.end({ ok: true, attempts: 2, httpStatus: 202, requestId: 'r-2', ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD' });

    const spans = sdk.finishedSpans();
    const op = spans.find((s) => s.name === 'smsv4 send');
    const attempts = spans.filter((s) => s.name === 'POST');
    expect(op?.attributes).toEqual({
      'smsv4.operation': 'send',
      'smsv4.outcome': 'accepted',
      'smsv4.attempts': 2,
      'smsv4.ticket_id': 'AAAAA-BBBBB-CCCCC-DDDDD',
      'smsv4.request_id': 'r-2',
      'http.response.status_code': 202,
    });
    expect(op?.status.code).toBe(1);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(a.parentSpanContext?.spanId).toBe(op?.spanContext().spanId);
    expect(attempts[0]?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': 4010,
      'http.response.status_code': 500,
      'error.type': '1010',
      'url.full': 'http://127.0.0.1:4010/sms/v4/mt',
      'smsv4.operation': 'send',
      'smsv4.code': '1010',
    });
    expect(attempts[0]?.status.code).toBe(2);
    expect(attempts[1]?.attributes['http.request.resend_count']).toBe(1);
    // Attempt spans carry the attempt's own times.
    expect(attempts[0]?.startTime).toEqual([T0 / 1000, 0]);
    expect(attempts[0]?.endTime).toEqual([T0 / 1000, 40_000_000]);

    const sends = await sdk.points(TELEMETRY_METRICS.sends.name);
    expect(sends.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.outcome': 'accepted' }, 1]]);
    const retries = await sdk.points(TELEMETRY_METRICS.retries.name);
    expect(retries.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.operation': 'send', 'error.type': '1010' }, 1]]);
    const attemptsCounted = await sdk.points(TELEMETRY_METRICS.attempts.name);
    expect(attemptsCounted.map((p) => p.value).reduce((a, b) => Number(a) + Number(b), 0)).toBe(2);
  });

  it('counts a refused send as rejected with its code, and an answer lost as unknown, logged as an error', async () => {
    const logger = memoryLogger();
    const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, logger });
    t.clientCall('send').end({ ok: false, attempts: 0, errorKind: 'invalid-request', code: '540', description: 'Destination address is invalid', reachedService: 'no' });
    t.clientCall('send').end({ ok: false, attempts: 1, errorKind: 'timeout', description: 'no complete answer', reachedService: 'unknown' });
    const sends = await sdk.points(TELEMETRY_METRICS.sends.name);
    expect(sends.map((p) => [p.attributes, p.value])).toEqual([
      [{ 'smsv4.outcome': 'rejected', 'smsv4.code': '540' }, 1],
      [{ 'smsv4.outcome': 'unknown' }, 1],
    ]);
    expect(logger.lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'send rejected: Destination address is invalid'],
      ['error', 'send unknown: no complete answer'],
    ]);
  });

  it('keeps phone numbers out of lookup URLs unless content may be recorded', () => {
    for (const logContent of [false, true]) {
      const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, logContent });
      const call = t.clientCall('lookup');
      call.attempt({ attempt: 1, method: 'GET', url: 'https://preview.example/sms/v4/preview/14155550100', startedAt: 0, durationMs: 1, httpStatus: 200 });
      call.end({ ok: true, attempts: 1, httpStatus: 200 });
    }
    const urls = sdk.finishedSpans().filter((s) => s.name === 'GET').map((s) => s.attributes['url.full']);
    expect(urls).toEqual(['https://preview.example/sms/v4/preview/{phoneNumber}', 'https://preview.example/sms/v4/preview/14155550100']);
  });
});

describe('createTelemetry: logContent', () => {
  it("records a send's destination and content on its span and log line only with logContent: true", () => {
    for (const logContent of [true, false]) {
      const logger = memoryLogger();
      const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, logger, logContent });
      t.clientCall('send', { destination: '14155550100', content: 'Your code is 1234' }).end({ ok: true, attempts: 1, httpStatus: 202, ticketId: 'T1' });
      const span = sdk.finishedSpans().at(-1);
      const personal = { 'smsv4.destination': '14155550100', 'smsv4.message.content': 'Your code is 1234' };
      expect(span?.attributes).toEqual({
        'smsv4.operation': 'send',
        ...(logContent ? personal : {}),
        'smsv4.outcome': 'accepted',
        'smsv4.attempts': 1,
        'smsv4.ticket_id': 'T1',
        'http.response.status_code': 202,
      });
      expect(logger.lines).toEqual([
        {
          level: 'info',
          fields: {
            operation: 'send',
            outcome: 'accepted',
            ticketId: 'T1',
            requestId: undefined,
            code: undefined,
            httpStatus: 202,
            attempts: 1,
            reachedService: undefined,
            ...(logContent ? { destination: '14155550100', content: 'Your code is 1234' } : {}),
          },
          message: 'send accepted as T1',
        },
      ]);
    }
  });
});

describe('createTelemetry: ticket store', () => {
  it('logs a ticket store that fails to remember a send; the send is reported all the same', async () => {
    const logger = memoryLogger();
    const t = createTelemetry({
      api: sdk.api,
      tracerProvider: sdk.tracerProvider,
      logger,
      ticketStore: { remember: () => Promise.reject(new Error('READONLY')), find: () => undefined },
    });
    t.clientCall('send').end({ ok: true, attempts: 1, httpStatus: 202, ticketId: 'T9' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sdk.finishedSpans().map((s) => s.name)).toEqual(['smsv4 send']);
    expect(logger.lines.map((l) => [l.level, l.message])).toEqual([
      ['info', 'send accepted as T9'],
      ['warn', 'ticket store: remembering T9 failed (its receipt goes without link and latency): READONLY'],
    ]);
  });

  it('gives the store the ticket, the send span and the send time, for ticketTtlMs (default 97 hours)', () => {
    const remembered: unknown[] = [];
    const store = { remember: (...args: unknown[]) => void remembered.push(args), find: () => undefined };
    createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, ticketStore: store, now: () => T0 }).clientCall('send').end({ ok: true, attempts: 1, ticketId: 'A' });
    createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, ticketStore: store, now: () => T0, ticketTtlMs: 5000 }).clientCall('send').end({ ok: true, attempts: 1, ticketId: 'B' });
    const [a, b] = sdk.finishedSpans();
    expect(remembered).toEqual([
      ['A', { context: a?.spanContext(), sentAt: T0 }, 97 * 3_600_000],
      ['B', { context: b?.spanContext(), sentAt: T0 }, 5000],
    ]);
  });

  it('refuses a store without remember and find, and a ticket TTL or lookup timeout that is not positive', () => {
    expect(() => createTelemetry({ ticketStore: { remember() {} } as never })).toThrow(new TypeError('ticketStore must implement remember and find'));
    expect(() => createTelemetry({ ticketTtlMs: 0 })).toThrow(new TypeError('ticketTtlMs must be a positive number, got 0'));
    expect(() => createTelemetry({ ticketLookupTimeoutMs: -1 })).toThrow(new TypeError('ticketLookupTimeoutMs must be a positive number, got -1'));
  });
});

describe('createTelemetry: callbacks', () => {
  it("links a receipt's span to its send's, and records the latency from the send to deliveryDate", async () => {
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, now: () => clock });
    t.clientCall('send').end({ ok: true, attempts: 1, httpStatus: 202, ticketId: 'T1' });
    clock += 5_000;
    const cb = t.callback();
    cb.decoded({ kind: 'delivery-receipt', ticketId: 'T1', code: 4, segmentNumber: 1, totalSegments: 1, deliveryDate: '2025-12-31T19:00:12.000-05:00' });
    cb.end({ status: 200, outcome: 'handled' });
    const send = sdk.finishedSpans().find((s) => s.name === 'smsv4 send');
    const receipt = sdk.finishedSpans().find((s) => s.name === 'smsv4 receive delivery-receipt');
    expect(receipt?.links.map((l) => l.context.spanId)).toEqual([send?.spanContext().spanId]);
    expect(receipt?.attributes).toEqual({
      'smsv4.callback.kind': 'delivery-receipt',
      'smsv4.ticket_id': 'T1',
      'smsv4.segment_number': 1,
      'smsv4.total_segments': 1,
      'smsv4.code': '4',
      'smsv4.outcome': 'handled',
      'smsv4.duplicate': false,
      'http.response.status_code': 200,
    });
    const latency = await sdk.points(TELEMETRY_METRICS.deliveryLatency.name);
    expect(latency).toHaveLength(1);
    expect(latency[0]?.attributes).toEqual({ 'smsv4.delivery.outcome': 'delivered' });
    expect((latency[0]?.value as { sum: number; count: number }).sum).toBe(12);
  });

  it('counts duplicates and rejections by kind and outcome, and orphans', async () => {
    const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    const dup = t.callback();
    dup.decoded({ kind: 'inbound-message', ticketId: 'M1' });
    dup.end({ status: 200, outcome: 'duplicate' });
    t.callback().end({ status: 415, outcome: 'rejected', rejection: 'unsupported-media-type' });
    t.orphan({ ticketId: 'M2', partsHeld: 1, missingParts: [2] });
    const callbacks = await sdk.points(TELEMETRY_METRICS.callbacks.name);
    expect(callbacks.map((p) => [p.attributes, p.value])).toEqual([
      [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'duplicate' }, 1],
      [{ 'smsv4.callback.kind': 'unknown', 'smsv4.outcome': 'rejected', 'smsv4.rejection': 'unsupported-media-type' }, 1],
    ]);
    expect((await sdk.points(TELEMETRY_METRICS.duplicates.name)).map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.callback.kind': 'inbound-message' }, 1]]);
    expect((await sdk.points(TELEMETRY_METRICS.orphans.name)).map((p) => p.value)).toEqual([1]);
    const rejected = sdk.finishedSpans().find((s) => s.attributes['smsv4.outcome'] === 'rejected');
    expect(rejected?.status).toEqual({ code: 2, message: 'unsupported-media-type' });
  });

  it('runs the handler with the callback span active: spans it starts are children of the callback span', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    api.context.setGlobalContextManager(manager);
    try {
      const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider });
      const cb = t.callback();
      cb.decoded({ kind: 'inbound-message', ticketId: 'M1' });
      const app = sdk.tracerProvider.getTracer('app');
      expect(cb.run(() => (app.startSpan('handler work').end(), 42))).toBe(42);
      app.startSpan('after the handler').end();
      cb.end({ status: 200, outcome: 'handled' });
      const callback = sdk.finishedSpans().find((s) => s.name === 'smsv4 receive inbound-message');
      const inside = sdk.finishedSpans().find((s) => s.name === 'handler work');
      const after = sdk.finishedSpans().find((s) => s.name === 'after the handler');
      expect(inside?.parentSpanContext?.spanId).toBe(callback?.spanContext().spanId);
      expect(after?.parentSpanContext).toBeUndefined();
    } finally {
      api.context.disable();
    }
  });
});

describe('createTelemetry: queue jobs', () => {
  it('runs a send with the job span active (the call span is its child) and ends it with the ticket and the code', async () => {
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      const logger = memoryLogger();
      const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, logger });
      const job = t.queueJob('order-1');
      expect(job.run(() => t.clientCall('send').end({ ok: true, attempts: 1, httpStatus: 202, ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD' }))).toBeUndefined();
      job.end({ key: 'order-1', state: 'accepted', ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD' });
      const refused = t.queueJob('order-2');
      refused.end({ key: 'order-2', state: 'rejected', code: '592', description: 'Destination address not allowed' });

      const [send, first, second] = sdk.finishedSpans();
      expect([send?.name, first?.name, second?.name]).toEqual(['smsv4 send', 'smsv4 queue send', 'smsv4 queue send']);
      expect(send?.parentSpanContext?.spanId).toBe(first?.spanContext().spanId);
      expect(first?.attributes).toEqual({ 'smsv4.queue.key': 'order-1', 'smsv4.queue.state': 'accepted', 'smsv4.ticket_id': 'AAAAA-BBBBB-CCCCC-DDDDD' });
      expect(first?.status).toEqual({ code: 1 });
      expect(second?.attributes).toEqual({ 'smsv4.queue.key': 'order-2', 'smsv4.queue.state': 'rejected', 'smsv4.code': '592' });
      expect(second?.status).toEqual({ code: 2, message: 'Destination address not allowed' });
      expect(logger.lines.filter((l) => l.message.startsWith('queued message'))).toEqual([
        { level: 'info', fields: { key: 'order-1', state: 'accepted', ticketId: 'AAAAA-BBBBB-CCCCC-DDDDD', code: undefined, description: undefined }, message: 'queued message order-1: accepted' },
        { level: 'warn', fields: { key: 'order-2', state: 'rejected', ticketId: undefined, code: '592', description: 'Destination address not allowed' }, message: 'queued message order-2: rejected' },
      ]);
    } finally {
      api.context.disable();
    }
  });
});

describe('createTelemetry: options and logs', () => {
  it('refuses a logger without the three methods', () => {
    expect(() => createTelemetry({ logger: { info() {} } as never })).toThrow(new TypeError('logger must have info, warn and error methods (pino-style: (fields, message))'));
  });

  it('does nothing but log when neither the API nor providers are given, and a throwing logger changes nothing', () => {
    const t = createTelemetry({
      logger: {
        info() {
          throw new Error('broken');
        },
        warn() {},
        error() {},
      },
    });
    const call = t.clientCall('send');
    expect(() => call.end({ ok: true, attempts: 1, httpStatus: 202, ticketId: 'T' })).not.toThrow();
  });

  it('knows when nothing would keep a report: the API with no SDK registered, and no logger', () => {
    expect(createTelemetry({ api: sdk.api }).clientCall('send').active).toBe(false);
    expect(createTelemetry({ api: sdk.api, logger: memoryLogger() }).clientCall('send').active).toBe(true);
    expect(createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider }).clientCall('send').active).toBe(true);
    expect(createTelemetry({ api: sdk.api, meterProvider: sdk.meterProvider }).clientCall('send').active).toBe(true);
  });

  it('starts one span per callback, also when the tracer gives spans that do not record (an API without SDK)', () => {
    const started: string[] = [];
    const tracerProvider = {
      getTracer: () => ({
        startSpan: (name: string) => {
          started.push(name);
          return api.trace.wrapSpanContext(api.INVALID_SPAN_CONTEXT);
        },
      }),
    };
    const t = createTelemetry({ api: sdk.api, tracerProvider, logger: memoryLogger() });
    const decodedFirst = t.callback();
    decodedFirst.decoded({ kind: 'delivery-receipt', ticketId: 'T1', code: 4 });
    decodedFirst.end({ status: 200, outcome: 'handled' });
    const refusedBeforeDecoding = t.callback();
    refusedBeforeDecoding.end({ status: 401, outcome: 'rejected', rejection: 'unauthorized' });
    expect(started).toEqual(['smsv4 receive delivery-receipt', 'smsv4 receive unknown']);
  });

  it('reports whether anything would keep a report now, and sees an SDK registered later through the global tracer provider', () => {
    expect(createTelemetry({}).reporting()).toBe(false);
    expect(createTelemetry({ api: sdk.api }).reporting()).toBe(false);
    expect(createTelemetry({ api: sdk.api, logger: memoryLogger() }).reporting()).toBe(true);
    expect(createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider }).reporting()).toBe(true);
    expect(createTelemetry({ api: sdk.api, meterProvider: sdk.meterProvider }).reporting()).toBe(true);
    const later = createTelemetry({ api: sdk.api });
    expect(api.trace.setGlobalTracerProvider(sdk.tracerProvider)).toBe(true);
    try {
      expect(later.reporting()).toBe(true);
      const cb = later.callback();
      cb.decoded({ kind: 'delivery-receipt', ticketId: 'LATE', code: 4 });
      cb.end({ status: 200, outcome: 'handled' });
      expect(sdk.finishedSpans().map((s) => s.name)).toEqual(['smsv4 receive delivery-receipt']);
    } finally {
      api.trace.disable();
    }
  });

  it('forgets the oldest ticket beyond maxTrackedTickets', () => {
    const t = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, maxTrackedTickets: 1 });
    t.clientCall('send').end({ ok: true, attempts: 1, ticketId: 'OLD' });
    t.clientCall('send').end({ ok: true, attempts: 1, ticketId: 'NEW' });
    for (const ticketId of ['OLD', 'NEW']) {
      const cb = t.callback();
      cb.decoded({ kind: 'delivery-receipt', ticketId, code: 4 });
      cb.end({ status: 200, outcome: 'handled' });
    }
    const receipts = sdk.finishedSpans().filter((s) => s.name === 'smsv4 receive delivery-receipt');
    expect(receipts.map((s) => s.links.length)).toEqual([0, 1]);
  });
});

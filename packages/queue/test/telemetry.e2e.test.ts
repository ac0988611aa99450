/**
 * Telemetry of the queue, read from the OpenTelemetry SDK's in-memory exporters: a span per send
 * from `sending` to the state it led to (the client's span its child), the state counter, the
 * unknown fates and the depth gauge; and the bare `logger` option's lines.
 */
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createTelemetry, SMS_ERRORS, TELEMETRY_METRICS, type TelemetryLogger } from '@smsv4/core';
import { createTestTelemetry } from '@smsv4/testing/otel';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue, type SendQueue } from '../src/index.js';
import { keyOfContent, sandboxRecord, startSandbox, waitFor, type SandboxSetup } from './helpers.js';

let redis: TestRedis;
let setup: SandboxSetup;
const open: SendQueue[] = [];
const sdk = createTestTelemetry();

beforeAll(async () => {
  // What the OTel Node SDK registers: the active span follows async work, so the client's span finds its parent.
  sdk.api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  redis = await startRedis();
  setup = await startSandbox({ timeScale: 100 });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((queue) => queue.close()));
  setup.sandbox.clearFaults();
  sdk.resetSpans();
});
afterAll(async () => {
  await setup?.close();
  await redis?.stop();
  await sdk.shutdown();
  sdk.api.context.disable();
});

const clientOptions = () => ({ baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password' });
const retry = { temporaryErrorDelayMs: 300, allowShortTemporaryErrorDelay: true, initialDelayMs: 50, maxDelayMs: 500 };
const ticketOf = async (key: string): Promise<string | undefined> => (await sandboxRecord(setup.server.url)).find((m) => keyOfContent(m.content) === key)?.ticketId;

type Line = { level: string; fields: Record<string, unknown>; message: string };
function memoryLogger(): TelemetryLogger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('queue telemetry', () => {
  it('records a span per send with its ticket and code, the client span under it, the states by count, and the depth', async () => {
    const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    const queue = createSendQueue({ connection: redis.connection, name: 'telemetry', clientOptions: { ...clientOptions(), telemetry }, retry, telemetry });
    open.push(queue);
    await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'first [tel-1]' } }, { key: 'tel-1' });
    await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'second [tel-2]' } }, { key: 'tel-2' });
    const depth = await sdk.points(TELEMETRY_METRICS.queueDepth.name);
    expect(depth.map((p) => p.value)).toEqual([2]);

    setup.sandbox.addFault({ operation: 'send', kind: '1010' });
    queue.startWorker({ concurrency: 1 });
    expect(await waitFor(async () => (await queue.getMessages(['tel-1', 'tel-2'])).every((m) => m?.state === 'accepted'), 15_000)).toBe(true);
    const [ticket1, ticket2] = [await ticketOf('tel-1'), await ticketOf('tel-2')];
    expect(ticket1).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);

    const spans = sdk.finishedSpans().filter((s) => s.name === 'smsv4 queue send');
    // The first send met 1010 (retrying), then both were accepted.
    expect(spans.map((s) => s.attributes)).toEqual([
      { 'smsv4.queue.key': 'tel-1', 'smsv4.queue.state': 'retrying', 'smsv4.code': '1010' },
      { 'smsv4.queue.key': 'tel-2', 'smsv4.queue.state': 'accepted', 'smsv4.ticket_id': ticket2 },
      { 'smsv4.queue.key': 'tel-1', 'smsv4.queue.state': 'accepted', 'smsv4.ticket_id': ticket1 },
    ]);
    expect(spans.map((s) => s.status)).toEqual([{ code: 2, message: SMS_ERRORS['1010'].description }, { code: 1 }, { code: 1 }]);
    // The client's own spans: one per send, each the child of its queue span.
    const sends = sdk.finishedSpans().filter((s) => s.name === 'smsv4 send');
    expect(sends.map((s) => [s.attributes['smsv4.outcome'], s.attributes['smsv4.code'] ?? s.attributes['smsv4.ticket_id']])).toEqual([
      ['rejected', '1010'],
      ['accepted', ticket2],
      ['accepted', ticket1],
    ]);
    expect(sends.map((s) => s.parentSpanContext?.spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
    expect(new Set(sends.map((s, i) => s.spanContext().traceId === spans[i]?.spanContext().traceId))).toEqual(new Set([true]));

    const jobs = await sdk.points(TELEMETRY_METRICS.queueJobs.name);
    const byState = Object.fromEntries(jobs.map((p) => [p.attributes['smsv4.queue.state'], p.value]));
    expect(byState).toEqual({ queued: 2, sending: 3, retrying: 1, accepted: 2 });
    expect(await sdk.points(TELEMETRY_METRICS.unknownFates.name)).toEqual([]);
  });

  it('counts a send parked as unknown fate (1000) once, and ends its span with the code', async () => {
    const meters = createTestTelemetry();
    try {
      const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: meters.meterProvider });
      const queue = createSendQueue({ connection: redis.connection, name: 'telemetry-unknown', clientOptions: clientOptions(), retry, telemetry });
      open.push(queue);
      setup.sandbox.addFault({ operation: 'send', kind: '1000', count: 1 });
      await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'lost [tel-3]' } }, { key: 'tel-3' });
      queue.startWorker();
      expect(await waitFor(async () => (await queue.getMessage('tel-3'))?.state === 'unknown', 5_000)).toBe(true);
      const unknown = await meters.points(TELEMETRY_METRICS.unknownFates.name);
      expect(unknown.map((p) => [p.attributes, p.value])).toEqual([[{}, 1]]);
      const jobs = await meters.points(TELEMETRY_METRICS.queueJobs.name);
      expect(Object.fromEntries(jobs.map((p) => [p.attributes['smsv4.queue.state'], p.value]))).toEqual({ queued: 1, sending: 1, unknown: 1 });
      const [span] = sdk.finishedSpans().filter((s) => s.name === 'smsv4 queue send');
      expect(span?.attributes).toEqual({ 'smsv4.queue.key': 'tel-3', 'smsv4.queue.state': 'unknown', 'smsv4.code': '1000' });
      expect(span?.status).toEqual({ code: 2, message: SMS_ERRORS['1000'].description });
    } finally {
      await meters.shutdown();
    }
  });
});

describe('the logger option', () => {
  it('writes one line per state change, with keys, tickets and codes, never credentials, content or numbers', async () => {
    const logger = memoryLogger();
    const queue = createSendQueue({ connection: redis.connection, name: 'logs', clientOptions: clientOptions(), retry, logger, concurrency: 1 });
    open.push(queue);
    setup.sandbox.addFault({ operation: 'send', kind: '1000', count: 1 });
    await queue.enqueue({ destination: { address: '14155550123' }, message: { type: 'text', content: 'Secret code 4821 [log-1]' } }, { key: 'log-1' });
    await queue.enqueue({ destination: { address: '14155550123' }, message: { type: 'text', content: 'Secret code 4822 [log-2]' } }, { key: 'log-2' });
    queue.startWorker();
    expect(await waitFor(async () => (await queue.getMessage('log-2'))?.state === 'accepted', 5_000)).toBe(true);
    const ticket2 = await ticketOf('log-2');
    const none = { ticketId: undefined, code: undefined, description: undefined };
    expect(logger.lines).toEqual([
      { level: 'info', fields: { key: 'log-1', state: 'queued', ...none }, message: 'queued message log-1: queued' },
      { level: 'info', fields: { key: 'log-2', state: 'queued', ...none }, message: 'queued message log-2: queued' },
      { level: 'info', fields: { key: 'log-1', state: 'sending', ...none }, message: 'queued message log-1: sending' },
      { level: 'error', fields: { key: 'log-1', state: 'unknown', ticketId: undefined, code: '1000', description: SMS_ERRORS['1000'].description }, message: 'queued message log-1: unknown' },
      { level: 'info', fields: { key: 'log-2', state: 'sending', ...none }, message: 'queued message log-2: sending' },
      { level: 'info', fields: { key: 'log-2', state: 'accepted', ticketId: ticket2, code: undefined, description: undefined }, message: 'queued message log-2: accepted' },
    ]);
    const written = JSON.stringify(logger.lines);
    for (const secret of ['sandbox-password', 'Secret code', '14155550123', '4821']) expect(written).not.toContain(secret);
  });
});

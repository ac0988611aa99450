/**
 * Telemetry of the queue, read from the OpenTelemetry SDK's in-memory exporters: a span per send
 * from `sending` to the state it led to, the state counter and the depth gauge.
 */
import { createTelemetry, TELEMETRY_METRICS } from '@smsv4/core';
import { createTestTelemetry } from '@smsv4/testing/otel';
import { startRedis, type TestRedis } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSendQueue, type SendQueue } from '../src/index.js';
import { startSandbox, waitFor, type SandboxSetup } from './helpers.js';

let redis: TestRedis;
let setup: SandboxSetup;
let queue: SendQueue;
const sdk = createTestTelemetry();

beforeAll(async () => {
  redis = await startRedis();
  setup = await startSandbox({ timeScale: 100 });
});
afterAll(async () => {
  await queue?.close();
  await setup?.close();
  await redis?.stop();
  await sdk.shutdown();
});

describe('queue telemetry', () => {
  it('records a span per send, the states by count, and the depth', async () => {
    const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
    queue = createSendQueue({
      connection: redis.connection,
      name: 'telemetry',
      clientOptions: { baseUrl: setup.server.url, accountId: 'sandbox', password: 'sandbox-password', telemetry },
      retry: { temporaryErrorDelayMs: 300, allowShortTemporaryErrorDelay: true, initialDelayMs: 50, maxDelayMs: 500 },
      telemetry,
    });
    await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'first' } }, { key: 'tel-1' });
    await queue.enqueue({ destination: { address: '14155550100' }, message: { type: 'text', content: 'second' } }, { key: 'tel-2' });
    const depth = await sdk.points(TELEMETRY_METRICS.queueDepth.name);
    expect(depth.map((p) => p.value)).toEqual([2]);

    setup.sandbox.addFault({ operation: 'send', kind: '1010' });
    queue.startWorker({ concurrency: 1 });
    expect(await waitFor(async () => (await queue.getMessages(['tel-1', 'tel-2'])).every((m) => m?.state === 'accepted'), 15_000)).toBe(true);

    const spans = sdk.finishedSpans().filter((s) => s.name === 'smsv4 queue send');
    // The first send met 1010 (retrying), then both were accepted.
    expect(spans.map((s) => [s.attributes['smsv4.queue.key'], s.attributes['smsv4.queue.state']])).toEqual([
      ['tel-1', 'retrying'],
      ['tel-2', 'accepted'],
      ['tel-1', 'accepted'],
    ]);
    expect(spans.map((s) => s.status.code)).toEqual([2, 1, 1]);
    // The client's own spans sit beside them: three sends, one refused with 1010.
    const sends = sdk.finishedSpans().filter((s) => s.name === 'smsv4 send');
    expect(sends.map((s) => s.attributes['smsv4.outcome'])).toEqual(['rejected', 'accepted', 'accepted']);

    const jobs = await sdk.points(TELEMETRY_METRICS.queueJobs.name);
    const byState = Object.fromEntries(jobs.map((p) => [p.attributes['smsv4.queue.state'], p.value]));
    expect(byState).toEqual({ queued: 2, sending: 3, retrying: 1, accepted: 2 });
    expect(await sdk.points(TELEMETRY_METRICS.unknownFates.name)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createTestTelemetry } from './test-telemetry.js';

describe('createTestTelemetry', () => {
  it('reads back the spans and metric points of the SDK it gives', async () => {
    const sdk = createTestTelemetry();
    const tracer = sdk.tracerProvider.getTracer('test');
    tracer.startSpan('first').end();
    tracer.startSpan('second').end();
    expect(sdk.finishedSpans().map((s) => s.name)).toEqual(['first', 'second']);
    sdk.resetSpans();
    expect(sdk.finishedSpans()).toEqual([]);

    const counter = sdk.meterProvider.getMeter('test').createCounter('test.count');
    counter.add(2, { route: 'a' });
    counter.add(3, { route: 'a' });
    expect((await sdk.points('test.count')).map((p) => [p.attributes, p.value])).toEqual([[{ route: 'a' }, 5]]);
    // Cumulative: collecting again gives the same total.
    expect((await sdk.points('test.count')).map((p) => p.value)).toEqual([5]);
    expect(await sdk.points('no.such.metric')).toEqual([]);
    await sdk.shutdown();
  });
});

/**
 * `@smsv4/testing/otel`: the OpenTelemetry SDK with in-memory exporters, so that a test reads back
 * the spans and metric points of `createTelemetry` (core, transport-fetch, queue). Its own entry:
 * the SDK packages are optional peer dependencies, needed only by those who import it.
 */
import * as api from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A tracer and a meter provider whose spans and metric points the test reads back. */
export interface TestTelemetry {
  /** `@opentelemetry/api`, as `createTelemetry({ api })` takes it. */
  readonly api: typeof api;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** The spans ended so far, oldest first. */
  finishedSpans(): ReadableSpan[];
  /** Every data point of a metric, collected now (cumulative). */
  points(name: string): Promise<DataPoint<number | Histogram>[]>;
  /** Clears the spans ended so far. */
  resetSpans(): void;
  /** Shuts both providers down. */
  shutdown(): Promise<void>;
}

/**
 * Creates the SDK for a test: spans through a simple processor into memory, metrics through a reader
 * that exports only when `points()` asks (cumulative). Nothing is registered globally.
 *
 * @example
 * const sdk = createTestTelemetry();
 * const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
 * // ... send through a client given `telemetry`
 * expect(sdk.finishedSpans().map((s) => s.name)).toContain('smsv4 send');
 */
export function createTestTelemetry(): TestTelemetry {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    api,
    tracerProvider,
    meterProvider,
    finishedSpans: () => spans.getFinishedSpans(),
    resetSpans: () => spans.reset(),
    async points(name) {
      metricExporter.reset();
      await reader.forceFlush();
      return metricExporter
        .getMetrics()
        .flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics))
        .filter((metric) => metric.descriptor.name === name)
        .flatMap((metric) => metric.dataPoints as DataPoint<number | Histogram>[]);
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

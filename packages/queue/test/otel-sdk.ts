/** The OpenTelemetry SDK with in-memory exporters, for the telemetry tests. */
import * as api from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A tracer and meter provider whose spans and metric points the test reads back. */
export function createTestSdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    api,
    tracerProvider,
    meterProvider,
    finishedSpans: (): ReadableSpan[] => spans.getFinishedSpans(),
    /** Every data point of a metric, collected now. */
    async points(name: string): Promise<DataPoint<number | Histogram>[]> {
      metricExporter.reset();
      await reader.forceFlush();
      return metricExporter
        .getMetrics()
        .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
        .filter((m) => m.descriptor.name === name)
        .flatMap((m) => m.dataPoints as DataPoint<number | Histogram>[]);
    },
    async shutdown(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

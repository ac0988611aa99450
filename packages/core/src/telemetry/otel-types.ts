/**
 * The part of the OpenTelemetry API (`@opentelemetry/api`) the toolkit calls, written as structural
 * types: packages take the API object from the application and never import it themselves, so an
 * application without OpenTelemetry loads none of it and its type declarations need none of it.
 */

/** Attribute values as OpenTelemetry takes them. */
export type TelemetryAttributeValue = string | number | boolean;

/** Attributes of a span or a measurement. */
export type TelemetryAttributes = Record<string, TelemetryAttributeValue>;

/** The identity of a span, as links carry it. */
export interface SpanContextLike {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
}

/** A link from one span to another. */
export interface SpanLinkLike {
  readonly context: SpanContextLike;
  readonly attributes?: TelemetryAttributes;
}

/** Options of `tracer.startSpan`. */
export interface SpanOptionsLike {
  /** `SpanKind`: 0 internal, 1 server, 2 client, 3 producer, 4 consumer. */
  readonly kind?: number;
  readonly attributes?: TelemetryAttributes;
  readonly links?: SpanLinkLike[];
  /** Epoch milliseconds. */
  readonly startTime?: number;
}

/** A span. */
export interface SpanLike {
  spanContext(): SpanContextLike;
  /** `false` for the API's no-op spans (no SDK registered): nothing recorded on them is kept. */
  isRecording?(): boolean;
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setAttributes(attributes: TelemetryAttributes): unknown;
  /** `code`: 0 unset, 1 ok, 2 error. */
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): unknown;
  /** Epoch milliseconds. */
  end(endTime?: number): void;
}

/** A tracer. */
export interface TracerLike {
  startSpan(name: string, options?: SpanOptionsLike, context?: unknown): SpanLike;
}

/** A counter (or up-down counter). */
export interface CounterLike {
  add(value: number, attributes?: TelemetryAttributes): void;
}

/** A histogram. */
export interface HistogramLike {
  record(value: number, attributes?: TelemetryAttributes): void;
}

/** What an observable instrument's callback is handed. */
export interface ObservableResultLike {
  observe(value: number, attributes?: TelemetryAttributes): void;
}

/** An observable gauge. */
export interface ObservableGaugeLike {
  addCallback(callback: (result: ObservableResultLike) => void | Promise<void>): void;
  removeCallback(callback: (result: ObservableResultLike) => void | Promise<void>): void;
}

/** Options of a metric instrument. */
export interface InstrumentOptionsLike {
  readonly description?: string;
  readonly unit?: string;
  readonly advice?: { readonly explicitBucketBoundaries?: number[] };
}

/** A meter. */
export interface MeterLike {
  createCounter(name: string, options?: InstrumentOptionsLike): CounterLike;
  createUpDownCounter(name: string, options?: InstrumentOptionsLike): CounterLike;
  createHistogram(name: string, options?: InstrumentOptionsLike): HistogramLike;
  createObservableGauge(name: string, options?: InstrumentOptionsLike): ObservableGaugeLike;
}

/** A tracer provider. */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): TracerLike;
}

/** A meter provider. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): MeterLike;
}

/**
 * The OpenTelemetry API object (`import * as api from '@opentelemetry/api'`): the toolkit reads the
 * global providers from it and the active context, so its spans join the application's traces.
 */
export interface OpenTelemetryApiLike {
  readonly trace: {
    getTracerProvider(): TracerProviderLike;
    setSpan(context: unknown, span: SpanLike): unknown;
  };
  readonly metrics: {
    getMeterProvider(): MeterProviderLike;
  };
  /** The API's no-op meter (what `getMeter` gives while no SDK is registered). */
  readonly createNoopMeter?: () => MeterLike;
  /** The API's global tracer provider class: a new one delegates to the no-op provider until an SDK registers. */
  readonly ProxyTracerProvider?: new () => { getDelegate(): unknown };
  readonly context: {
    active(): unknown;
    /** Runs `fn` with `context` active (present in every release of the API; optional here for hand-made stand-ins). */
    with?<T>(context: unknown, fn: () => T): T;
  };
}

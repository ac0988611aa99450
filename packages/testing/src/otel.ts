/**
 * `@smsv4/testing/otel`: the OpenTelemetry SDK with in-memory exporters for telemetry tests. Needs
 * `@opentelemetry/api`, `@opentelemetry/sdk-trace-base` and `@opentelemetry/sdk-metrics` installed
 * (optional peer dependencies of the kit).
 */
export type { TestTelemetry } from './otel/test-telemetry.js';
export { createTestTelemetry } from './otel/test-telemetry.js';
export type { ReceiverTelemetryOptions } from './otel/receiver-telemetry.js';
export { describeReceiverTelemetry } from './otel/receiver-telemetry.js';

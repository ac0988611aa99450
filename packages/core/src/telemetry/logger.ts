/**
 * The structured log hook every package takes: a pino-style logger (`pino`, `bunyan`, a Fastify or
 * Nest logger adapter, or `console`-like objects with the same three methods).
 */
import type { TelemetryAttributes } from './otel-types.js';

/** A structured logger: the fields first, the message second (pino's order). */
export interface TelemetryLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** The level of one log line. */
export type TelemetryLogLevel = 'info' | 'warn' | 'error';

/** Writes one line; a logger that throws never changes what the toolkit does. */
export function writeLog(logger: TelemetryLogger | undefined, level: TelemetryLogLevel, fields: TelemetryAttributes | Record<string, unknown>, message: string): void {
  if (logger === undefined) return;
  try {
    logger[level](fields, message);
  } catch {
    // Logging must not turn an accepted send or a taken callback into a failure.
  }
}

/** Checks a `logger` option: undefined, or an object with `info`, `warn` and `error` methods. */
export function checkLogger(logger: unknown, name = 'logger'): TelemetryLogger | undefined {
  if (logger === undefined) return undefined;
  const l = logger as Partial<TelemetryLogger> | null;
  if (l === null || typeof l !== 'object' || (['info', 'warn', 'error'] as const).some((level) => typeof l[level] !== 'function')) {
    throw new TypeError(`${name} must have info, warn and error methods (pino-style: (fields, message))`);
  }
  return logger as TelemetryLogger;
}

/**
 * The structured logger of `--log`: one JSON object a line (`level`, `time`, `msg` and the fields
 * the toolkit gives), as pino writes them, so that log tools read them as they are.
 */
import type { TelemetryLogger } from '@smsv4/core';

/** A pino-style logger writing JSON lines through `write`. */
export function jsonLinesLogger(write: (line: string) => void, now: () => Date = () => new Date()): TelemetryLogger {
  const at = (level: 'info' | 'warn' | 'error') => (fields: Record<string, unknown>, message: string): void => {
    write(`${JSON.stringify({ level, time: now().toISOString(), msg: message, ...fields })}\n`);
  };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

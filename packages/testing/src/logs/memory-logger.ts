/**
 * `createMemoryLogger()`: a structured logger (pino-style `info/warn/error(fields, message)`, the
 * `logger` option of every package) that keeps its lines in memory for a test to read back.
 */

/** One line written to a {@link MemoryLogger}. */
export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** A logger that keeps what it is given. */
export interface MemoryLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /** The lines written so far, oldest first (fields as given, `undefined` members dropped). */
  readonly lines: readonly LogLine[];
  /** Every line as one JSON text: check that a secret appears nowhere with `not.toContain`. */
  text(): string;
  /** Forgets the lines written so far. */
  clear(): void;
}

/**
 * Creates a logger for a test: pass it as the `logger` option (of `createTelemetry`, a receiver,
 * the client, the queue, the sandbox or `startSandbox`), then read `lines`.
 *
 * @example
 * const logger = createMemoryLogger();
 * const sms = await startSandbox({ logger });
 * // ... send
 * expect(logger.lines.map((l) => l.message)).toEqual(['send answered 202']);
 * expect(logger.text()).not.toContain('sandbox-password');
 */
export function createMemoryLogger(): MemoryLogger {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (fields: Record<string, unknown>, message: string): void => {
      const kept: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(fields ?? {})) if (value !== undefined) kept[name] = value;
      lines.push({ level, fields: kept, message });
    };
  return {
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    lines,
    text: () => JSON.stringify(lines),
    clear: () => void lines.splice(0),
  };
}

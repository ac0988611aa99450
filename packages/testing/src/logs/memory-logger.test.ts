import { checkLogger, createTelemetry } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from './memory-logger.js';

describe('createMemoryLogger', () => {
  it('keeps each line with its level, fields and message, oldest first', () => {
    const logger = createMemoryLogger();
    logger.info({ ticketId: 'T1', code: undefined }, 'first');
    logger.warn({ status: 401 }, 'second');
    logger.error({}, 'third');
    expect(logger.lines).toEqual([
      { level: 'info', fields: { ticketId: 'T1' }, message: 'first' },
      { level: 'warn', fields: { status: 401 }, message: 'second' },
      { level: 'error', fields: {}, message: 'third' },
    ]);
    expect(logger.text()).toBe(JSON.stringify(logger.lines));
    logger.clear();
    expect(logger.lines).toEqual([]);
  });

  it("is a logger core's packages take", () => {
    const logger = createMemoryLogger();
    expect(checkLogger(logger)).toBe(logger);
    const telemetry = createTelemetry({ logger });
    telemetry.callback().end({ status: 401, outcome: 'rejected', rejection: 'unauthorized' });
    expect(logger.lines).toEqual([
      { level: 'warn', fields: { kind: 'unknown', outcome: 'rejected', status: 401, rejection: 'unauthorized' }, message: 'unknown answered 401: unauthorized' },
    ]);
  });
});

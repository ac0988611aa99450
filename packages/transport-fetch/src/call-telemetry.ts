/**
 * The client's side of core's telemetry: each call reported to a call observer, each attempt from
 * the same facts the `onAttempt` hook gets. A telemetry failure never changes a call's outcome.
 */
import type { ApiOperation, CallContent, CallReport, SmsTelemetry } from '@smsv4/core';
import type { AttemptEvent, AttemptHook } from './attempt-event.js';
import { SmsApiError } from './errors.js';
import type { ResponseInfo } from './results.js';

function quietly(report: () => void): void {
  try {
    report();
  } catch {
    // Telemetry must not turn an accepted send into a failure the caller might retry.
  }
}

function failureReport(error: unknown): CallReport {
  if (!(error instanceof SmsApiError)) return { ok: false, attempts: 0, errorKind: error instanceof TypeError ? 'misuse' : 'error', error };
  return {
    ok: false,
    attempts: error.attempts,
    errorKind: error.kind,
    description: error.description,
    reachedService: error.reachedService,
    error,
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
  };
}

function attemptReport(event: AttemptEvent) {
  const { error } = event;
  return {
    attempt: event.attempt,
    method: event.method,
    url: event.url,
    startedAt: event.startedAt,
    durationMs: event.durationMs,
    ...(event.httpStatus === undefined ? {} : { httpStatus: event.httpStatus }),
    ...(event.requestId === undefined ? {} : { requestId: event.requestId }),
    ...(error === undefined ? {} : { errorKind: error.kind, ...(error.code === undefined ? {} : { code: error.code }) }),
    ...(event.nextDelayMs === undefined ? {} : { nextDelayMs: event.nextDelayMs }),
  };
}

/** The destination and content of a send, as far as the request (not yet validated) has them as strings. */
export function sendContent(request: unknown): CallContent {
  const r = request as { destination?: { address?: unknown }; message?: { content?: unknown } } | null | undefined;
  const destination = r?.destination?.address;
  const content = r?.message?.content;
  return {
    ...(typeof destination === 'string' ? { destination } : {}),
    ...(typeof content === 'string' ? { content } : {}),
  };
}

/**
 * Runs a call under a call observer: `run` gets the attempt hook to use (the client's own hook
 * still called). `content` is given only when the telemetry may record it (`logContent: true`).
 */
export function observeCall<T extends ResponseInfo>(
  telemetry: SmsTelemetry,
  operation: ApiOperation,
  userHook: AttemptHook | undefined,
  run: (onAttempt: AttemptHook | undefined) => Promise<T>,
  content?: CallContent,
): Promise<T> {
  const observer = telemetry.clientCall(operation, content);
  if (!observer.active) return run(undefined); // the call as without telemetry (its own hook kept)
  const hook: AttemptHook = (event) => {
    quietly(() => observer.attempt(attemptReport(event)));
    userHook?.(event);
  };
  return run(hook).then(
    (result) => {
      const ticketId = (result as { ticketId?: unknown }).ticketId;
      quietly(() =>
        observer.end({
          ok: true,
          attempts: result.attempts,
          httpStatus: result.httpStatus,
          ...(result.requestId === undefined ? {} : { requestId: result.requestId }),
          ...(typeof ticketId === 'string' ? { ticketId } : {}),
        }),
      );
      return result;
    },
    (error: unknown) => {
      quietly(() => observer.end(failureReport(error)));
      throw error;
    },
  );
}

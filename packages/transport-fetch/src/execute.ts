/**
 * A call: attempts of one prepared request until core's parser accepts the answer, the failure is
 * not retryable for the operation, or the retry policy says stop. Every attempt is reported to the
 * hook; the last failure is thrown as an {@link SmsApiError}.
 */
import type { ApiFailure, HttpRequestData, HttpResponseData, Result } from '@smsv4/core';
import type { AttemptEvent, AttemptHook } from './attempt-event.js';
import { SmsApiError, type SmsApiErrorInit } from './errors.js';
import { exchange, type ExchangeOutcome, type ExchangeSettings } from './exchange.js';
import type { ResponseInfo } from './results.js';
import { parseRetryAfter } from './retry-after.js';
import { planRetry, retryability, type FailureFacts, type ResolvedRetryPolicy } from './retry-policy.js';
import { sleep } from './sleep.js';

/** How a call is made. */
export interface CallSettings extends ExchangeSettings {
  readonly policy: ResolvedRetryPolicy;
  readonly random: () => number;
  readonly onAttempt: AttemptHook | undefined;
}

/** The failure of one attempt, before the retry decision. */
type AttemptFailure = Omit<SmsApiErrorInit, 'retryable' | 'attempts' | 'retryAfterMs'> & {
  readonly facts: FailureFacts | undefined;
  readonly retryAfterHeaderMs?: number;
};

const decoder = new TextDecoder();

function report(hook: AttemptHook | undefined, event: AttemptEvent): void {
  if (hook === undefined) return;
  try {
    hook(event);
  } catch {
    // A logging hook must not turn an accepted send into a failure the caller might retry.
  }
}

function failureOf(outcome: Exclude<ExchangeOutcome, { kind: 'response' }>, request: HttpRequestData, settings: CallSettings): AttemptFailure {
  const operation = request.operation;
  switch (outcome.kind) {
    case 'too-large': {
      const requestId = outcome.response.headers.get('x-request-id') ?? undefined;
      return {
        kind: 'unexpected-response',
        operation,
        description: `HTTP ${outcome.response.status} with a body over ${settings.maxResponseBytes} bytes`,
        httpStatus: outcome.response.status,
        ...(requestId === undefined ? {} : { requestId }),
        reachedService: 'yes',
        raw: { response: outcome.response, body: '' },
        facts: { kind: 'unexpected-response', httpStatus: outcome.response.status },
      };
    }
    case 'timeout':
      return {
        kind: 'timeout',
        operation,
        description: `no complete answer within ${settings.timeoutMs ?? 0} ms; the request may have reached the service`,
        reachedService: 'unknown',
        facts: { kind: 'timeout' },
      };
    case 'aborted':
      return { kind: 'aborted', operation, description: 'aborted by the caller', reachedService: 'unknown', cause: outcome.reason, facts: undefined };
    case 'network': {
      const { failure } = outcome;
      const what = failure.code ?? (outcome.cause instanceof Error ? outcome.cause.message : String(outcome.cause));
      return {
        kind: 'network',
        operation,
        description:
          failure.reachedService === 'no' ? `no connection (${what}); the request did not leave` : `no answer (${what}); the request may have reached the service`,
        reachedService: failure.reachedService,
        cause: outcome.cause,
        facts: { kind: 'network', ...(failure.notSent === undefined ? {} : { notSent: failure.notSent }) },
      };
    }
  }
}

function failureOfAnswer(failure: ApiFailure, response: Response, body: string): AttemptFailure {
  const retryAfterHeaderMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  const common = {
    operation: failure.operation,
    description: failure.description,
    httpStatus: failure.httpStatus,
    ...(failure.requestId === undefined ? {} : { requestId: failure.requestId }),
    reachedService: 'yes' as const,
    raw: { response, body },
    ...(retryAfterHeaderMs === undefined ? {} : { retryAfterHeaderMs }),
  };
  if (failure.kind === 'api-error') {
    return { ...common, kind: 'api-error', code: failure.code, facts: { kind: 'api-error', httpStatus: failure.httpStatus, temporary: failure.retry.retryable } };
  }
  return { ...common, kind: 'unexpected-response', facts: { kind: 'unexpected-response', httpStatus: failure.httpStatus } };
}

/** Makes the call; resolves with the parsed value and the HTTP facts, or rejects with an {@link SmsApiError}. */
export async function execute<T extends object>(
  request: HttpRequestData,
  interpret: (response: HttpResponseData) => Result<T, ApiFailure>,
  settings: CallSettings,
): Promise<T & ResponseInfo> {
  const { policy, random, onAttempt, signal } = settings;
  if (signal?.aborted) {
    throw new SmsApiError({
      kind: 'aborted',
      operation: request.operation,
      description: 'aborted by the caller before the request left',
      reachedService: 'no',
      retryable: false,
      attempts: 0,
      cause: signal.reason,
    });
  }
  const firstStartedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const startedAt = Date.now();
    const outcome = await exchange(request, settings);
    const durationMs = Date.now() - startedAt;
    let failure: AttemptFailure;
    if (outcome.kind === 'response') {
      const { response } = outcome;
      const parsed = interpret({ status: response.status, headers: response.headers, body: outcome.body });
      const body = outcome.body.byteLength === 0 ? '' : decoder.decode(outcome.body);
      if (parsed.ok) {
        if (onAttempt !== undefined) {
          const requestId = response.headers.get('x-request-id') ?? undefined;
          report(onAttempt, { ...eventOf(request, attempt, startedAt, durationMs), httpStatus: response.status, ...(requestId === undefined ? {} : { requestId }) });
        }
        return Object.assign(parsed.value, { httpStatus: response.status, response, body, attempts: attempt });
      }
      failure = failureOfAnswer(parsed.error, response, body);
    } else {
      failure = failureOf(outcome, request, settings);
    }
    const { facts, retryAfterHeaderMs, ...init } = failure;
    const r = facts === undefined ? { retryable: false } : retryability(request.operation, facts, policy);
    const retryAfterMs = r.retryable ? maxDefined(r.minDelayMs, retryAfterHeaderMs) : undefined;
    const nextDelayMs =
      facts === undefined
        ? undefined
        : planRetry(policy, { attempt, elapsedMs: Date.now() - firstStartedAt, retryability: r, ...(retryAfterHeaderMs === undefined ? {} : { retryAfterMs: retryAfterHeaderMs }) }, random);
    const error = new SmsApiError({ ...init, retryable: r.retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), attempts: attempt });
    report(onAttempt, {
      ...eventOf(request, attempt, startedAt, durationMs),
      ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
      error,
      ...(nextDelayMs === undefined ? {} : { nextDelayMs }),
    });
    if (nextDelayMs === undefined) throw error;
    if (!(await sleep(nextDelayMs, signal))) {
      throw new SmsApiError({
        kind: 'aborted',
        operation: request.operation,
        description: `aborted by the caller while waiting to retry after: ${error.description}`,
        reachedService: error.reachedService,
        retryable: false,
        attempts: attempt,
        cause: signal?.reason,
      });
    }
  }
}

function eventOf(request: HttpRequestData, attempt: number, startedAt: number, durationMs: number): AttemptEvent {
  return { operation: request.operation, attempt, method: request.method, url: request.url, startedAt, durationMs };
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

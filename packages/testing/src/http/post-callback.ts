/**
 * `postCallback`: posts a receipt or an inbound message to a receiver as the service does (`POST`,
 * `Content-Type` of the format with `charset=UTF-8`, `X-API-Version: 4`, a `User-Agent`), retries
 * an attempt the receiver did not take (any answer but 2xx, a network error, a timeout) on the
 * sandbox's backoff within the service's retry window, on a compressed clock, and reports every
 * answer.
 */
import { API_VERSION_HEADER, CALLBACK_API_VERSION, contentTypeFor, INBOUND_RETRY_WINDOW_MS, RECEIPT_RETRY_WINDOW_MS, type WireFormat } from '@smsv4/core';
import { DEFAULT_RETRY_POLICY } from '@smsv4/sandbox';
import type { Payload } from '../builders/payload.js';
import { sniffFormat } from './body-format.js';

/** The service's retry schedule, in simulated milliseconds, run on a compressed clock. */
export interface RetrySchedule {
  /** The most retries after the first attempt (default: as many as the window allows). */
  readonly retries?: number;
  /** Delay before the first retry (default the sandbox's: 10 s). */
  readonly initialDelayMs?: number;
  /** Growth of the delay per attempt (default 2). */
  readonly factor?: number;
  /** Longest delay (default 1 hour). */
  readonly maxDelayMs?: number;
  /** How long after the first attempt retries go on (default 24 hours for receipts, 3 days for inbound messages). */
  readonly windowMs?: number;
  /** Simulated milliseconds per real millisecond (default 100 000: the 24 hours of a receipt pass in under a second). */
  readonly timeScale?: number;
}

/** Options of {@link postCallback}. */
export interface PostCallbackOptions {
  /** The format of a raw body (default: told from its first character); a payload's own otherwise. */
  readonly format?: WireFormat;
  /** `0` (default): one attempt. A number: at most that many retries on the service's schedule. Or the schedule. */
  readonly retries?: number | RetrySchedule;
  /** `receipt` or `inbound` (the retry window and the expected answer); default from the payload. */
  readonly kind?: 'receipt' | 'inbound';
  /** Extra headers (an `Authorization` for a receiver behind Basic auth, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default `smsv4-testing`. */
  readonly userAgent?: string;
  /** Real milliseconds an attempt may take (default 10 000). */
  readonly timeoutMs?: number;
  /** Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Stops waiting and retrying. */
  readonly signal?: AbortSignal;
}

/** One attempt and what the receiver answered. */
export interface CallbackAttempt {
  /** 1 for the first attempt. */
  readonly number: number;
  /** Simulated milliseconds after the first attempt. */
  readonly at: number;
  /** The HTTP status, when the receiver answered. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** The answer's body (empty when none). */
  readonly body: string;
  /** Why there was no answer (network error, timeout). */
  readonly error?: string;
  /** Real milliseconds the attempt took. */
  readonly durationMs: number;
}

/** What came of a callback. */
export interface CallbackReport {
  /** The receiver took it (answered 2xx) at some attempt. */
  readonly delivered: boolean;
  /** `delivered`, `gave-up` (the window or the retries were spent) or `aborted`. */
  readonly outcome: 'delivered' | 'gave-up' | 'aborted';
  /** The last answer's status, when there was one. */
  readonly status?: number;
  /** The last answer's body. */
  readonly body: string;
  readonly attempts: readonly CallbackAttempt[];
  /**
   * Where the last answer is not what the service asks for (a receipt: 200 with an empty body; an
   * inbound message: 200 or 201 with an empty body), one line each. Empty when it is.
   */
  readonly warnings: readonly string[];
}

/** A body to post: a built payload, or text / octets of a document. */
export type CallbackBody = Pick<Payload, 'body' | 'format'> & Partial<Pick<Payload, 'resource'>> | string | Uint8Array;

const DEFAULT_TIME_SCALE = 100_000;

function schedule(retries: PostCallbackOptions['retries'], kind: 'receipt' | 'inbound'): Required<RetrySchedule> {
  const given: RetrySchedule = typeof retries === 'number' ? { retries } : (retries ?? { retries: 0 });
  const s = {
    retries: given.retries ?? Number.POSITIVE_INFINITY,
    initialDelayMs: given.initialDelayMs ?? DEFAULT_RETRY_POLICY.initialDelayMs,
    factor: given.factor ?? DEFAULT_RETRY_POLICY.factor,
    maxDelayMs: given.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    windowMs: given.windowMs ?? (kind === 'inbound' ? INBOUND_RETRY_WINDOW_MS : RECEIPT_RETRY_WINDOW_MS),
    timeScale: given.timeScale ?? DEFAULT_TIME_SCALE,
  };
  if (!(s.retries >= 0) || (Number.isFinite(s.retries) && !Number.isInteger(s.retries))) throw new TypeError(`retries must be a whole number of at least 0, got ${String(s.retries)}`);
  for (const key of ['initialDelayMs', 'maxDelayMs', 'windowMs'] as const) {
    if (!(Number.isFinite(s[key]) && s[key] >= 0)) throw new TypeError(`${key} must be a finite number of at least 0`);
  }
  if (!(Number.isFinite(s.factor) && s.factor >= 1)) throw new TypeError('factor must be a finite number of at least 1');
  if (!(Number.isFinite(s.timeScale) && s.timeScale > 0)) throw new TypeError('timeScale must be a positive finite number');
  return s;
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  if (e?.name === 'TimeoutError') return String(e.message);
  const cause = e?.cause;
  if (cause !== undefined && cause !== null) return [cause.code, cause.message].filter(Boolean).join(': ') || String(e?.message);
  return String(e?.message ?? error);
}

function warningsOf(attempt: CallbackAttempt | undefined, kind: 'receipt' | 'inbound'): string[] {
  if (attempt?.status === undefined) return [];
  const allowed = kind === 'receipt' ? [200] : [200, 201];
  const warnings: string[] = [];
  const what = kind === 'receipt' ? 'a receipt' : 'an inbound message';
  if (!allowed.includes(attempt.status)) warnings.push(`answered ${attempt.status}: the service expects ${allowed.join(' or ')} for ${what}${attempt.status >= 200 && attempt.status < 300 ? '' : ' and will retry'}`);
  if (attempt.status >= 200 && attempt.status < 300 && attempt.body !== '') warnings.push(`answered ${attempt.status} with a body of ${attempt.body.length} characters: the service expects an empty body`);
  return warnings;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Posts a callback as the service does and reports what the receiver answered. With `retries`, an
 * attempt that is not answered 2xx is retried after 10 s, 20 s, 40 s ... (at most 1 hour apart,
 * within 24 hours for a receipt and 3 days for an inbound message: simulated time, passed at
 * `timeScale`). Never throws for what the receiver does; `TypeError` for bad options.
 *
 * @example
 * const report = await postCallback(`${url}/callbacks`, buildDeliveryReceipt(), { retries: 3 });
 * expect(report.delivered).toBe(true);
 * expect(report.attempts.map((a) => a.status)).toEqual([500, 200]);
 */
export async function postCallback(url: string | URL, payload: CallbackBody, options: PostCallbackOptions = {}): Promise<CallbackReport> {
  const { headers = {}, userAgent = 'smsv4-testing', timeoutMs = 10_000, fetch: fetchImpl = globalThis.fetch, signal } = options;
  if (typeof fetchImpl !== 'function') throw new TypeError('fetch must be a function');
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number');
  const target = new URL(url);
  const raw = typeof payload === 'string' || payload instanceof Uint8Array;
  const text = raw ? payload : payload.body;
  const format = options.format ?? (raw ? sniffFormat(payload) : payload.format);
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  const bodyText = typeof text === 'string' ? text : new TextDecoder().decode(text);
  const kind = options.kind ?? ((!raw && payload.resource === 'mobileOriginate') || (raw && bodyText.includes('mobileOriginate')) ? 'inbound' : 'receipt');
  const plan = schedule(options.retries, kind);
  const attempts: CallbackAttempt[] = [];
  const aborted = (): boolean => signal?.aborted === true;
  let elapsed = 0;
  for (let number = 1; ; number++) {
    if (aborted()) return report('aborted');
    const started = performance.now();
    const attemptSignal = signal === undefined ? AbortSignal.timeout(timeoutMs) : AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    let attempt: CallbackAttempt;
    try {
      const response = await fetchImpl(target, {
        method: 'POST',
        headers: { ...callbackHeaders(format, { userAgent }), ...headers },
        // Text or octets, as given (octets that are not UTF-8 reach the receiver unchanged).
        body: text as string,
        redirect: 'manual',
        signal: attemptSignal,
      });
      const body = await response.text();
      const answerHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => void (answerHeaders[name] = value));
      attempt = { number, at: elapsed, status: response.status, headers: answerHeaders, body, durationMs: performance.now() - started };
    } catch (error) {
      attempt = { number, at: elapsed, body: '', error: describeError(error), durationMs: performance.now() - started };
    }
    attempts.push(attempt);
    if (attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300) return report('delivered');
    const delay = Math.min(plan.initialDelayMs * plan.factor ** (number - 1), plan.maxDelayMs);
    if (number > plan.retries || elapsed + delay > plan.windowMs) return report(aborted() ? 'aborted' : 'gave-up');
    elapsed += delay;
    await sleep(delay / plan.timeScale, signal);
  }

  function report(outcome: CallbackReport['outcome']): CallbackReport {
    const last = attempts.at(-1);
    return {
      delivered: outcome === 'delivered',
      outcome,
      ...(last?.status === undefined ? {} : { status: last.status }),
      body: last?.body ?? '',
      attempts,
      warnings: warningsOf(last, kind),
    };
  }
}

/** The headers the service sends with a callback of a format (for clients of your own, such as a load generator). */
export function callbackHeaders(format: WireFormat, { userAgent = 'smsv4-testing' }: { readonly userAgent?: string } = {}): Record<string, string> {
  return { 'content-type': contentTypeFor(format), [API_VERSION_HEADER.toLowerCase()]: CALLBACK_API_VERSION, 'user-agent': userAgent };
}

/**
 * Posts receipts and inbound messages to the customer's receiver, as the service does: `POST` with
 * the body in the format of the send (or the configured inbound format), `Content-Type` of that
 * format with `charset=UTF-8`, `X-API-Version: 4`, a `User-Agent`, and `Authorization: Basic` when
 * the URL carries credentials. A failed attempt (a status that does not settle the callback, see
 * {@link CALLBACK_SETTLING_STATUSES}; a network error, a dropped connection, a timeout) is retried with exponential
 * backoff until the retry window (24 hours for receipts, 3 days for inbound messages, simulated
 * time) is spent. Every attempt is recorded.
 */
import { API_VERSION_HEADER, CALLBACK_API_VERSION, contentTypeFor, INBOUND_RETRY_WINDOW_MS, RECEIPT_RETRY_WINDOW_MS, type WireFormat } from '@smsv4/core';
import { callbackTarget, redactUrl } from './callback-url.js';
import type { SandboxClock, TimerHandle } from './clock.js';
import type { CallbackAttemptView } from '../state/views.js';

/**
 * The answers that settle a callback, as the service reads them (wire facts): a receipt must be
 * answered 200, an inbound message 200 or 201. Any other status, 2xx included, is retried.
 */
export const CALLBACK_SETTLING_STATUSES: Readonly<Record<'receipt' | 'inbound', readonly number[]>> = Object.freeze({
  receipt: Object.freeze([200]),
  inbound: Object.freeze([200, 201]),
});

/** Backoff of callback retries (simulated milliseconds). */
export interface RetryPolicy {
  /** Delay before the first retry (default 10 000: ten seconds). */
  readonly initialDelayMs?: number;
  /** Growth of the delay per attempt (default 2). */
  readonly factor?: number;
  /** Longest delay between two attempts (default 3 600 000: one hour). */
  readonly maxDelayMs?: number;
  /** How long a receipt is retried after its first attempt (default 24 hours). */
  readonly receiptWindowMs?: number;
  /** How long an inbound message is retried after its first attempt (default 3 days). */
  readonly inboundWindowMs?: number;
}

/** The default {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: Required<RetryPolicy> = Object.freeze({
  initialDelayMs: 10_000,
  factor: 2,
  maxDelayMs: 3_600_000,
  receiptWindowMs: RECEIPT_RETRY_WINDOW_MS,
  inboundWindowMs: INBOUND_RETRY_WINDOW_MS,
});

/** One callback to deliver. */
export interface CallbackJob {
  readonly kind: 'receipt' | 'inbound';
  readonly ticketId: string;
  readonly segmentNumber?: number;
  readonly url: string;
  readonly format: WireFormat;
  readonly body: string;
  /**
   * The `Authorization` of an attempt whose URL carries no credentials in its userinfo (the
   * account's callback credentials), read at each attempt so that a change applies to the retries.
   */
  readonly authorization?: () => string | undefined;
  /** Told about every attempt once its outcome is known. */
  readonly onAttempt?: (attempt: CallbackAttemptView) => void;
}

/** Delivers callbacks with retries. */
export interface CallbackDispatcher {
  dispatch(job: CallbackJob): void;
  /** Cancels pending retries and aborts attempts in flight; the dispatcher stays usable. */
  reset(): void;
  /** Cancels everything for good. */
  close(): void;
  /** Number of callbacks not finished yet (in flight or waiting for a retry). */
  pending(): number;
}

/** What a receiver answered to a callback: its status and the first characters of its body. */
export interface CallbackAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Posts one callback and answers what the receiver said; rejects on a network failure or when
 * `signal` aborts. Redirects are not followed (a 3xx is the answer).
 */
export type CallbackPost = (url: URL, request: { readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly signal: AbortSignal }) => Promise<CallbackAnswer>;

/** Options of {@link createCallbackDispatcher}. */
export interface CallbackDispatcherOptions {
  readonly clock: SandboxClock;
  /** How each callback is posted (see {@link postWithFetch}). */
  readonly post: CallbackPost;
  readonly userAgent: string;
  /** Real milliseconds an attempt may take (default 10 000). */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  /** Whether callbacks may be posted to this URL (default: anywhere); a refused URL is a `failed` attempt. */
  readonly allowUrl?: (url: URL) => boolean;
  readonly record: (attempt: CallbackAttemptView) => void;
}

/** Characters of a receiver's answer kept with each attempt. */
export const RESPONSE_KEPT = 500;

/** The first characters of a response body (at most a few KiB are read). */
async function responseStart(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_KEPT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body that breaks off is shown as far as it came.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, RESPONSE_KEPT);
}

/** {@link CallbackPost} with a `fetch` function (any runtime's, or one given for tests). */
export function postWithFetch(fetchImpl: typeof fetch): CallbackPost {
  return async (url, { headers, body, signal }) => {
    const response = await fetchImpl(url, { method: 'POST', headers, body, redirect: 'manual', signal });
    return { status: response.status, body: await responseStart(response) };
  };
}

/** A short, readable reason for a failed post: a network error's code and message (as `fetch`'s cause, or a Node error itself). */
function describeError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } } | undefined;
  if (e?.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`;
  if (e?.name === 'AbortError') return 'aborted';
  const cause = e?.cause ?? (typeof e?.code === 'string' ? e : undefined);
  if (cause !== undefined && cause !== null) return [cause.code, cause.message].filter(Boolean).join(': ') || String(e?.message);
  return String(e?.message ?? error);
}

/** Creates a {@link CallbackDispatcher}. */
export function createCallbackDispatcher({
  clock,
  post,
  userAgent,
  timeoutMs = 10_000,
  retry = {},
  allowUrl = () => true,
  record,
}: CallbackDispatcherOptions): CallbackDispatcher {
  const policy = { ...DEFAULT_RETRY_POLICY, ...retry };
  let generation = 0;
  let closed = false;
  const inFlight = new Set<AbortController>();
  const timers = new Set<TimerHandle>();
  let active = 0;
  let sequence = 0;

  const attempt = async (job: CallbackJob, number: number, firstAt: number, gen: number): Promise<void> => {
    const at = clock.now();
    const id = `cb-${++sequence}`;
    const started = performance.now();
    const base = {
      id,
      kind: job.kind,
      ticketId: job.ticketId,
      ...(job.segmentNumber === undefined ? {} : { segmentNumber: job.segmentNumber }),
      url: redactUrl(job.url),
      attempt: number,
      at: new Date(at).toISOString(),
    };
    let httpStatus: number | undefined;
    let responseBody: string | undefined;
    let error: string | undefined;
    let retryable = true;
    const target = callbackTarget(job.url);
    if (!target.ok) {
      error = target.error;
      retryable = false;
    } else if (!allowUrl(target.url)) {
      error = `callbacks to ${target.url.host} are not allowed: loopback, the hosts of the accounts' URLs and callbackHosts only`;
      retryable = false;
    } else {
      const { url } = target;
      const authorization = target.authorization ?? job.authorization?.();
      // One controller per attempt: aborted by its timeout, or by reset and close.
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new DOMException(`timeout after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      inFlight.add(abort);
      try {
        const answer = await post(url, {
          headers: {
            'content-type': contentTypeFor(job.format),
            [API_VERSION_HEADER.toLowerCase()]: CALLBACK_API_VERSION,
            'user-agent': userAgent,
            ...(authorization === undefined ? {} : { authorization }),
          },
          body: job.body,
          signal: abort.signal,
        });
        httpStatus = answer.status;
        responseBody = answer.body;
      } catch (e) {
        error = describeError(abort.signal.aborted ? abort.signal.reason : e, timeoutMs);
      } finally {
        clearTimeout(timer);
        inFlight.delete(abort);
      }
    }
    if (gen !== generation || closed) return;
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    const delivered = httpStatus !== undefined && CALLBACK_SETTLING_STATUSES[job.kind].includes(httpStatus);
    let outcome: CallbackAttemptView['outcome'];
    let nextAttemptAt: number | undefined;
    if (delivered) outcome = 'delivered';
    else if (!retryable) outcome = 'failed';
    else {
      const delay = Math.min(policy.initialDelayMs * policy.factor ** (number - 1), policy.maxDelayMs);
      const window = job.kind === 'receipt' ? policy.receiptWindowMs : policy.inboundWindowMs;
      const now = clock.now();
      if (now + delay - firstAt > window) outcome = 'gave-up';
      else {
        outcome = 'pending-retry';
        nextAttemptAt = now + delay;
      }
      if (httpStatus !== undefined && error === undefined) error = `HTTP ${httpStatus}`;
    }
    const view: CallbackAttemptView = {
      ...base,
      outcome,
      ...(httpStatus === undefined ? {} : { httpStatus }),
      ...(error === undefined ? {} : { error }),
      ...(responseBody === undefined ? {} : { responseBody }),
      durationMs,
      ...(nextAttemptAt === undefined ? {} : { nextAttemptAt: new Date(nextAttemptAt).toISOString() }),
    };
    record(view);
    job.onAttempt?.(view);
    if (outcome === 'pending-retry' && nextAttemptAt !== undefined) {
      active++;
      const timer = clock.setTimeout(() => {
        timers.delete(timer);
        active--;
        if (gen !== generation || closed) return;
        run(job, number + 1, firstAt, gen);
      }, nextAttemptAt - clock.now());
      timers.add(timer);
    }
  };

  const run = (job: CallbackJob, number: number, firstAt: number, gen: number): void => {
    active++;
    void attempt(job, number, firstAt, gen).finally(() => active--);
  };

  const cancelAll = (): void => {
    generation++;
    for (const abort of inFlight) abort.abort(new DOMException('the sandbox was reset or closed', 'AbortError'));
    inFlight.clear();
    for (const timer of timers) clock.clearTimeout(timer);
    active -= timers.size;
    timers.clear();
  };

  return {
    dispatch(job) {
      if (closed) return;
      run(job, 1, clock.now(), generation);
    },
    reset: cancelAll,
    close() {
      closed = true;
      cancelAll();
    },
    pending: () => Math.max(0, active),
  };
}

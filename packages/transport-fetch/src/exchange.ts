/**
 * One HTTP attempt: the prepared request goes out through `fetch`, the answer comes back with its
 * body read (bounded), or the attempt ends as a timeout, an abort or a network failure. The timeout
 * and the caller's signal end the attempt even when the `fetch` given ignores its signal.
 */
import { readRequestBody, type HttpRequestData } from '@smsv4/core';
import { classifyNetworkFailure, type NetworkFailure } from './network-failure.js';

/** The `fetch` the client calls: the global one, or any function of the same shape. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** How one attempt is made. */
export interface ExchangeSettings {
  readonly fetch: FetchFunction;
  /** Timeout of the attempt, ms; `undefined` for none. */
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxResponseBytes: number;
  /** Extra members of every `RequestInit` (e.g. undici's `dispatcher`). */
  readonly requestInit: Readonly<Record<string, unknown>> | undefined;
}

/** How one attempt ended. */
export type ExchangeOutcome =
  | { readonly kind: 'response'; readonly response: Response; readonly body: Uint8Array }
  | { readonly kind: 'too-large'; readonly response: Response }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted'; readonly reason: unknown }
  | { readonly kind: 'network'; readonly cause: unknown; readonly failure: NetworkFailure };

const ignore = (): undefined => undefined;
const TIMEOUT: ExchangeOutcome = Object.freeze({ kind: 'timeout' });

/** Makes one attempt. Never rejects. */
export function exchange(request: HttpRequestData, settings: ExchangeSettings): Promise<ExchangeOutcome> {
  const { fetch: doFetch, timeoutMs, signal, maxResponseBytes, requestInit } = settings;
  if (signal?.aborted) return Promise.resolve({ kind: 'aborted', reason: signal.reason });
  return new Promise<ExchangeOutcome>((resolve) => {
    // Without a timeout or a signal there is nothing to cancel: no controller, no timer.
    const controller = timeoutMs === undefined && signal === undefined ? undefined : new AbortController();
    let over = false;
    // Settles the attempt once: whichever of the answer, the timeout and the caller's abort comes first.
    const finish = (outcome: ExchangeOutcome): void => {
      if (over) return;
      over = true;
      if (timer !== undefined) clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            controller?.abort(new Error(`no complete answer within ${timeoutMs} ms`));
            finish(TIMEOUT);
          }, timeoutMs);
    const onAbort =
      signal === undefined
        ? undefined
        : (): void => {
            controller?.abort(signal.reason);
            finish({ kind: 'aborted', reason: signal.reason });
          };
    if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });

    const init: RequestInit = requestInit === undefined ? {} : { ...requestInit };
    init.method = request.method;
    init.headers = request.headers;
    init.signal = controller?.signal;
    init.body = request.body;
    const failed = (error: unknown): void => finish({ kind: 'network', cause: error, failure: classifyNetworkFailure(error) });
    let responding: Promise<Response>;
    try {
      responding = doFetch(request.url, init);
    } catch (error) {
      failed(error);
      return;
    }
    responding.then((response) => {
      // A late answer (the fetch ignored its signal) is dropped unread.
      if (over) return void response.body?.cancel().catch(ignore);
      // Core's bounded reader: a declared length over the limit is refused unread, a body growing past it is cancelled.
      readRequestBody(response, { maxBytes: maxResponseBytes }).then((body) => {
        if (body.ok) finish({ kind: 'response', response, body: body.value });
        else if (body.error.code === 'too-large') finish({ kind: 'too-large', response });
        // The body broke off (or was already read by a custom fetch): a network failure, classified by its cause.
        else failed(body.error.cause ?? body.error);
      }, failed);
    }, failed);
  });
}

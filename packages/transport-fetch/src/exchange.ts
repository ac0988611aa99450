/**
 * One HTTP attempt: the prepared request goes out through `fetch`, the answer comes back with its
 * body read (bounded), or the attempt ends as a timeout, an abort or a network failure. The timeout
 * and the caller's signal end the attempt even when the `fetch` given ignores its signal.
 */
import type { HttpRequestData } from '@smsv4/core';
import { classifyNetworkFailure, type NetworkFailure } from './network-failure.js';
import { readBody } from './read-body.js';

/** The `fetch` the client calls: the global one, or any function of the same shape. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** How one attempt is made. */
export interface ExchangeSettings {
  readonly fetch: FetchFunction;
  readonly timeoutMs: number;
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

const TOO_LARGE = Symbol('too-large');
const ignore = (): undefined => undefined;

/** Makes one attempt. Never rejects. */
export async function exchange(request: HttpRequestData, settings: ExchangeSettings): Promise<ExchangeOutcome> {
  const { fetch: doFetch, timeoutMs, signal, maxResponseBytes, requestInit } = settings;
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
  const controller = new AbortController();
  let timedOut = false;
  let stop!: (reason: unknown) => void;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(ignore);
  const timer = setTimeout(() => {
    timedOut = true;
    const reason = new Error(`no complete answer within ${timeoutMs} ms`);
    controller.abort(reason);
    stop(reason);
  }, timeoutMs);
  const onAbort = (): void => {
    controller.abort(signal?.reason);
    stop(signal?.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let pending: Promise<Response> | undefined;
  try {
    const init: RequestInit = {
      ...requestInit,
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      ...(request.body === undefined ? {} : { body: request.body }),
    };
    pending = doFetch(request.url, init);
    const response = await Promise.race([pending, stopped]);
    const body = await Promise.race([readBody(response, maxResponseBytes).then((b) => b ?? TOO_LARGE), stopped]);
    if (body === TOO_LARGE) return { kind: 'too-large', response };
    return { kind: 'response', response, body };
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
    return { kind: 'network', cause: error, failure: classifyNetworkFailure(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // A fetch that lost the race (it ignored the signal) must not leak a rejection or an unread body.
    if (pending !== undefined && (timedOut || signal?.aborted)) {
      pending.then((late) => late.body?.cancel().catch(ignore), ignore);
    }
  }
}

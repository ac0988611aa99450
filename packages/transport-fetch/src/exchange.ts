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

const ignore = (): undefined => undefined;

/**
 * The answer to a request: the response and its body, read up to the limit. When the attempt has
 * already ended (`attempt.over`: a timeout or an abort won, and the fetch ignored its signal), the
 * late response's body is cancelled unread.
 */
async function answer(responding: Promise<Response>, maxResponseBytes: number, attempt: { over: boolean }): Promise<ExchangeOutcome> {
  const response = await responding;
  if (attempt.over) {
    await response.body?.cancel().catch(ignore);
    return { kind: 'timeout' };
  }
  const body = await readBody(response, maxResponseBytes);
  return body === undefined ? { kind: 'too-large', response } : { kind: 'response', response, body };
}

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
  const onAbort =
    signal === undefined
      ? undefined
      : (): void => {
          controller.abort(signal.reason);
          stop(signal.reason);
        };
  if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
  const attempt = { over: false };
  try {
    const init: RequestInit = requestInit === undefined ? {} : { ...requestInit };
    init.method = request.method;
    init.headers = request.headers;
    init.signal = controller.signal;
    if (request.body !== undefined) init.body = request.body;
    return await Promise.race([answer(doFetch(request.url, init), maxResponseBytes, attempt), stopped]);
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
    return { kind: 'network', cause: error, failure: classifyNetworkFailure(error) };
  } finally {
    attempt.over = true;
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

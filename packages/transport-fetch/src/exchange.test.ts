import type { HttpRequestData } from '@smsv4/core';
import { describe, expect, it } from 'vitest';
import { exchange, type ExchangeSettings, type FetchFunction } from './exchange.js';

const request: HttpRequestData = { operation: 'status', method: 'GET', url: 'http://service.test/sms/v4/mt/A-B/status', headers: { accept: 'application/xml' } };
const settings = (fetch: FetchFunction, extra: Partial<ExchangeSettings> = {}): ExchangeSettings => ({
  fetch,
  timeoutMs: 1000,
  signal: undefined,
  maxResponseBytes: 1024,
  requestInit: undefined,
  ...extra,
});

describe('exchange', () => {
  it('passes method, headers, body and signal, and extra init members under them', async () => {
    let seen: RequestInit | undefined;
    const outcome = await exchange(
      { ...request, method: 'POST', body: '{}' },
      settings(
        async (_, init) => {
          seen = init;
          return new Response('ok');
        },
        { requestInit: { dispatcher: 'agent', method: 'DELETE' } },
      ),
    );
    expect(outcome.kind).toBe('response');
    expect(seen).toMatchObject({ dispatcher: 'agent', method: 'POST', body: '{}', headers: request.headers });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });

  it('times out even when the fetch ignores its signal, and drops the late answer', async () => {
    let cancelled = false;
    const late = new Response(new ReadableStream({ cancel: () => void (cancelled = true) }));
    const ignoring: FetchFunction = () => new Promise((resolve) => setTimeout(() => resolve(late), 80));
    const outcome = await exchange(request, settings(ignoring, { timeoutMs: 20 }));
    expect(outcome.kind).toBe('timeout');
    await new Promise((r) => setTimeout(r, 120));
    expect(cancelled).toBe(true);
  });

  it('times out while the body is still arriving', async () => {
    const slowBody: FetchFunction = async () => new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }));
    expect((await exchange(request, settings(slowBody, { timeoutMs: 30 }))).kind).toBe('timeout');
  });

  it('tells an abort by the caller from a timeout, and a late rejection is not left unhandled', async () => {
    const controller = new AbortController();
    const rejectsLate: FetchFunction = () => new Promise((_, reject) => setTimeout(() => reject(new TypeError('fetch failed')), 50));
    setTimeout(() => controller.abort('stop'), 10);
    const outcome = await exchange(request, settings(rejectsLate, { signal: controller.signal }));
    expect(outcome).toEqual({ kind: 'aborted', reason: 'stop' });
    await new Promise((r) => setTimeout(r, 80));
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    const declared: FetchFunction = async () => new Response('x'.repeat(10), { headers: { 'content-length': '5000' } });
    expect((await exchange(request, settings(declared))).kind).toBe('too-large');
    const streamed: FetchFunction = async () => new Response('x'.repeat(2000));
    expect((await exchange(request, settings(streamed))).kind).toBe('too-large');
    const fits: FetchFunction = async () => new Response('x'.repeat(1024));
    const outcome = await exchange(request, settings(fits));
    expect(outcome.kind === 'response' && outcome.body.byteLength).toBe(1024);
  });

  it('cancels a body that passes the limit though its Content-Length declared less, after reading no more than the limit', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => void (pulled++, controller.enqueue(new Uint8Array(512))),
        cancel: () => void (cancelled = true),
      },
      { highWaterMark: 0 },
    );
    const lying: FetchFunction = async () => new Response(endless, { headers: { 'content-length': '10' } });
    expect((await exchange(request, settings(lying))).kind).toBe('too-large');
    expect({ pulled, cancelled }).toEqual({ pulled: 3, cancelled: true });
  });

  it('a body that breaks off is a network failure, its cause kept', async () => {
    const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    let sent = false;
    const breaking = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (sent) return controller.error(cause);
        sent = true;
        controller.enqueue(new Uint8Array(4));
      },
    });
    const outcome = await exchange(request, settings(async () => new Response(breaking)));
    expect(outcome).toMatchObject({ kind: 'network', cause, failure: { reachedService: 'unknown', code: 'UND_ERR_SOCKET' } });
  });

  it('a fetch that throws synchronously is a network failure', async () => {
    const throws: FetchFunction = () => {
      throw new TypeError('bad');
    };
    expect(await exchange(request, settings(throws))).toMatchObject({ kind: 'network', failure: { reachedService: 'unknown' } });
  });
});

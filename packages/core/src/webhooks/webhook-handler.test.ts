import { describe, expect, it, vi } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { basicAuthorization } from '../http/basic-auth.js';
import { createMemoryDuplicateStore, type DuplicateStore } from './duplicate-store.js';
import type { InboundMessage, ReassemblerTimers } from './inbound-reassembler.js';
import { createMemoryReassemblyStore, type ReassemblyStore } from './reassembly-store.js';
import { WebhookError } from './webhook-error.js';
import { createWebhookHandler, type WebhookHandlerOptions, type WebhookRequest } from './webhook-handler.js';

const XML = 'application/xml; charset=UTF-8';
const JSON_TYPE = 'application/json; charset=UTF-8';

function post(path: string, headers: Record<string, string> = {}): WebhookRequest {
  return {
    method: 'POST',
    headers: { 'x-api-version': '4', 'content-type': path.endsWith('.json') ? JSON_TYPE : XML, 'user-agent': 'test', ...headers },
    body: loadFixture(path),
    remoteAddress: '127.0.0.1',
  };
}

const RECEIPT = 'delivery-receipt/single-delivered.xml';

/** A receiver whose errors are collected instead of logged. */
function receiver<P>(options: WebhookHandlerOptions<P>) {
  const errors: WebhookError[] = [];
  const handler = createWebhookHandler({ allowUnauthenticated: true, onError: (e) => errors.push(e), ...options });
  return { handler, errors };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createWebhookHandler: taking events', () => {
  it('answers a receipt 200 with an empty body after the handler resolved', async () => {
    const gate = deferred();
    const onDeliveryReceipt = vi.fn(() => gate.promise);
    const { handler } = receiver({ onDeliveryReceipt });
    const answer = handler.handle(post(RECEIPT));
    let settled = false;
    void answer.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    gate.resolve();
    expect(await answer).toEqual({ status: 200, headers: {}, body: '', outcome: 'handled' });
    expect(onDeliveryReceipt).toHaveBeenCalledWith(
      expect.objectContaining({ mtStatus: expect.objectContaining({ ticketId: '44101-0922I-13413-21GDL', code: 4 }) }),
      expect.objectContaining({ key: 'receipt:44101-0922I-13413-21GDL:1', format: 'xml', remoteAddress: '127.0.0.1' }),
    );
  });

  it('takes timestamps with an offset (answered 200) and gives handlers the UTC instant', async () => {
    const onDeliveryReceipt = vi.fn();
    const onInboundMessage = vi.fn();
    const { handler } = receiver({ onDeliveryReceipt, onInboundMessage });
    for (const path of ['timestamps/inbound-offset.xml', 'timestamps/inbound-offset.json', 'timestamps/receipt-offset-nanos.xml', 'timestamps/receipt-offset.json']) {
      expect((await handler.handle(post(path))).status, path).toBe(200);
    }
    expect(onInboundMessage.mock.calls.map(([m, c]) => [(m as InboundMessage).submittedDate, (m as InboundMessage).submittedInstant, c.instant])).toStrictEqual([
      ['2015-08-29T15:10:03.029-05:00', '2015-08-29T20:10:03.029Z', '2015-08-29T20:10:03.029Z'],
      // The same ticket in JSON is a duplicate: answered 200, not handled twice.
    ]);
    expect(onDeliveryReceipt.mock.calls.map(([, c]) => c.instant)).toStrictEqual(['2024-03-14T09:26:53.123Z', '2024-03-14T09:26:54.000Z']);
    const noDate = vi.fn();
    await receiver({ onDeliveryReceipt: noDate }).handler.handle(post('delivery-receipt/multipart-part2-expired.xml'));
    expect(noDate.mock.calls[0]?.[1]).not.toHaveProperty('instant');
  });

  it('answers 400 naming the member for a date that does not exist', async () => {
    const { handler } = receiver({ onInboundMessage: vi.fn() });
    const answer = await handler.handle({ ...post('timestamps/inbound-offset.xml'), body: loadFixture('timestamps/inbound-offset.xml').replace('2015-08-29', '2015-02-29') });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Member mobileOriginate.submittedDate must be an xs:dateTime with a time zone: day 29 does not exist in February 2015');
  });

  it('answers 400 to a receipt of 9,300 attributes in 64 KiB without calling the handler', async () => {
    const onDeliveryReceipt = vi.fn();
    const { handler } = receiver({ onDeliveryReceipt });
    const name = (n: number): string => String.fromCharCode(97 + Math.floor(n / 676), 97 + (Math.floor(n / 26) % 26), 97 + (n % 26));
    const attributes = Array.from({ length: 9_300 }, (_, i) => `${name(i)}=""`).join(' ');
    const body = loadFixture(RECEIPT).replace('<mtStatus ', `<mtStatus ${attributes} `);
    expect(body.length).toBeLessThanOrEqual(65_536);
    const answer = await handler.handle({ ...post(RECEIPT), body });
    expect(answer).toMatchObject({ status: 400, rejection: 'malformed-payload' });
    expect(onDeliveryReceipt).not.toHaveBeenCalled();
  });

  it('takes JSON receipts and byte bodies', async () => {
    const onDeliveryReceipt = vi.fn();
    const { handler } = receiver({ onDeliveryReceipt });
    const request = post('delivery-receipt/single-delivered.json');
    const answer = await handler.handle({ ...request, body: new TextEncoder().encode(request.body as string) });
    expect(answer.status).toBe(200);
    expect(onDeliveryReceipt.mock.calls[0]?.[1]).toMatchObject({ format: 'json' });
  });

  it('answers a repeated receipt 200 without calling the handler, and tells onDuplicate', async () => {
    const onDeliveryReceipt = vi.fn();
    const onDuplicate = vi.fn();
    const { handler } = receiver({ onDeliveryReceipt, onDuplicate });
    await handler.handle(post(RECEIPT));
    const again = await handler.handle(post(RECEIPT));
    expect(again).toMatchObject({ status: 200, body: '', outcome: 'duplicate' });
    expect(onDeliveryReceipt).toHaveBeenCalledTimes(1);
    expect(onDuplicate).toHaveBeenCalledWith(expect.objectContaining({ kind: 'delivery-receipt', reason: 'seen', key: 'receipt:44101-0922I-13413-21GDL:1' }));
  });

  it('handles the same receipt in the other format as the same event', async () => {
    const onDeliveryReceipt = vi.fn();
    const { handler } = receiver({ onDeliveryReceipt });
    await handler.handle(post('delivery-receipt/single-delivered.json'));
    expect((await handler.handle(post(RECEIPT))).outcome).toBe('duplicate');
  });

  it('answers 500 when the handler fails, and handles the retry', async () => {
    const onDeliveryReceipt = vi.fn().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined);
    const { handler, errors } = receiver({ onDeliveryReceipt });
    const first = await handler.handle(post(RECEIPT));
    expect(first).toMatchObject({ status: 500, outcome: 'rejected', rejection: 'handler-failed' });
    expect(first.body).not.toMatch(/database/);
    expect(errors[0]).toMatchObject({ name: 'WebhookError', code: 'handler-failed', ticketId: '44101-0922I-13413-21GDL' });
    expect((errors[0]?.cause as Error).message).toBe('database down');
    expect((await handler.handle(post(RECEIPT))).outcome).toBe('handled');
    expect((await handler.handle(post(RECEIPT))).outcome).toBe('duplicate');
    expect(onDeliveryReceipt).toHaveBeenCalledTimes(2);
  });

  it('answers 500 when the handler throws synchronously', async () => {
    const { handler } = receiver({
      onDeliveryReceipt: () => {
        throw new Error('boom');
      },
    });
    expect((await handler.handle(post(RECEIPT))).status).toBe(500);
  });

  it('answers 503 on a timeout, aborts the signal, and remembers the event once the late handler succeeds', async () => {
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const onDeliveryReceipt = vi.fn((_r, ctx: { signal: AbortSignal }) => {
      signal = ctx.signal;
      return gate.promise;
    });
    const { handler, errors } = receiver({ onDeliveryReceipt, handlerTimeoutMs: 20 });
    expect(await handler.handle(post(RECEIPT))).toMatchObject({ status: 503, rejection: 'handler-timeout' });
    expect(signal?.aborted).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(['handler-timeout']);
    expect((await handler.handle(post(RECEIPT))).status).toBe(409); // still running
    gate.resolve();
    await new Promise((r) => setTimeout(r, 5));
    expect((await handler.handle(post(RECEIPT))).outcome).toBe('duplicate');
    expect(onDeliveryReceipt).toHaveBeenCalledTimes(1);
  });

  it('forgets the event when a handler that timed out fails later', async () => {
    const gate = deferred();
    const onDeliveryReceipt = vi.fn().mockReturnValueOnce(gate.promise).mockResolvedValue(undefined);
    const { handler, errors } = receiver({ onDeliveryReceipt, handlerTimeoutMs: 10 });
    expect((await handler.handle(post(RECEIPT))).status).toBe(503);
    gate.reject(new Error('late'));
    await new Promise((r) => setTimeout(r, 5));
    expect(errors.map((e) => e.code)).toEqual(['handler-timeout', 'late-handler-failed']);
    expect((await handler.handle(post(RECEIPT))).outcome).toBe('handled');
  });

  it('keeps the deadlines of the handlers running with one timer, not one per request', async () => {
    const gate = deferred();
    const { handler } = receiver({ onDeliveryReceipt: () => gate.promise, onInboundMessage: () => gate.promise, reassemble: false });
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const bodies = Array.from({ length: 40 }, (_, i) => {
        const body = loadFixture('mobile-originate/text.json').replace(/"ticketId"\s*:\s*"[^"]*"/, `"ticketId":"T-${i}"`);
        return { ...post('mobile-originate/text.json'), body };
      });
      const answers = bodies.map((request) => handler.handle(request));
      await new Promise<void>((r) => queueMicrotask(r));
      gate.resolve();
      expect((await Promise.all(answers)).map((a) => a.outcome)).toEqual(bodies.map(() => 'handled'));
      expect(setTimeoutSpy.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });

  it('answers 409 to a second delivery while the first is being handled', async () => {
    const gate = deferred();
    const { handler } = receiver({ onDeliveryReceipt: () => gate.promise });
    const first = handler.handle(post(RECEIPT));
    const second = await handler.handle(post(RECEIPT));
    expect(second).toMatchObject({ status: 409, rejection: 'in-flight' });
    gate.resolve();
    expect((await first).status).toBe(200);
  });
});

describe('createWebhookHandler: rejections', () => {
  const onDeliveryReceipt = (): void => undefined;

  it.each([
    ['GET', 405],
    ['PUT', 405],
  ])('answers %s with %i and Allow: POST', async (method, status) => {
    const { handler } = receiver({ onDeliveryReceipt });
    const answer = await handler.handle({ ...post(RECEIPT), method });
    expect(answer.status).toBe(status);
    expect(answer.headers.allow).toBe('POST');
  });

  it('answers 403 to a peer the allow-list refuses, 403 when the hook fails', async () => {
    const { handler, errors } = receiver({
      onDeliveryReceipt,
      allowRemoteAddress: (ip) => {
        if (ip === '10.0.0.1') throw new Error('lookup failed');
        return ip === '127.0.0.1';
      },
    });
    expect((await handler.handle(post(RECEIPT))).status).toBe(200);
    expect((await handler.handle({ ...post(RECEIPT), remoteAddress: '192.0.2.1' })).status).toBe(403);
    expect((await handler.handle({ ...post(RECEIPT), remoteAddress: '10.0.0.1' })).status).toBe(403);
    expect(errors.map((e) => e.code)).toEqual(['hook-failed']);
  });

  it('checks Basic credentials, with a challenge, accepting any of several pairs', async () => {
    const { handler } = receiver({
      onDeliveryReceipt,
      basicAuth: [
        { username: 'om', password: 'old' },
        { username: 'om', password: 'new' },
      ],
      realm: 'acme',
    });
    const refused = await handler.handle(post(RECEIPT));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="acme", charset="UTF-8"');
    const wrong = basicAuthorization({ accountId: 'om', password: 'NEW' });
    expect((await handler.handle(post(RECEIPT, { authorization: wrong }))).status).toBe(401);
    const right = basicAuthorization({ accountId: 'om', password: 'new' });
    expect((await handler.handle(post(RECEIPT, { authorization: right }))).status).toBe(200);
  });

  it('requires X-API-Version: 4 unless told otherwise', async () => {
    const { handler } = receiver({ onDeliveryReceipt });
    expect(await handler.handle(post(RECEIPT, { 'x-api-version': '3' }))).toMatchObject({ status: 400, body: 'X-API-Version must be 4\n' });
    const request = post(RECEIPT);
    const { 'x-api-version': _, ...headers } = request.headers as Record<string, string>;
    expect((await handler.handle({ ...request, headers })).status).toBe(400);
    const lenient = receiver({ onDeliveryReceipt, requireApiVersion: false }).handler;
    expect((await lenient.handle({ ...request, headers })).status).toBe(200);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml; charset=ISO-8859-1', ''])('answers Content-Type %j with 415', async (type) => {
    const { handler } = receiver({ onDeliveryReceipt });
    expect((await handler.handle(post(RECEIPT, { 'content-type': type }))).status).toBe(415);
  });

  it('answers a compressed body with 415', async () => {
    const { handler } = receiver({ onDeliveryReceipt });
    expect(await handler.handle(post(RECEIPT, { 'content-encoding': 'gzip' }))).toMatchObject({ status: 415, rejection: 'unsupported-content-encoding' });
  });

  it('answers 413 before reading when Content-Length is over the limit, and when the body is', async () => {
    const reader = vi.fn(async () => 'x');
    const { handler } = receiver({ onDeliveryReceipt, maxBodyBytes: 100 });
    const declared = await handler.handle({ ...post(RECEIPT, { 'content-length': '101' }), body: reader });
    expect(declared).toMatchObject({ status: 413, body: 'Payload exceeds 100 bytes\n', headers: { connection: 'close' } });
    expect(reader).not.toHaveBeenCalled();
    expect((await handler.handle({ ...post(RECEIPT), body: async (max) => (max === 100 ? null : '') })).status).toBe(413);
    expect((await handler.handle(post(RECEIPT))).status).toBe(413);
  });

  it('answers 400 when the body cannot be read', async () => {
    const { handler } = receiver({ onDeliveryReceipt });
    const answer = await handler.handle({ ...post(RECEIPT), body: () => Promise.reject(new Error('aborted')) });
    expect(answer).toMatchObject({ status: 400, rejection: 'request-aborted' });
  });

  it('answers 408 with Connection: close when the body is not read within bodyTimeoutMs, and the handler is not called', async () => {
    vi.useFakeTimers();
    try {
      const onDeliveryReceipt = vi.fn();
      const { handler } = receiver({ onDeliveryReceipt, bodyTimeoutMs: 1_000 });
      let late!: (body: string) => void;
      const answer = handler.handle({ ...post(RECEIPT), body: () => new Promise<string>((resolve) => (late = resolve)) });
      await vi.advanceTimersByTimeAsync(999);
      let settled = false;
      void answer.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await answer).toMatchObject({ status: 408, rejection: 'request-timeout', headers: { connection: 'close' }, body: 'The request body was not received within 1000 ms\n' });
      late(loadFixture(RECEIPT));
      await vi.advanceTimersByTimeAsync(0);
      expect(onDeliveryReceipt).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('bounds each body being read from its own start, and takes a body that arrives in time while another one timed out', async () => {
    vi.useFakeTimers();
    try {
      const taken: string[] = [];
      const { handler } = receiver({ onDeliveryReceipt: async (r) => void taken.push(r.mtStatus.ticketId), bodyTimeoutMs: 1_000 });
      const gates: ((body: string) => void)[] = [];
      const slow = (): Promise<string> => new Promise<string>((resolve) => gates.push(resolve));
      const first = handler.handle({ ...post(RECEIPT), body: slow });
      await vi.advanceTimersByTimeAsync(600);
      const second = handler.handle({ ...post('delivery-receipt/multipart-part2-expired.xml'), body: slow });
      await vi.advanceTimersByTimeAsync(400);
      expect(await first).toMatchObject({ status: 408, rejection: 'request-timeout' });
      let settled = false;
      void second.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(500);
      expect(settled).toBe(false);
      gates[1]!(loadFixture('delivery-receipt/multipart-part2-expired.xml'));
      gates[0]!(loadFixture(RECEIPT));
      expect(await second).toMatchObject({ status: 200, outcome: 'handled' });
      await vi.advanceTimersByTimeAsync(0);
      expect(taken).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 503 with Retry-After when a store does not answer within storeTimeoutMs, and gives back a reservation that lands later', async () => {
    vi.useFakeTimers();
    try {
      const onDeliveryReceipt = vi.fn();
      let land!: (outcome: 'reserved') => void;
      const released: string[] = [];
      const store: DuplicateStore = {
        reserve: () => new Promise((resolve) => (land = resolve)),
        commit: () => undefined,
        release: (key) => void released.push(key),
      };
      const { handler, errors } = receiver({ onDeliveryReceipt, store, storeTimeoutMs: 500 });
      const answer = handler.handle(post(RECEIPT));
      await vi.advanceTimersByTimeAsync(500);
      expect(await answer).toMatchObject({ status: 503, rejection: 'store-unavailable', headers: { 'retry-after': '10' } });
      expect(errors.map((e) => e.code)).toEqual(['store-failed']);
      land('reserved');
      await vi.advanceTimersByTimeAsync(0);
      expect(released).toEqual(['receipt:44101-0922I-13413-21GDL:1']);
      expect(onDeliveryReceipt).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('bounds store calls by 2 s when storeTimeoutMs is not given: a stalled reservation or reassembly store is answered 503 at 2 000 ms, not before', async () => {
    vi.useFakeTimers();
    try {
      const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
      const handled: string[] = [];
      const stalledReserve = receiver({ onDeliveryReceipt: (r) => void handled.push(r.mtStatus.ticketId), store: { reserve: never, commit: () => undefined, release: () => undefined } });
      const stalledParts = receiver({
        onInboundMessage: (m) => void handled.push(m.ticketId),
        reassemblyStore: { add: never, finish: never, restore: () => undefined, claimExpired: () => [] },
      });
      const answers = [stalledReserve.handler.handle(post(RECEIPT)), stalledParts.handler.handle(post('mobile-originate/udh8-part1.xml'))];
      const settled: unknown[] = [];
      for (const answer of answers) void answer.then((a) => settled.push(a));
      await vi.advanceTimersByTimeAsync(1_999);
      expect(settled).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      for (const answer of await Promise.all(answers)) expect(answer).toMatchObject({ status: 503, rejection: 'store-unavailable', headers: { 'retry-after': '10' } });
      expect(handled).toEqual([]);
      expect([...stalledReserve.errors, ...stalledParts.errors].map((e) => e.code)).toEqual(['store-failed', 'store-failed']);
      stalledReserve.handler.close();
      stalledParts.handler.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('names an incomplete message by its ticket, not by its phone numbers, in what the default onError logs', async () => {
    vi.useFakeTimers();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A claimed message that cannot be put together (no part), under a key holding both numbers.
      const broken = { key: '8-74-2:12065551234:24273', token: 't', concatenation: { reference: 0x4a, referenceBits: 8 as const, total: 2 }, parts: [] };
      let claims = 0;
      const reassemblyStore: ReassemblyStore = { add: () => ({ status: 'held' }), finish: () => true, restore: () => undefined, claimExpired: () => (claims++ === 0 ? [broken] : []) };
      const handler = createWebhookHandler({ allowUnauthenticated: true, onInboundMessage: () => undefined, reassemblyStore, orphanSweepMs: 1_000 });
      await handler.handle(post(RECEIPT));
      await vi.advanceTimersByTimeAsync(1_000);
      handler.close();
      expect(logged).toHaveBeenCalledTimes(1);
      const [error] = logged.mock.calls[0] as [WebhookError];
      expect(error.code).toBe('orphan-failed');
      expect(`${error.message} ${String(error.key)}`).not.toMatch(/12065551234|24273/);
    } finally {
      logged.mockRestore();
      vi.useRealTimers();
    }
  });

  it('answers 500 and reports when the adapter says the body was consumed by another parser', async () => {
    const { handler, errors } = receiver({ onDeliveryReceipt });
    const consumed = new WebhookError('receiver-misconfigured', 'express.urlencoded() consumed the body');
    const answer = await handler.handle({ ...post(RECEIPT), body: () => Promise.reject(consumed) });
    expect(answer).toMatchObject({ status: 500, rejection: 'receiver-misconfigured' });
    expect(errors.map((e) => e.code)).toEqual(['receiver-misconfigured']);
  });

  it.each([
    ['webhooks/receipt-missing-ticket.json', 400, /Malformed payload: Required member deliveryReceipt\.mtStatus\.ticketId is missing/],
    ['delivery-receipt/hostile-external-entity.xml', 400, /Invalid XML/],
    ['webhooks/status-not-a-callback.xml', 400, /neither a deliveryReceipt nor a mobileOriginate/],
  ])('answers %s with %i and a clear message', async (path, status, message) => {
    const { handler } = receiver({ onDeliveryReceipt, onInboundMessage: () => undefined });
    const answer = await handler.handle(post(path));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatch(message);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers 422 to a kind of callback no handler takes', async () => {
    const { handler } = receiver({ onDeliveryReceipt });
    const answer = await handler.handle(post('mobile-originate/text.json'));
    expect(answer).toMatchObject({ status: 422, body: 'This URL does not take inbound messages\n' });
  });

  it('answers 503 when the store cannot reserve, and 200 when it only fails to remember', async () => {
    const failing: DuplicateStore = { reserve: () => Promise.reject(new Error('redis down')), commit: () => undefined, release: () => undefined };
    const down = receiver({ onDeliveryReceipt, store: failing });
    expect((await down.handler.handle(post(RECEIPT))).status).toBe(503);
    expect(down.errors[0]?.code).toBe('store-failed');
    const forgetful: DuplicateStore = { reserve: () => 'reserved', commit: () => Promise.reject(new Error('redis down')), release: () => undefined };
    const half = receiver({ onDeliveryReceipt, store: forgetful });
    expect((await half.handler.handle(post(RECEIPT))).status).toBe(200);
    expect(half.errors[0]?.message).toMatch(/will be handled again/);
  });

  it('refuses options without a handler, and bad option values', () => {
    expect(() => createWebhookHandler({})).toThrow(TypeError);
    expect(() => createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt, maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt, handlerTimeoutMs: -1 })).toThrow(TypeError);
    expect(() => createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt, basicAuth: { username: 'a:b', password: 'c' } })).toThrow(TypeError);
    expect(() => createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt, store: {} as DuplicateStore })).toThrow(TypeError);
  });
});

describe('createWebhookHandler: inbound messages', () => {
  it('hands a single-part message over with its text', async () => {
    const onInboundMessage = vi.fn();
    const { handler } = receiver({ onInboundMessage });
    expect((await handler.handle(post('mobile-originate/text-attribute.xml'))).status).toBe(200);
    expect(onInboundMessage.mock.calls[0]?.[0]).toMatchObject({ text: 'STOP & unsubscribe 👋', complete: true, source: { address: '12065551234' } });
  });

  it('stores the first part, hands over the whole message with the last, and answers repeats 200', async () => {
    const onInboundMessage = vi.fn();
    const onDuplicate = vi.fn();
    const { handler } = receiver({ onInboundMessage, onDuplicate });
    expect(await handler.handle(post('mobile-originate/udh8-part2.xml'))).toMatchObject({ status: 200, outcome: 'part-stored' });
    expect(onInboundMessage).not.toHaveBeenCalled();
    expect(handler.pendingMessages).toBe(1);
    expect((await handler.handle(post('mobile-originate/udh8-part2.xml'))).outcome).toBe('duplicate');
    expect(await handler.handle(post('mobile-originate/udh8-part1.xml'))).toMatchObject({ status: 200, outcome: 'handled' });
    expect(onInboundMessage).toHaveBeenCalledTimes(1);
    expect(onInboundMessage.mock.calls[0]?.[0]).toMatchObject({ text: 'Hello world', complete: true });
    expect((await handler.handle(post('mobile-originate/udh8-part1.xml'))).outcome).toBe('duplicate');
    expect(onDuplicate).toHaveBeenCalledTimes(2);
    handler.close();
  });

  it('keeps the parts when the handler of the whole message fails, so the retry completes it', async () => {
    const onInboundMessage = vi.fn().mockRejectedValueOnce(new Error('queue full')).mockResolvedValue(undefined);
    const { handler } = receiver({ onInboundMessage });
    await handler.handle(post('webhooks/inbound-utf16-ref16-part1.json'));
    expect((await handler.handle(post('webhooks/inbound-utf16-ref16-part2.json'))).status).toBe(500);
    expect(handler.pendingMessages).toBe(1);
    expect((await handler.handle(post('webhooks/inbound-utf16-ref16-part2.json'))).status).toBe(200);
    expect((onInboundMessage.mock.calls[1]?.[0] as InboundMessage).text).toBe('Привет! Это первая часть и вторая часть сообщения.');
    handler.close();
  });

  it('hands every part over as it comes with reassemble: false', async () => {
    const onInboundMessage = vi.fn();
    const { handler } = receiver({ onInboundMessage, reassemble: false });
    await handler.handle(post('mobile-originate/udh8-part1.xml'));
    await handler.handle(post('mobile-originate/udh8-part2.xml'));
    expect(onInboundMessage).toHaveBeenCalledTimes(2);
    expect(onInboundMessage.mock.calls[0]?.[0]).toMatchObject({ content: '0500034A020148656C6C6F20', header: { concatenation: { sequence: 1 } } });
  });

  it('reports orphans to onOrphan, or to onInboundMessage with complete: false, once their timeout passed', async () => {
    let fire: (() => void) | undefined;
    const timers: ReassemblerTimers = { setTimeout: (fn) => (fire = fn), clearTimeout: () => undefined };
    let clock = 0;
    const now = () => clock;
    const onOrphan = vi.fn();
    const withHook = receiver({ onInboundMessage: () => undefined, onOrphan, timers, now, reassemblyTimeoutMs: 1000 });
    await withHook.handler.handle(post('mobile-originate/udh8-part1.xml'));
    clock = 999;
    fire?.();
    expect(onOrphan).not.toHaveBeenCalled();
    clock = 1000;
    fire?.();
    expect(onOrphan).toHaveBeenCalledWith(expect.objectContaining({ complete: false, missingParts: [2], text: 'Hello ' }));
    expect(withHook.handler.pendingMessages).toBe(0);
    clock = 100_000;
    fire?.();
    expect(onOrphan).toHaveBeenCalledTimes(1);

    const onInboundMessage = vi.fn().mockRejectedValueOnce(new Error('nope')).mockResolvedValue(undefined);
    clock = 0;
    const fallback = receiver({ onInboundMessage, timers, now, reassemblyTimeoutMs: 1000, leaseMs: 5000 });
    await fallback.handler.handle(post('mobile-originate/udh8-part1.xml'));
    clock = 1000;
    fire?.();
    expect(onInboundMessage).toHaveBeenCalledWith(expect.objectContaining({ complete: false }), expect.objectContaining({ key: 'orphan:31QX9-0314A-0000A-77PQR' }));
    await new Promise((r) => setTimeout(r, 1));
    expect(fallback.errors.map((e) => e.code)).toEqual(['orphan-failed']);
    // The claim of the failed report runs out after leaseMs: the orphan is handed over again, once.
    clock = 5999;
    fire?.();
    expect(onInboundMessage).toHaveBeenCalledTimes(1);
    clock = 6000;
    fire?.();
    expect(onInboundMessage).toHaveBeenCalledTimes(2);
    await new Promise((r) => setTimeout(r, 1));
    clock = 20_000;
    fire?.();
    expect(onInboundMessage).toHaveBeenCalledTimes(2);
    expect(fallback.handler.pendingMessages).toBe(0);
  });

  it('reports the parts still held on close', async () => {
    const onOrphan = vi.fn();
    const { handler } = receiver({ onInboundMessage: () => undefined, onOrphan });
    await handler.handle(post('mobile-originate/udh8-part1.xml'));
    handler.close();
    expect(onOrphan).toHaveBeenCalledTimes(1);
    expect(handler.pendingMessages).toBe(0);
  });

  it('joins the parts of a message that reach two receivers sharing their stores, and hands it over once', async () => {
    const store = createMemoryDuplicateStore();
    const reassemblyStore = createMemoryReassemblyStore();
    const onA = vi.fn();
    const onB = vi.fn();
    const a = receiver({ onInboundMessage: onA, store, reassemblyStore }).handler;
    const b = receiver({ onInboundMessage: onB, store, reassemblyStore }).handler;
    expect((await a.handle(post('webhooks/inbound-utf16-ref16-part2.json'))).outcome).toBe('part-stored');
    expect((await b.handle(post('webhooks/inbound-utf16-ref16-part1.json'))).outcome).toBe('handled');
    expect((await a.handle(post('webhooks/inbound-utf16-ref16-part1.json'))).outcome).toBe('duplicate');
    expect(onA).not.toHaveBeenCalled();
    expect(onB).toHaveBeenCalledTimes(1);
    expect((onB.mock.calls[0]?.[0] as InboundMessage).text).toBe('Привет! Это первая часть и вторая часть сообщения.');
    expect(reassemblyStore.pending).toBe(0);
  });

  it('hands the message over on the retry that reaches the other receiver after the handler failed', async () => {
    const store = createMemoryDuplicateStore();
    const reassemblyStore = createMemoryReassemblyStore();
    const onA = vi.fn().mockRejectedValue(new Error('queue full'));
    const onB = vi.fn();
    const a = receiver({ onInboundMessage: onA, store, reassemblyStore }).handler;
    const b = receiver({ onInboundMessage: onB, store, reassemblyStore }).handler;
    await a.handle(post('mobile-originate/udh8-part1.xml'));
    expect((await a.handle(post('mobile-originate/udh8-part2.xml'))).status).toBe(500);
    expect((await b.handle(post('mobile-originate/udh8-part2.xml'))).outcome).toBe('handled');
    expect(onB).toHaveBeenCalledWith(expect.objectContaining({ text: 'Hello world', complete: true }), expect.anything());
  });

  it('recognises a part handed over before even when the duplicate store forgot it', async () => {
    const reassemblyStore = createMemoryReassemblyStore();
    const onInboundMessage = vi.fn();
    const onDuplicate = vi.fn();
    const a = receiver({ onInboundMessage, reassemblyStore }).handler;
    const b = receiver({ onInboundMessage, onDuplicate, reassemblyStore }).handler; // its own, empty duplicate store
    await a.handle(post('mobile-originate/udh8-part1.xml'));
    await a.handle(post('mobile-originate/udh8-part2.xml'));
    expect((await b.handle(post('mobile-originate/udh8-part2.xml'))).outcome).toBe('duplicate');
    expect(onInboundMessage).toHaveBeenCalledTimes(1);
    expect(onDuplicate).toHaveBeenCalledWith(expect.objectContaining({ reason: 'seen', kind: 'inbound-message' }));
    expect(reassemblyStore.pending).toBe(0);
  });

  it('answers 503 when the reassembly store fails, so that the retry is held', async () => {
    const store = createMemoryDuplicateStore();
    const memory = createMemoryReassemblyStore();
    let down = true;
    const flaky: ReassemblyStore = {
      add: (part, options) => (down ? Promise.reject(new Error('redis down')) : memory.add(part, options)),
      finish: (group, options) => memory.finish(group, options),
      restore: (group) => memory.restore(group),
      claimExpired: (options) => memory.claimExpired(options),
    };
    const { handler, errors } = receiver({ onInboundMessage: () => undefined, store, reassemblyStore: flaky });
    expect((await handler.handle(post('mobile-originate/udh8-part1.xml'))).status).toBe(503);
    expect(errors.map((e) => e.code)).toEqual(['store-failed']);
    down = false;
    expect((await handler.handle(post('mobile-originate/udh8-part1.xml'))).outcome).toBe('part-stored');
    expect(memory.pending).toBe(1);
    handler.close();
    expect(memory.pending).toBe(1); // a store without drain keeps its parts for the other instances
  });

  it('reports lease-expired when a handler outlived its lease and another receiver took the message again', async () => {
    let clock = 0;
    const reassemblyStore = createMemoryReassemblyStore({ now: () => clock });
    const gate = deferred();
    const slow = vi.fn(() => gate.promise);
    const fast = vi.fn();
    const a = receiver({ onInboundMessage: slow, reassemblyStore, leaseMs: 1000, handlerTimeoutMs: 50 });
    const b = receiver({ onInboundMessage: fast, reassemblyStore, leaseMs: 1000 });
    await a.handler.handle(post('mobile-originate/udh8-part1.xml'));
    expect((await a.handler.handle(post('mobile-originate/udh8-part2.xml'))).status).toBe(503);
    expect((await b.handler.handle(post('mobile-originate/udh8-part2.xml'))).status).toBe(409); // under A's lease
    clock = 1000;
    expect((await b.handler.handle(post('mobile-originate/udh8-part2.xml'))).outcome).toBe('handled');
    gate.resolve();
    await new Promise((r) => setTimeout(r, 5));
    expect(a.errors.map((e) => e.code)).toEqual(['handler-timeout', 'lease-expired']);
    expect(slow).toHaveBeenCalledTimes(1);
    expect(fast).toHaveBeenCalledTimes(1);
  });

  it('refuses a reassembly store without its methods', () => {
    expect(() => createWebhookHandler({ allowUnauthenticated: true, onInboundMessage: () => undefined, reassemblyStore: { add: () => ({ status: 'handed-over' }) } as unknown as ReassemblyStore })).toThrow(TypeError);
  });

  it('uses the store it is given', async () => {
    const store = createMemoryDuplicateStore();
    const first = receiver({ onInboundMessage: () => undefined, store }).handler;
    const second = receiver({ onInboundMessage: () => undefined, store }).handler;
    await first.handle(post('mobile-originate/text.json'));
    expect((await second.handle(post('mobile-originate/text.json'))).outcome).toBe('duplicate');
  });
});

describe('createWebhookHandler: nothing at creation', () => {
  it('starts no timer until the first request (Workers refuse timers in global scope)', async () => {
    const started: number[] = [];
    const timers: ReassemblerTimers = { setTimeout: (_fn, ms) => started.push(ms), clearTimeout: () => undefined };
    const handler = createWebhookHandler({ allowUnauthenticated: true, onInboundMessage: () => undefined, timers, orphanSweepMs: 5_000 });
    expect(started).toEqual([]);
    await handler.handle({ method: 'GET', headers: {}, body: '' });
    expect(started).toEqual([5_000]);
    await handler.handle({ method: 'GET', headers: {}, body: '' });
    expect(started).toEqual([5_000]);
    handler.close();
  });
});

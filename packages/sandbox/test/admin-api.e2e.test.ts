/** The admin API of the contract over real HTTP: state, events, scenarios, reset, token, dashboard, bounds. */
import { encodeMtRequest } from '@smsv4/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type MessagePage, type SandboxServer, type SandboxSnapshot } from '../src/index.js';
import { auth, adminFetch } from './helpers.js';

const clock = createManualClock();
const sandbox = createSandbox({ clock });
const api = adminFetch(sandbox);
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});

const send = (url: string, destination = '14155550100') =>
  fetch(`${url}/sms/v4/mt`, {
    method: 'POST',
    headers: { authorization: auth(), 'content-type': 'application/json' },
    body: encodeMtRequest({ destination: { address: destination }, message: { type: 'text', content: '<img src=x onerror=alert(1)>' } }, 'json'),
  });

const state = async (url = server.url): Promise<SandboxSnapshot> => (await (await api(`${url}/__sandbox/api/state`)).json()) as SandboxSnapshot;

describe('admin API', () => {
  it('serves the dashboard page at /__sandbox/ with its Content Security Policy', async () => {
    const res = await fetch(`${server.url}/__sandbox/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await res.text()).toMatch(/^<!doctype html>/i);
  });

  it('returns the state: simulated clock, accounts without passwords, messages newest first', async () => {
    await send(server.url, '14155550100');
    await send(server.url, '14155550101');
    const snapshot = await state();
    expect(snapshot.now).toBe(new Date(clock.now()).toISOString());
    expect(snapshot.accounts.find((a) => a.accountId === 'demo')).toEqual({ accountId: 'demo', label: 'Demo account', kind: 'demo' });
    expect(JSON.stringify(snapshot.accounts)).not.toContain('password');
    expect(snapshot.messages.slice(0, 2).map((m) => m.destination)).toEqual(['14155550101', '14155550100']);
    const [latest] = snapshot.messages;
    expect(latest).toMatchObject({
      accountId: 'sandbox',
      format: 'json',
      type: 'text',
      content: '<img src=x onerror=alert(1)>',
      encoding: 'GSM',
      mlc: 'reject',
      summary: { code: 2 },
      parts: [{ segmentNumber: 1, totalSegments: 1, code: 2 }],
    });
    expect(latest?.timeline[0]?.event).toBe('accepted');
  });

  it('streams change events, coalescing a burst to one event per 100 ms', async () => {
    const controller = new AbortController();
    const res = await api(`${server.url}/__sandbox/api/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await readUntil(/: connected/);
    // Ten changes at once: the first is sent at once, the other nine as one event 100 ms later.
    // The clock starts before the burst: the first event leaves during it, the second 100 ms after the first.
    const started = Date.now();
    for (let i = 0; i < 10; i++) sandbox.injectInbound({ from: '14155550100', to: '12345', text: `burst ${i}` });
    await readUntil(/(event: change\ndata: \{"kind":"inbound"\}\n\n[\s\S]*){2}/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
    await new Promise((r) => setTimeout(r, 250));
    const pending = reader.read();
    const extra = await Promise.race([pending.then(() => 'more'), new Promise((r) => setTimeout(() => r('none'), 50))]);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    expect(text.match(/event: change/g)).toHaveLength(2);
    expect(extra).toBe('none');
  });

  it('stores, lists and removes scenarios', async () => {
    const put = await api(`${server.url}/__sandbox/api/scenarios/14155550109`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'rejected', code: 607 }),
    });
    expect(put.status).toBe(204);
    await api(`${server.url}/__sandbox/api/scenarios/*`, { method: 'PUT', body: JSON.stringify({ kind: 'delayed', delayMs: 5000 }) });
    expect(await (await api(`${server.url}/__sandbox/api/scenarios`)).json()).toEqual({
      '14155550109': { kind: 'rejected', code: 607 },
      '*': { kind: 'delayed', delayMs: 5000 },
    });
    const res = await send(server.url, '14155550109');
    const ticketId = (res.headers.get('location') ?? '').split('/').pop();
    await clock.advance(1000);
    expect((await state()).messages.find((m) => m.ticketId === ticketId)?.summary).toEqual({ code: 607, description: 'Message rejected by a spam filter' });
    expect((await api(`${server.url}/__sandbox/api/scenarios/*`, { method: 'DELETE' })).status).toBe(204);
    expect(Object.keys((await (await api(`${server.url}/__sandbox/api/scenarios`)).json()) as object)).toEqual(['14155550109']);
  });

  it.each([
    ['a bad kind', '14155550100', { kind: 'lost' }],
    ['fail-part without a segment', '14155550100', { kind: 'fail-part' }],
    ['a bad destination', 'abc', { kind: 'delivered' }],
  ])('refuses %s with 400 invalid-scenario', async (_, destination, scenario) => {
    const res = await api(`${server.url}/__sandbox/api/scenarios/${destination}`, { method: 'PUT', body: JSON.stringify(scenario) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid-scenario');
  });

  it('resets messages, callbacks, inbound, invocations, scenarios, faults and counters', async () => {
    await send(server.url);
    sandbox.injectInbound({ from: '14155550100', to: '12345', text: 'hi' });
    sandbox.addFault({ operation: 'lookup', kind: '1010' });
    expect((await api(`${server.url}/__sandbox/api/reset`, { method: 'POST' })).status).toBe(204);
    const snapshot = await state();
    expect([snapshot.messages.length, snapshot.inbound.length, snapshot.callbacks.length, snapshot.invocations.length]).toEqual([0, 0, 0, 0]);
    expect(await (await api(`${server.url}/__sandbox/api/scenarios`)).json()).toEqual({});
    const lookup = await fetch(`${server.url}/sms/v4/preview/14155550100`, { headers: { authorization: auth() } });
    expect(lookup.status).toBe(200);
  });

  it('sends a composed message as an account and tells the service\'s answer', async () => {
    const post = (body: unknown) =>
      api(`${server.url}/__sandbox/api/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const mt = { destination: { address: '14155550177' }, message: { type: 'text', content: 'Composed – in the dashboard', mlc: 'segment' } };
    const accepted = await post({ mobileTerminate: mt });
    expect(accepted.status).toBe(200);
    const answer = (await accepted.json()) as { status: number; ticketId: string };
    expect(answer.status).toBe(202);
    const message = (await state()).messages.find((m) => m.ticketId === answer.ticketId);
    expect(message).toMatchObject({ accountId: 'sandbox', destination: '14155550177', encoding: 'UCS-2', format: 'json' });
    expect(await (await post({ accountId: 'blocked', mobileTerminate: mt })).json()).toMatchObject({ status: 403, error: { code: '432' } });
    const invalid = (await (await post({ mobileTerminate: { ...mt, destination: { address: 'nope' } } })).json()) as { status: number; error: { code: string; description: string } };
    expect(invalid).toMatchObject({ status: 400, error: { code: '540' } });
    expect(invalid.error.description).toMatch(/destination address/);
    expect((await post({ accountId: 'nobody', mobileTerminate: mt })).status).toBe(400);
    expect((await post([1])).status).toBe(400);
    // GET lists the stored messages (see below); other methods are refused.
    expect((await api(`${server.url}/__sandbox/api/messages`, { method: 'DELETE' })).status).toBe(405);
  });

  it('answers 404 and 405 inside the admin API', async () => {
    expect((await api(`${server.url}/__sandbox/api/nothing`)).status).toBe(404);
    const res = await api(`${server.url}/__sandbox/api/reset`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('admin token', () => {
  it('requires Authorization: Bearer <token> on /__sandbox/api/* only', async () => {
    const guarded = createSandbox({ adminToken: 's3cret' });
    const guardedServer = await guarded.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`${guardedServer.url}/__sandbox/api/state`)).status).toBe(401);
      expect((await fetch(`${guardedServer.url}/__sandbox/api/state`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(`${guardedServer.url}/__sandbox/api/state`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
      expect((await fetch(`${guardedServer.url}/__sandbox/`)).status).toBe(200);
    } finally {
      await guardedServer.close();
      await guarded.close();
    }
  });
});

describe('bounds and subscriptions', () => {
  it('evicts the oldest messages beyond maxMessages', async () => {
    const small = createSandbox({ maxMessages: 3 });
    const tickets: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await small.fetch(
        new Request('http://sandbox.test/sms/v4/mt', {
          method: 'POST',
          headers: { authorization: auth(), 'content-type': 'application/json' },
          body: encodeMtRequest({ destination: { address: `1415555010${i}` }, message: { type: 'text', content: 'x' } }, 'json'),
        }),
      );
      tickets.push((res.headers.get('location') ?? '').split('/').pop() as string);
    }
    expect(small.snapshot().messages.map((m) => m.ticketId)).toEqual(tickets.slice(2).reverse());
    const gone = await small.fetch(new Request(`http://sandbox.test/sms/v4/mt/${tickets[0]}/status`, { headers: { authorization: auth() } }));
    expect(gone.status).toBe(404);
    await small.close();
  });

  it('evicts messages, inbound messages and callback attempts older than maxAgeMs (sandbox clock)', async () => {
    const aging = createManualClock();
    const short = createSandbox({ clock: aging, maxAgeMs: 60_000, fetch: async () => new Response(null, { status: 200 }) });
    const send = async (i: number): Promise<string> => {
      const res = await short.fetch(
        new Request('http://sandbox.test/sms/v4/mt', {
          method: 'POST',
          headers: { authorization: auth(), 'content-type': 'application/json' },
          body: encodeMtRequest({ destination: { address: `1415555010${i}` }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url: 'http://receiver.test/r' } }, 'json'),
        }),
      );
      return (res.headers.get('location') ?? '').split('/').pop() as string;
    };
    const old = [await send(0), await send(1)];
    short.injectInbound({ from: '14155550100', to: '12345', text: 'old' });
    await aging.advance(2_000); // the receipts of the first two are posted
    expect(short.snapshot().callbacks).toHaveLength(2);
    await aging.advance(30_000);
    const middle = await send(2);
    await aging.advance(31_000); // the first two are now 63 s old, the third 31 s
    const fresh = await send(3);
    const state = short.snapshot();
    expect(state.messages.map((m) => m.ticketId)).toEqual([fresh, middle]);
    expect(state.inbound).toHaveLength(0);
    expect(state.callbacks.map((c) => c.ticketId)).toEqual([middle]);
    const gone = await short.fetch(new Request(`http://sandbox.test/sms/v4/mt/${old[0]}/status`, { headers: { authorization: auth() } }));
    expect(gone.status).toBe(404);
    await short.close();
  });

  it('refuses a retention period that is not a positive number', () => {
    expect(() => createSandbox({ maxAgeMs: 0 })).toThrow(TypeError);
    expect(() => createSandbox({ maxAgeMs: Number.NaN })).toThrow(TypeError);
  });

  it('lists every stored message oldest first, a page at a time, beyond the state\'s newest 500', async () => {
    const local = createSandbox({ clock: createManualClock() });
    const localApi = adminFetch(local);
    const listening = await local.listen({ port: 0, host: '127.0.0.1' });
    try {
      const contents: string[] = [];
      for (let i = 0; i < 620; i++) {
        const content = `message ${i}`;
        contents.push(content);
        const res = await local.fetch(
          new Request('http://sandbox.test/sms/v4/mt', {
            method: 'POST',
            headers: { authorization: auth(), 'content-type': 'application/json' },
            body: encodeMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content } }, 'json'),
          }),
        );
        expect(res.status).toBe(202);
      }
      expect(local.snapshot().messages).toHaveLength(500);
      const pages: MessagePage[] = [];
      for (let offset = 0; ; offset += 250) {
        const res = await localApi(`${listening.url}/__sandbox/api/messages?offset=${offset}&limit=250`);
        expect(res.status).toBe(200);
        const page = (await res.json()) as MessagePage;
        pages.push(page);
        if (offset + 250 >= page.total) break;
      }
      expect(pages.map((p) => [p.offset, p.total, p.messages.length])).toEqual([[0, 620, 250], [250, 620, 250], [500, 620, 120]]);
      expect(pages.flatMap((p) => p.messages.map((m) => m.content))).toEqual(contents);
      expect(local.listMessages().messages).toHaveLength(620);
      expect(local.listMessages({ offset: 619 }).messages.map((m) => m.content)).toEqual(['message 619']);
      expect(local.listMessages({ offset: 700 })).toEqual({ total: 620, offset: 700, messages: [] });
      for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'offset=x', 'limit=1.5']) {
        const res = await localApi(`${listening.url}/__sandbox/api/messages?${query}`);
        expect(res.status, query).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid-page');
      }
      expect(() => local.listMessages({ limit: 0 })).toThrow(TypeError);
      const put = await localApi(`${listening.url}/__sandbox/api/messages`, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET, POST');
    } finally {
      await listening.close();
      await local.close();
    }
  });

  it('tells subscribers about changes until they unsubscribe', async () => {
    const local = createSandbox();
    const kinds: string[] = [];
    const unsubscribe = local.subscribe((change) => kinds.push(change.kind));
    local.injectInbound({ from: '14155550100', to: '12345', text: 'hi' });
    local.reset();
    unsubscribe();
    local.reset();
    expect(kinds).toEqual(['inbound', 'reset']);
    await local.close();
  });
});

/**
 * What keeps a web page from driving the sandbox, over real HTTP: the admin token made at start,
 * the Host allow-list against DNS rebinding, same-origin JSON writes, callbacks and inbound posts
 * limited to loopback and configured hosts, the dashboard's policy, and credentials of callback
 * URLs sent as Basic auth and never shown back.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type SandboxServer } from '../src/index.js';
import { auth, jsonSend, startReceiver, type Receiver } from './helpers.js';

const clock = createManualClock();
const logs: unknown[] = [];
const record = (fields: unknown, message: string): void => void logs.push([fields, message]);
const sandbox = createSandbox({
  clock,
  callbackHosts: ['receiver.example:8080'],
  allowedHosts: ['sandbox.internal', '.dev.test'],
  logger: { info: record, warn: record, error: record },
});
let server: SandboxServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await receiver.close();
});

/** A request with headers `fetch` would not let a test set (`Host`). */
function raw(path: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const bearer = (): Record<string, string> => ({ authorization: `Bearer ${sandbox.adminToken}` });
const origin = (): string => server.url;

describe('admin token', () => {
  it('is made at creation, different for each sandbox, and required by the admin API and metrics', async () => {
    expect(sandbox.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const other = createSandbox();
    expect(other.adminToken).not.toBe(sandbox.adminToken);
    await other.close();
    expect((await raw('/__sandbox/api/state')).status).toBe(401);
    expect((await raw('/__sandbox/metrics')).status).toBe(401);
    expect((await raw('/__sandbox/api/state', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await raw('/__sandbox/api/state', { headers: bearer() })).status).toBe(200);
  });

  it('is left out with adminToken: false', async () => {
    const open = createSandbox({ adminToken: false });
    expect(open.adminToken).toBeUndefined();
    const answer = await open.fetch(new Request('http://127.0.0.1/__sandbox/api/state'));
    expect(answer.status).toBe(200);
    await open.close();
    expect(() => createSandbox({ adminToken: '' })).toThrow(TypeError);
  });
});

describe('Host allow-list (DNS rebinding)', () => {
  it('refuses a name it does not know on every path, and takes loopback names, IP literals and listed names', async () => {
    for (const path of ['/__sandbox/api/state', '/__sandbox/', '/sms/v4/preview/14155550100']) {
      const refused = await raw(path, { headers: { ...bearer(), host: `attacker.example:${server.port}`, authorization: path.startsWith('/sms') ? auth() : `Bearer ${sandbox.adminToken}` } });
      expect(refused.status, path).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'host-not-allowed' } });
    }
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '10.1.2.3', '[::1]', 'sandbox.internal', 'api.dev.test', 'dev.test']) {
      expect((await raw('/__sandbox/api/state', { headers: { ...bearer(), host: `${host}:${server.port}` } })).status, host).toBe(200);
    }
    expect((await raw('/__sandbox/api/state', { headers: { ...bearer(), host: 'sandbox.internal.attacker.example' } })).status).toBe(403);
  });
});

describe('admin writes', () => {
  it('refuses a foreign Origin or another site, and takes the same origin', async () => {
    const json = { ...bearer(), 'content-type': 'application/json' };
    const foreign = await raw('/__sandbox/api/reset', { method: 'POST', headers: { ...json, origin: 'http://attacker.example' } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: 'foreign-origin' } });
    expect((await raw('/__sandbox/api/reset', { method: 'POST', headers: { ...json, origin: 'null' } })).status).toBe(403);
    expect((await raw('/__sandbox/api/faults', { method: 'DELETE', headers: { ...bearer(), 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await raw('/__sandbox/api/reset', { method: 'POST', headers: { ...json, origin: origin(), 'sec-fetch-site': 'same-origin' } })).status).toBe(204);
  });

  it('refuses a body that is not declared JSON (a form or text/plain post needs no preflight)', async () => {
    const body = JSON.stringify({ from: '447700900123', to: '12345', text: 'x', url: receiver.url });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await raw('/__sandbox/api/inbound', { method: 'POST', headers: { ...bearer(), 'content-type': type }, body });
      expect(answer.status, type).toBe(415);
    }
    expect((await raw('/__sandbox/api/inbound', { method: 'POST', headers: bearer(), body })).status).toBe(415);
  });
});

describe('where callbacks may go', () => {
  it('refuses an inbound post to a host that is neither loopback nor configured', async () => {
    const post = (url: string) =>
      raw('/__sandbox/api/inbound', { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify({ from: '447700900123', to: '12345', text: 'x', url }) });
    const refused = await post('http://169.254.169.254/latest/meta-data');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('posting to 169.254.169.254 is not allowed');
    expect(() => sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'x', url: 'http://internal.example/admin' })).toThrow(/not allowed/);
    const before = receiver.received.length;
    expect((await post(receiver.url)).status).toBe(202);
    await receiver.waitFor(before + 1);
    // A configured host is allowed (the attempt itself fails: nothing listens there).
    expect(sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'x', url: 'http://receiver.example:8080/in' }).ticketIds).toHaveLength(1);
  });

  it('records a receipt to another host as failed, without posting it', async () => {
    const sent = await sandbox.fetch(
      new Request('http://127.0.0.1/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json' },
        body: jsonSend({ destination: { address: '14155550100' }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url: 'http://10.0.0.8/hook' } }),
      }),
    );
    expect(sent.status).toBe(202);
    const ticketId = sent.headers.get('location')?.split('/').pop();
    await clock.advance(1000);
    const attempt = sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketId);
    expect(attempt).toMatchObject({ outcome: 'failed', error: "callbacks to 10.0.0.8 are not allowed: loopback, the hosts of the accounts' URLs and callbackHosts only" });
  });
});

describe('Basic credentials of callback URLs', () => {
  it('are sent as Authorization: Basic on every attempt, never in the URL, and shown nowhere', async () => {
    const password = 'p@ss:w/rd é';
    const target = new URL(`${receiver.url}/hook`);
    target.username = 'acme';
    target.password = password;
    const before = receiver.received.length;
    receiver.script(401);
    const sent = await sandbox.fetch(
      new Request('http://127.0.0.1/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json' },
        body: jsonSend({ destination: { address: '14155550101' }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url: target.href } }),
      }),
    );
    const ticketId = sent.headers.get('location')?.split('/').pop() ?? '';
    await clock.advance(1000);
    await expect.poll(() => sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketId)?.outcome).toBe('pending-retry');
    await clock.advance(10_000);
    const posts = await receiver.waitFor(before + 2);
    const expected = `Basic ${Buffer.from(`acme:${password}`).toString('base64')}`;
    for (const post of posts.slice(before)) {
      expect(post.headers.authorization).toBe(expected);
      expect(post.url).toBe('/callbacks/hook');
    }
    await expect.poll(() => sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId).length).toBe(2);
    const attempts = sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);
    expect(attempts.map((a) => [a.httpStatus, a.outcome])).toEqual([[200, 'delivered'], [401, 'pending-retry']]);
    expect(attempts[0]?.url).toBe(`${receiver.url.replace('http://', 'http://acme:***@')}/hook`);
    const shown = [
      JSON.stringify(sandbox.snapshot()),
      JSON.stringify(sandbox.listMessages()),
      (await raw('/__sandbox/api/state', { headers: bearer() })).body,
      (await raw('/__sandbox/metrics', { headers: bearer() })).body,
      JSON.stringify(logs),
    ];
    const encoded = target.password;
    for (const text of shown) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(encoded);
    }
    expect(shown[0]).toContain('acme:***@');
  });

  it('settle a receipt only with 200 (a 204 is retried), an inbound message with 200 or 201', async () => {
    receiver.script(204, 200);
    const sent = await sandbox.fetch(
      new Request('http://127.0.0.1/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: auth(), 'content-type': 'application/json' },
        body: jsonSend({ destination: { address: '14155550102' }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url: receiver.url } }),
      }),
    );
    const ticketId = (sent.headers.get('location') ?? '').split('/').pop();
    // This receipt's callback, whatever other callbacks earlier cases left retrying.
    const receipt = () => sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketId);
    await clock.advance(1000);
    await expect.poll(() => receipt()?.outcome).toBe('pending-retry');
    expect(receipt()).toMatchObject({ httpStatus: 204, outcome: 'pending-retry' });
    await clock.advance(10_000);
    await expect.poll(() => receipt()?.outcome).toBe('delivered');
    receiver.script(201);
    const { ticketIds } = sandbox.injectInbound({ from: '447700900123', to: '12345', text: 'y', url: receiver.url });
    await expect.poll(() => sandbox.snapshot().callbacks.find((c) => c.ticketId === ticketIds[0])?.outcome).toBe('delivered');
  });
});

describe('dashboard page', () => {
  it('is served with a policy without unsafe-inline that forbids framing', async () => {
    const page = await raw('/__sandbox/');
    expect(page.status).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'sha256-/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});

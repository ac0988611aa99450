/**
 * Basic credentials per account, as the service keeps them for an account that asked for them:
 * set at creation, through the admin API or `setCallbackCredentials`, sent as `Authorization: Basic`
 * on every attempt of the account's receipts and inbound messages whose URL carries none (retries
 * take a change), the URL's own userinfo first; the password shown nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, DEFAULT_ACCOUNTS, type SandboxServer } from '../src/index.js';
import { adminFetch, auth, jsonSend, startReceiver, type Receiver } from './helpers.js';

const PASSWORD = 'acc0unt p@ss:word';
const clock = createManualClock();
const logs: unknown[] = [];
const record = (fields: unknown, message: string): void => void logs.push([fields, message]);
const sandbox = createSandbox({
  clock,
  accounts: [...DEFAULT_ACCOUNTS, { accountId: 'provisioned', password: 'provisioned-password', callbackCredentials: { username: 'openmarket', password: 'from-the-start' } }],
  logger: { info: record, warn: record, error: record },
});
let server: SandboxServer;
let receiver: Receiver;
const admin = adminFetch(sandbox);
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
  await receiver.close();
});

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const attemptsOf = (ticketId: string) => sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);

async function sendAs(accountId: string, url: string, destination = '14155550100'): Promise<string> {
  const sent = await sandbox.fetch(
    new Request('http://127.0.0.1/sms/v4/mt', {
      method: 'POST',
      headers: { authorization: auth(accountId), 'content-type': 'application/json' },
      body: jsonSend({ destination: { address: destination }, message: { type: 'text', content: 'x' }, delivery: { receiptRequested: 'final', url } }),
    }),
  );
  expect(sent.status).toBe(202);
  return sent.headers.get('location')?.split('/').pop() ?? '';
}

describe('callback credentials per account', () => {
  it('are set, listed without the password and removed through the admin API, with clear refusals', async () => {
    const put = (account: string, body: unknown) => admin(`${server.url}/__sandbox/api/accounts/${account}/callback-credentials`, { method: 'PUT', body: JSON.stringify(body) });
    const set = await put('sandbox', { username: 'openmarket', password: PASSWORD });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ accountId: 'sandbox', callbackCredentials: { username: 'openmarket', password: '***' } });
    const listed = await admin(`${server.url}/__sandbox/api/accounts`);
    const accounts = (await listed.json()) as { accountId: string; callbackCredentials?: unknown }[];
    expect(accounts.find((a) => a.accountId === 'sandbox')?.callbackCredentials).toEqual({ username: 'openmarket', password: '***' });
    expect(accounts.find((a) => a.accountId === 'provisioned')?.callbackCredentials).toEqual({ username: 'openmarket', password: '***' });
    expect(accounts.find((a) => a.accountId === 'demo')?.callbackCredentials).toBeUndefined();

    const refusals = [
      [await put('nobody', { username: 'a', password: 'b' }), 404, 'no-account'],
      [await put('sandbox', { username: 'a:b', password: 'c' }), 400, 'invalid-credentials'],
      [await put('sandbox', { username: 'a', password: '' }), 400, 'invalid-credentials'],
      [await put('sandbox', { username: 'a', password: 'b', realm: 'x' }), 400, 'invalid-credentials'],
      [await put('sandbox', null), 400, 'invalid-credentials'],
    ] as const;
    for (const [response, status, code] of refusals) {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    // Refused changes left the credentials as they were.
    expect(sandbox.snapshot().accounts.find((a) => a.accountId === 'sandbox')?.callbackCredentials?.username).toBe('openmarket');

    const removed = await admin(`${server.url}/__sandbox/api/accounts/demo/callback-credentials`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(() => sandbox.setCallbackCredentials('nobody', null)).toThrow(TypeError);
    expect(() => sandbox.setCallbackCredentials('sandbox', { username: '', password: 'x' })).toThrow(TypeError);
    expect(() => createSandbox({ accounts: [{ accountId: 'a', password: 'b', callbackCredentials: { username: 'u:v', password: 'w' } }] })).toThrow(/callbackCredentials of a/);
  });

  it("go with every attempt of the account's receipts and inbound messages whose URL has none; a change reaches the retries; the URL's own come first", async () => {
    sandbox.setCallbackCredentials('sandbox', { username: 'openmarket', password: 'wrong' });
    receiver.script(401);
    const before = receiver.received.length;
    const ticketId = await sendAs('sandbox', receiver.url);
    await clock.advance(1000);
    await expect.poll(() => attemptsOf(ticketId)[0]?.outcome).toBe('pending-retry');
    // Put right (as from the dashboard): the retry carries the new password and is taken.
    sandbox.setCallbackCredentials('sandbox', { username: 'openmarket', password: PASSWORD });
    await clock.advance(10_000);
    await expect.poll(() => attemptsOf(ticketId)[0]?.outcome).toBe('delivered');
    expect(attemptsOf(ticketId).map((a) => [a.httpStatus, a.outcome])).toEqual([[200, 'delivered'], [401, 'pending-retry']]);
    const posts = receiver.received.slice(before);
    expect(posts.map((p) => p.headers.authorization)).toEqual([basic('openmarket', 'wrong'), basic('openmarket', PASSWORD)]);

    // Inbound messages to the account, and credentials given at creation.
    const inbound = sandbox.injectInbound({ accountId: 'sandbox', from: '447700900123', to: '12345', text: 'STOP', url: receiver.url });
    const provisioned = await sendAs('provisioned', receiver.url, '14155550101');
    // The URL's userinfo is more specific than the account's credentials.
    const own = new URL(receiver.url);
    own.username = 'per-url';
    own.password = 'url-secret';
    const explicit = await sendAs('sandbox', own.href, '14155550102');
    // Another account without credentials sends none.
    const none = await sendAs('north-america', receiver.url, '14155550103');
    await clock.advance(1000);
    await receiver.waitFor(before + 2 + 4);
    const byTicket = (id: string) => receiver.received.slice(before + 2).find((p) => p.body.includes(id))?.headers.authorization;
    expect(byTicket(inbound.ticketIds[0] as string)).toBe(basic('openmarket', PASSWORD));
    expect(byTicket(provisioned)).toBe(basic('openmarket', 'from-the-start'));
    expect(byTicket(explicit)).toBe(basic('per-url', 'url-secret'));
    expect(byTicket(none)).toBeUndefined();

    // Shown nowhere: state, message pages, the admin API, metrics, logs.
    const shown = [
      JSON.stringify(sandbox.snapshot()),
      JSON.stringify(sandbox.listMessages()),
      await (await admin(`${server.url}/__sandbox/api/state`)).text(),
      await (await admin(`${server.url}/__sandbox/api/accounts`)).text(),
      await (await admin(`${server.url}/__sandbox/metrics`)).text(),
      JSON.stringify(logs),
    ];
    for (const text of shown) {
      for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), 'from-the-start', 'url-secret', Buffer.from(`openmarket:${PASSWORD}`).toString('base64')]) expect(text).not.toContain(secret);
    }
    // A reset clears what happened, not what the accounts are.
    sandbox.reset();
    expect(sandbox.snapshot().accounts.find((a) => a.accountId === 'sandbox')?.callbackCredentials).toEqual({ username: 'openmarket', password: '***' });
  });
});

// The dashboard in a real browser against the real app server: live updates, the forms, the
// controls, escaping, accessibility basics and a screenshot to look at.
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildInvokeServiceRequest, buildSendRequest, DELIVERY_STATES, INVOKE_ERRORS, SMS_ERRORS, type MtRequest } from '@smsv4/core';
import { DEFAULT_ACCOUNTS, type SandboxServer } from '@smsv4/sandbox';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxApp, type RunningApp } from '../src/start-app.js';
import { launchChromium } from './browser.js';

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const XSS = '<img src=x onerror=alert(1)>';
const ACCOUNT = DEFAULT_ACCOUNTS[0]!;
const delivered = DELIVERY_STATES[4]!;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The credentials the receiver takes under `/account` (set per account from the dashboard). */
const ACCOUNT_CALLBACK_AUTHORIZATION = `Basic ${Buffer.from('openmarket:right-secret').toString('base64')}`;

/**
 * A customer receiver on loopback: answers every callback 200 with an empty body, but the first two
 * under `/guarded` 401 (a wrong password, then put right), and those under `/account` 401 unless
 * they carry {@link ACCOUNT_CALLBACK_AUTHORIZATION}.
 */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const refused =
        ((req.url ?? '').startsWith('/guarded') && received.filter((r) => r.path.startsWith('/guarded')).length <= 2) ||
        ((req.url ?? '').startsWith('/account') && req.headers.authorization !== ACCOUNT_CALLBACK_AUTHORIZATION);
      res.writeHead(refused ? 401 : 200, { 'content-length': '0' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

describe('dashboard in Chromium', () => {
  let app: RunningApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let page: Page;
  let restarted: SandboxServer | undefined;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  // What the page's Content Security Policy blocked (an inline handler, a style attribute, a foreign request).
  const policyViolations: string[] = [];

  /** Sends a message through the API as a client would; returns its ticket ID. */
  async function send(request: Omit<MtRequest, 'message'> & { message?: MtRequest['message'] }, content = 'Hello'): Promise<{ status: number; ticketId?: string; body: string }> {
    const built = buildSendRequest(
      { endpoints: { baseUrl: app.apiUrl }, credentials: { accountId: ACCOUNT.accountId, password: ACCOUNT.password } },
      { message: { type: 'text', content }, ...request },
      'json',
    );
    const response = await fetch(built.url, { method: built.method, headers: built.headers, body: built.body ?? null });
    const ticketId = response.headers.get('location')?.split('/').pop();
    return { status: response.status, body: await response.text(), ...(ticketId ? { ticketId } : {}) };
  }

  const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
  const messageRow = (ticketId: string) => page.locator(`[data-testid="message-row"][data-ticket-id="${ticketId}"]`);

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startSandboxApp({ port: 0, host: '127.0.0.1', timeScale: 20 });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) policyViolations.push(message.text());
    });
    await page.exposeFunction('reportPolicyViolation', (text: string) => void policyViolations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        (window as unknown as { reportPolicyViolation(text: string): void }).reportPolicyViolation(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await page.goto(app.dashboardUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await restarted?.close();
    await app?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('shows a message sent through the API live, as text, with its delivery', async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    const sent = await send({ destination: { address: '14155550100' }, delivery: { receiptRequested: 'final', url: `${receiver.url}/receipts` } }, XSS);
    expect(sent.status).toBe(202);
    const row = messageRow(sent.ticketId!);
    await row.waitFor();
    // The markup arrives as text: no image element, no script run.
    await expect.poll(() => row.locator('[data-testid="message-content"]').textContent()).toBe(XSS);
    expect(await page.locator('img').count()).toBe(0);
    // Delivery (code 4 after the default simulated second) arrives through the live stream too.
    await expect.poll(() => row.locator('[data-testid="message-status"]').textContent(), { timeout: 10_000 }).toBe(`${delivered.code} ${delivered.description}`);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(dialogs).toEqual([]);
  });

  it('expands a multipart message to its parts and timeline', async () => {
    const sent = await send({ destination: { address: '14155550101' }, message: { type: 'text', content: `${'Long message. '.repeat(16)}end`, mlc: 'segment' } });
    expect(sent.status).toBe(202);
    const row = messageRow(sent.ticketId!);
    await row.waitFor();
    await expect.poll(() => row.locator('[data-testid="message-status"]').textContent(), { timeout: 10_000 }).toBe(`${delivered.code} ${delivered.description}`);
    const toggle = row.locator('[data-testid="message-toggle"]');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const detail = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await detail.waitFor();
    await expect.poll(() => detail.locator('[data-testid="part-row"]').count()).toBe(2);
    expect(await detail.locator('[data-testid="part-row"] th').allTextContents()).toEqual(['1/2', '2/2']);
    expect(await detail.locator('.timeline li').count()).toBeGreaterThanOrEqual(3);
    // The row stays open across live updates.
    await send({ destination: { address: '14155550100' } });
    await expect.poll(() => page.locator('[data-testid="message-row"]').count()).toBe(3);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  });

  it("lists receipt attempts with the receiver's answer", async () => {
    await byTestId('tab-callbacks').click();
    const rows = page.locator('[data-testid="callback-row"]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(1);
    expect(await rows.first().locator('[data-testid="callback-outcome"]').textContent()).toBe('delivered');
    expect(await rows.first().textContent()).toContain(`${receiver.url}/receipts`);
    expect(receiver.received.some((r) => r.path === '/receipts' && r.headers['x-api-version'] === '4')).toBe(true);
  });

  it('shows the counters in its header, as /__sandbox/metrics serves them', async () => {
    const metrics = await (await fetch(`${app.apiUrl}/__sandbox/metrics`, { headers: { authorization: `Bearer ${app.sandbox.adminToken}` } })).text();
    const accepted = Number(/smsv4_sandbox_requests_total\{operation="send",status="202"\} (\d+)/.exec(metrics)?.[1]);
    expect(accepted).toBeGreaterThanOrEqual(3);
    await expect.poll(() => byTestId('metric-sends').textContent()).toBe(`${accepted} accepted · 0 rejected`);
    expect(await byTestId('metric-callbacks').textContent()).toMatch(/^[1-9][0-9]* delivered · 0 failed$/);
    expect(await byTestId('metrics-link').getAttribute('href')).toBe('/__sandbox/metrics');
    // The link fetches the metrics with the page's admin token (a plain navigation would get 401).
    await byTestId('metrics-link').click();
    await expect.poll(() => byTestId('metrics-text').textContent()).toMatch(/smsv4_sandbox_requests_total\{operation="send",status="202"\} \d+/);
    expect(await byTestId('metrics-panel').isVisible()).toBe(true);
    await byTestId('metrics-link').click();
    expect(await byTestId('metrics-panel').isHidden()).toBe(true);
  });

  it('injects inbound messages from the form, split into parts when long', async () => {
    await byTestId('inbound-from').fill('447700900123');
    await byTestId('inbound-to').fill('12345');
    await byTestId('inbound-content-input').fill(`Reply ${XSS}`);
    await byTestId('inbound-url').fill(`${receiver.url}/inbound`);
    await byTestId('inbound-submit').click();
    await expect.poll(() => byTestId('inbound-result').textContent()).toMatch(/^Injected 1 part: [A-Z0-9-]+$/);
    await byTestId('tab-inbound').click();
    const row = page.locator('[data-testid="inbound-row"]').first();
    await row.waitFor();
    await expect.poll(() => row.locator('[data-testid="inbound-content"]').textContent()).toContain(`Reply ${XSS}`);
    await expect.poll(() => row.locator('[data-testid="inbound-status"]').textContent()).toBe('delivered');
    expect(receiver.received.filter((r) => r.path === '/inbound')).toHaveLength(1);

    await byTestId('inbound-content-input').fill('x'.repeat(200));
    await byTestId('inbound-submit').click();
    await expect.poll(() => byTestId('inbound-result').textContent()).toMatch(/^Injected 2 parts: /);
    await expect.poll(() => page.locator('[data-testid="inbound-row"]').count()).toBe(3);

    // The sandbox's own refusal is shown as it says it.
    await byTestId('inbound-from').fill('not a number');
    await byTestId('inbound-submit').click();
    await expect.poll(() => byTestId('inbound-result').getAttribute('class')).toContain('tone-fail');
    expect(await page.locator('[data-testid="inbound-row"]').count()).toBe(3);
  });

  it('shows a receipt refused for a wrong Basic password as 401 and retried, the password never shown', async () => {
    const target = new URL(`${receiver.url}/guarded`);
    target.username = 'acme';
    target.password = 'wrong-secret';
    const sent = await send({ destination: { address: '14155550100' }, delivery: { receiptRequested: 'final', url: target.href } });
    expect(sent.status).toBe(202);
    await byTestId('tab-callbacks').click();
    const rows = page.locator(`[data-testid="callback-row"][data-ticket-id="${sent.ticketId}"]`);
    // Newest first: 401 and retried twice, then taken (the receiver's password put right).
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    await expect.poll(() => rows.locator('[data-testid="callback-outcome"]').allTextContents()).toEqual(['delivered', 'pending-retry', 'pending-retry']);
    expect(await rows.nth(1).textContent()).toContain('401');
    expect(await rows.nth(2).textContent()).toContain('401');
    expect(await rows.first().textContent()).toContain(`acme:***@127.0.0.1:${new URL(receiver.url).port}/guarded`);
    expect(await page.content()).not.toContain('wrong-secret');
    const guarded = receiver.received.filter((r) => r.path === '/guarded');
    expect(guarded[0]?.headers.authorization).toBe(`Basic ${Buffer.from('acme:wrong-secret').toString('base64')}`);
    await byTestId('tab-messages').click();
  });

  it("sets an account's callback credentials from the form: a wrong password is 401 and retried, put right the retry is taken, the password never shown", async () => {
    const save = async (password: string) => {
      await byTestId('credentials-account').selectOption(ACCOUNT.accountId);
      await byTestId('credentials-username').fill('openmarket');
      await byTestId('credentials-password').fill(password);
      await byTestId('credentials-submit').click();
      await expect.poll(() => byTestId('credentials-result').getAttribute('class')).toContain('tone-ok');
      expect(await byTestId('credentials-password').inputValue()).toBe('');
    };
    await save('not-right');
    await expect.poll(() => byTestId(`credentials-of-${ACCOUNT.accountId}`).textContent()).toBe('openmarket:***');
    // A plain URL: the account's credentials go with it.
    const sent = await send({ destination: { address: '14155550100' }, delivery: { receiptRequested: 'final', url: `${receiver.url}/account` } });
    expect(sent.status).toBe(202);
    await byTestId('tab-callbacks').click();
    const rows = page.locator(`[data-testid="callback-row"][data-ticket-id="${sent.ticketId}"]`);
    await expect.poll(() => rows.first().locator('[data-testid="callback-outcome"]').textContent(), { timeout: 10_000 }).toBe('pending-retry');
    expect(await rows.first().textContent()).toContain('401');
    await save('right-secret');
    await expect.poll(() => rows.first().locator('[data-testid="callback-outcome"]').textContent(), { timeout: 10_000 }).toBe('delivered');
    const content = await page.content();
    expect(content).not.toContain('not-right');
    expect(content).not.toContain('right-secret');
    const account = receiver.received.filter((r) => r.path === '/account');
    expect(account.at(0)?.headers.authorization).toBe(`Basic ${Buffer.from('openmarket:not-right').toString('base64')}`);
    expect(account.at(-1)?.headers.authorization).toBe(ACCOUNT_CALLBACK_AUTHORIZATION);
    await byTestId('credentials-remove').click();
    await expect.poll(() => byTestId(`credentials-of-${ACCOUNT.accountId}`).textContent()).toBe('none');
    await byTestId('tab-messages').click();
  });

  it('switches the time zone of callback timestamps, and the next inbound message carries it', async () => {
    expect(await byTestId('settings-current').textContent()).toBe('Z (UTC)');
    await byTestId('settings-offset').fill('-05:00');
    await byTestId('settings-submit').click();
    await expect.poll(() => byTestId('settings-result').textContent()).toBe('Callbacks now carry timestamps at -05:00.');
    await expect.poll(() => byTestId('settings-current').textContent()).toBe('-05:00');
    const before = receiver.received.length;
    await byTestId('inbound-from').fill('447700900124');
    await byTestId('inbound-to').fill('12345');
    await byTestId('inbound-content-input').fill('dated at an offset');
    await byTestId('inbound-url').fill(`${receiver.url}/offset`);
    await byTestId('inbound-submit').click();
    await expect.poll(() => receiver.received.length).toBe(before + 1);
    const body = receiver.received[before]?.body ?? '';
    expect(body).toMatch(/submittedDate="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-05:00"/);

    // The sandbox's refusal is shown as it says it, and the setting stays.
    await byTestId('settings-offset').fill('+15:00');
    await byTestId('settings-submit').click();
    await expect.poll(() => byTestId('settings-result').textContent()).toBe('callbackTimestampOffset must be Z or an offset ±hh:mm up to ±14:00 (offset +15:00 is beyond ±14:00)');
    expect(await byTestId('settings-result').getAttribute('class')).toContain('tone-fail');
    expect(app.sandbox.settings()).toStrictEqual({ callbackTimestampOffset: '-05:00' });

    await byTestId('settings-offset').fill('Z');
    await byTestId('settings-submit').click();
    await expect.poll(() => byTestId('settings-current').textContent()).toBe('Z (UTC)');
  });

  it("counts parts live as a message is typed, with core's estimator in the page, and sends it", async () => {
    const requests: string[] = [];
    const onRequest = (request: { url(): string }) => void requests.push(request.url());
    page.on('request', onRequest);
    const text = byTestId('compose-text');
    await text.click();
    await page.keyboard.type('Hello');
    expect(await byTestId('compose-encoding').textContent()).toBe('GSM 7-bit');
    expect(await byTestId('compose-parts').textContent()).toBe('1 part');
    expect(await byTestId('compose-left').textContent()).toBe('155 characters left (of 160)');
    expect(await byTestId('compose-forced').isHidden()).toBe(true);
    // An en dash forces UCS-2: the form says which character, and what the GSM substitute would do.
    await page.keyboard.type(' – see you');
    expect(await byTestId('compose-encoding').textContent()).toBe('UCS-2');
    expect(await byTestId('compose-left').textContent()).toBe('55 UCS-2 characters left (of 70)');
    expect(await byTestId('compose-forced').textContent()).toBe('UCS-2 because of “–” U+2013');
    expect(await byTestId('compose-substitutes').textContent()).toBe('With GSM substitutes (– → -) it is GSM 7-bit: 1 part.');
    await text.fill(`Long – ${'m'.repeat(80)}`);
    expect(await byTestId('compose-parts').textContent()).toBe('2 parts');
    expect(await byTestId('compose-left').textContent()).toBe('47 UCS-2 characters left in part 2 (of 67)');
    // Counted in the page: typing asked the server nothing.
    expect(requests).toEqual([]);
    page.off('request', onRequest);

    await byTestId('compose-to').fill('14155550188');
    await byTestId('compose-url').fill(`${receiver.url}/composed`);
    await byTestId('compose-submit').click();
    await expect.poll(() => byTestId('compose-result').textContent()).toMatch(/^Accepted: ticket [A-Z0-9-]+$/);
    const ticketId = ((await byTestId('compose-result').textContent()) ?? '').split(' ').pop() ?? '';
    await byTestId('tab-messages').click();
    const row = messageRow(ticketId);
    await row.waitFor();
    expect(await row.locator('[data-testid="message-content"]').textContent()).toContain('Long –');
    await expect.poll(() => receiver.received.filter((r) => r.path === '/composed').length, { timeout: 10_000 }).toBe(2);

    // The service's refusal is shown as it says it.
    await byTestId('compose-to').fill('not a number');
    await byTestId('compose-submit').click();
    await expect.poll(() => byTestId('compose-result').textContent()).toMatch(/^540 /);
    expect(await byTestId('compose-result').getAttribute('class')).toContain('tone-fail');
  });

  it('sets a scenario from the form, and the next send follows it', async () => {
    const rejected = DELIVERY_STATES[351]!;
    await byTestId('scenario-destination').fill('14155550199');
    await byTestId('scenario-kind').selectOption('rejected');
    expect(await byTestId('scenario-delay').isVisible()).toBe(false);
    await byTestId('scenario-code').fill(String(rejected.code));
    await byTestId('scenario-submit').click();
    await expect.poll(() => byTestId('scenario-result').textContent()).toBe(`Scenario for 14155550199: rejected · code ${rejected.code}.`);
    await expect.poll(() => page.locator('[data-testid="scenario-row"]').allTextContents()).toEqual([`14155550199rejected · code ${rejected.code}Remove`]);

    const sent = await send({ destination: { address: '14155550199' } });
    await byTestId('tab-messages').click();
    const row = messageRow(sent.ticketId!);
    await expect.poll(() => row.locator('[data-testid="message-status"]').textContent(), { timeout: 10_000 }).toBe(`${rejected.code} ${rejected.description}`);
    expect(await row.locator('[data-testid="message-status"]').getAttribute('class')).toContain('tone-fail');

    await page.getByRole('button', { name: 'Remove the scenario of 14155550199' }).click();
    await expect.poll(() => page.locator('[data-testid="scenario-row"]').count()).toBe(0);
  });

  it('arms a fault from the form, and the API answers with it once', async () => {
    const fault = SMS_ERRORS['1010'];
    await byTestId('fault-operation').selectOption('send');
    await byTestId('fault-kind').selectOption('1010');
    expect(await byTestId('fault-kind').locator('option[value="1010"]').textContent()).toBe(`1010 — ${fault.description}`);
    await byTestId('fault-submit').click();
    await expect.poll(() => byTestId('fault-result').textContent()).toBe('Armed: the next send call → 1010.');
    const failed = await send({ destination: { address: '14155550100' } });
    expect(failed.status).toBe(fault.httpStatus);
    expect(JSON.parse(failed.body)).toEqual({ error: { code: fault.code, description: fault.description } });
    expect((await send({ destination: { address: '14155550100' } })).status).toBe(202);
  });

  it('lists Invoke Service calls, accepted and rejected', async () => {
    const smsOnly = DEFAULT_ACCOUNTS.find((account) => account.accountId === 'sms-only')!;
    for (const account of [ACCOUNT, smsOnly]) {
      const built = buildInvokeServiceRequest(
        { endpoints: { baseUrl: app.apiUrl }, credentials: { accountId: account.accountId, password: account.password } },
        'abc123',
        { endUser: { phoneNumber: '14155550100' }, variables: { session: { GREETING: '<b>hi</b>' } } },
      );
      await fetch(built.url, { method: built.method, headers: built.headers, body: built.body ?? null });
    }
    await byTestId('tab-invocations').click();
    const rows = page.locator('[data-testid="invocation-row"]');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.locator('[data-testid="invocation-outcome"]').allTextContents()).toEqual(['rejected', 'accepted']);
    expect(await rows.first().textContent()).toContain(`${INVOKE_ERRORS[12001].code} ${INVOKE_ERRORS[12001].description}`);
    await rows.last().locator('summary').click();
    expect(await rows.last().locator('pre').textContent()).toContain('"GREETING": "<b>hi</b>"');
    expect(await page.locator('b').count()).toBe(0);
  });

  it('reconnects the live stream after the server comes back', async () => {
    await byTestId('tab-messages').click();
    const port = app.server.port;
    await app.server.close();
    await page.locator('[data-testid="connection"][data-state="reconnecting"]').waitFor({ timeout: 10_000 });
    // The same sandbox listens again on the same port; later tests keep using app.apiUrl.
    restarted = await app.sandbox.listen({ port, host: '127.0.0.1' });
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ timeout: 15_000 });
    const sent = await send({ destination: { address: '14155550100' } }, 'after the reconnection');
    expect(sent.status).toBe(202);
    await messageRow(sent.ticketId!).waitFor({ timeout: 10_000 });
  });

  it('is labelled, legible and free of script errors and policy violations (screenshot in test/artifacts)', async () => {
    const unlabelled = await page.evaluate(() =>
      Array.from(document.querySelectorAll('input, select, textarea'))
        .filter((control) => (control as HTMLInputElement).labels?.length === 0 && !control.getAttribute('aria-label'))
        .map((control) => control.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('[aria-live="polite"]').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('[role="tabpanel"] table thead th[scope="col"]').count()).toBeGreaterThan(25);
    await mkdir(ARTIFACTS, { recursive: true });
    for (const tab of ['messages', 'callbacks', 'inbound', 'invocations']) {
      await byTestId(`tab-${tab}`).click();
      await page.screenshot({ path: `${ARTIFACTS}dashboard-${tab}.png`, fullPage: tab === 'messages' });
      // Wide tables scroll inside their panel; the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), tab).toBeLessThanOrEqual(0);
    }
    expect(pageErrors).toEqual([]);
    // Every tab, form and live update above ran under the policy without 'unsafe-inline'.
    expect((await fetch(app.dashboardUrl)).headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(policyViolations).toEqual([]);
  });

  it('resets the sandbox from its button', async () => {
    await byTestId('reset').click();
    await expect.poll(() => page.locator('[data-testid="message-row"]').count()).toBe(0);
    await expect.poll(() => byTestId('live-status').textContent()).toBe('Sandbox cleared.');
    expect(await page.locator('#count-inbound').textContent()).toBe('0');
  });
});

describe('dashboard with an admin token', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startSandboxApp({ port: 0, host: '127.0.0.1', timeScale: 1, adminToken: 'let-me-in' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('asks for the token, then works with it (also from the #token= link)', async () => {
    const page = await browser.newPage();
    await page.goto(app.dashboardUrl.replace(/#.*$/, ''));
    await page.locator('[data-testid="token-form"]').waitFor();
    expect(await page.locator('[data-testid="connection"]').getAttribute('data-state')).toBe('unauthorized');
    await page.locator('[data-testid="token-form"] input').fill('let-me-in');
    await page.locator('[data-testid="token-form"] button').click();
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('[data-testid="accounts-body"] tr').count()).toBe(DEFAULT_ACCOUNTS.length);

    const linked = await browser.newPage();
    await linked.goto(app.dashboardUrl);
    await linked.locator('[data-testid="connection"][data-state="live"]').waitFor();
    expect(new URL(linked.url()).hash).toBe('');
    expect(await linked.locator('[data-testid="token-form"]').isHidden()).toBe(true);
  });
});

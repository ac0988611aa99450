/**
 * `describeReceiverConformance()`: the receiver's contract with the service, as tests any receiver
 * adapter runs against itself. Captured callbacks and the sandbox's own deliveries (with retries)
 * go over real HTTP on loopback to receivers the adapter starts with the options each case needs;
 * the suite asserts every answer's status and body, what reached the handlers, and what did not.
 */
import type { DeliveryReceipt, DuplicateEvent, InboundMessage, MessageDeliveryStatus, MtRequest, WebhookError, WebhookHandlerOptions } from '@smsv4/core';
import { basicAuthorization, createReceiptAggregator } from '@smsv4/core';
import { eventually } from '../eventually.js';
import { callbackHeaders } from '../http/post-callback.js';
import { startSandbox, type TestSandbox } from '../sandbox/start-sandbox.js';
import { callbackFixture, postFixture, type CallbackFixtureName } from './callback-fixtures.js';
import { postBrokenOff, postChunked, postEndless, startHoldingProxy, type HoldingProxy } from './raw-requests.js';

/** The matchers the suite asserts with: the subset of `expect` that vitest and jest share. */
export interface ConformanceMatchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toMatch(expected: RegExp | string): void;
  toHaveLength(length: number): void;
  toBeUndefined(): void;
  toContain(item: unknown): void;
  toBeGreaterThan(n: number): void;
}

/** What `expect(actual)` gives: the matchers, and their negation. */
export interface ConformanceAssertion extends ConformanceMatchers {
  readonly not: ConformanceMatchers;
}

/** The test runner's functions the suite is written with: vitest's or jest's. */
export interface ConformanceRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
  beforeAll(fn: () => Promise<void>): void;
  afterAll(fn: () => Promise<void>): void;
  expect(actual: unknown): ConformanceAssertion;
}

/** A receiver the adapter started for the suite. */
export interface ReceiverUnderTest {
  /** The URL callbacks are posted to (`http://127.0.0.1:<port>/callbacks`). */
  readonly url: string;
  /** Stops it (its server, and the receiver's own timers). */
  close(): unknown;
}

/** Options of {@link describeReceiverConformance}. */
export interface ReceiverConformanceOptions {
  /** Names the suite (`express 5`, `fastify 4`, `your adapter`). */
  readonly name: string;
  /** The runner's functions: `{ describe, it, expect, beforeAll, afterAll }` of vitest, or jest's globals. */
  readonly runner: ConformanceRunner;
  /**
   * Starts a receiver of the adapter on loopback with these options (core's receiver options:
   * handlers, Basic auth, allow-list, limits) passed through unchanged. Called several times; each
   * receiver is closed after the suite.
   */
  start(options: WebhookHandlerOptions): Promise<ReceiverUnderTest>;
  /**
   * Whether the receiver takes the peer's address from `X-Forwarded-For` when a loopback proxy sets
   * it (a framework's trusted proxies, a `getRemoteAddress` option); when true, the allow-list is
   * also checked with forwarded addresses, refused and allowed, and the address used must be the
   * proxy's own (last) entry: `X-Forwarded-For: <allowed>, <stranger>` is refused. Default false.
   */
  readonly forwardedFor?: boolean;
  /** How long the sandbox waits for an answer to its callbacks (default 1000 ms). */
  readonly callbackTimeoutMs?: number;
  /**
   * Whether the framework's own JSON body parser reads a JSON callback before the receiver (Nest's
   * default): a JSON body that does not parse is then answered 400 by that parser, in its own words,
   * and the suite checks only the status. Default false: the receiver's `Malformed payload: …`.
   */
  readonly frameworkParsesJson?: boolean;
}

const credentials = { username: 'openmarket', password: 'callback-secret' };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Declares the receiver conformance suite (three `describe` blocks: captured callbacks, every
 * rejection, the sandbox's deliveries) for one receiver adapter.
 *
 * @example
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest';
 * describeReceiverConformance({
 *   name: 'my adapter',
 *   runner: { describe, it, expect, beforeAll, afterAll },
 *   async start(options) {
 *     const served = await serve(myFramework(options), { teardown: 'manual' });
 *     return { url: `${served.url}/callbacks`, close: served.close };
 *   },
 * });
 */
export function describeReceiverConformance(options: ReceiverConformanceOptions): void {
  const { name, runner, start, forwardedFor = false, callbackTimeoutMs = 1000, frameworkParsesJson = false } = options;
  if (typeof start !== 'function') throw new TypeError('describeReceiverConformance needs start(options), which starts a receiver and resolves to { url, close }');
  for (const fn of ['describe', 'it', 'expect', 'beforeAll', 'afterAll'] as const) {
    if (typeof runner?.[fn] !== 'function') throw new TypeError(`describeReceiverConformance needs the runner's ${fn} (runner: { describe, it, expect, beforeAll, afterAll })`);
  }
  const { describe, it, expect, beforeAll, afterAll } = runner;

  /** Starts receivers for a describe block and closes them after it. */
  function receivers<K extends string>(configure: () => Record<K, WebhookHandlerOptions>): Record<K, string> {
    const urls = {} as Record<K, string>;
    const started: ReceiverUnderTest[] = [];
    beforeAll(async () => {
      for (const [key, receiverOptions] of Object.entries(configure()) as Array<[K, WebhookHandlerOptions]>) {
        // Open receivers say so: a receiver without credentials or an allow-list refuses to start.
        const open = receiverOptions.basicAuth === undefined && receiverOptions.allowRemoteAddress === undefined;
        const receiver = await start(open ? { allowUnauthenticated: true, ...receiverOptions } : receiverOptions);
        started.push(receiver);
        urls[key] = receiver.url;
      }
    });
    afterAll(async () => {
      for (const receiver of started.splice(0).reverse()) await receiver.close();
    });
    return urls;
  }

  describe(`receiver conformance on ${name}`, () => {
    describe('captured callbacks', () => {
      const receipts: string[] = [];
      const inbound: InboundMessage[] = [];
      const raw: InboundMessage[] = [];
      const orphans: InboundMessage[] = [];
      const duplicates: DuplicateEvent[] = [];
      const finished: string[] = [];
      let release: (() => void) | undefined;
      const url = receivers(() => ({
        main: {
          onDeliveryReceipt: (receipt) => void receipts.push(`${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`),
          onInboundMessage: (message) => void inbound.push(message),
          onDuplicate: (event) => void duplicates.push(event),
        },
        short: { onInboundMessage: () => undefined, onOrphan: (message) => void orphans.push(message), reassemblyTimeoutMs: 100 },
        inboundRaw: { onInboundMessage: (message) => void raw.push(message), maxBodyBytes: 4096, handlerTimeoutMs: 100 },
        deferred: {
          onDeliveryReceipt: () =>
            new Promise<void>((resolve) => {
              release = () => {
                finished.push('handler');
                resolve();
              };
            }),
          handlerTimeoutMs: 10_000,
        },
      }));

      it('answers each part of a multipart receipt 200 and every repeat 200 without handling it again', async () => {
        for (const fixture of ['receipt-multipart-part1-delivered.xml', 'receipt-multipart-part2-expired.xml', 'receipt-multipart-part3-delivered.xml'] as const) {
          expect(await postFixture(url.main, fixture)).toMatchObject({ status: 200, body: '' });
        }
        expect((await postFixture(url.main, 'receipt-multipart-part2-expired.xml')).status).toBe(200);
        expect(receipts).toEqual(['03155-0331L-1439U-51SLFX#1', '03155-0331L-1439U-51SLFX#2', '03155-0331L-1439U-51SLFX#3']);
        expect(duplicates.map((d) => d.key)).toEqual(['receipt:03155-0331L-1439U-51SLFX:2']);
      });

      it('reassembles 16-bit UTF-16 parts posted last part first, and answers repeated parts 200', async () => {
        expect((await postFixture(url.main, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
        expect(inbound).toHaveLength(0);
        expect((await postFixture(url.main, 'inbound-utf16-ref16-part2.json')).status).toBe(200);
        expect((await postFixture(url.main, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
        expect(inbound).toHaveLength(1);
        expect(inbound[0]).toMatchObject({
          text: 'Привет! Это первая часть и вторая часть сообщения.',
          charset: 'UTF-16',
          ticketIds: ['8ZK1Q-0315A-77XX1-00001', '8ZK1Q-0315A-77XX1-00002'],
          complete: true,
        });
        expect((await postFixture(url.main, 'inbound-utf16-ref16-part1.json')).status).toBe(200);
        expect(inbound).toHaveLength(1);
      });

      it('takes an inbound message dated with an offset, as the service sends it (200), with its UTC instant', async () => {
        expect(await postFixture(url.main, 'inbound-published-offset.xml')).toMatchObject({ status: 200, body: '' });
        const message = await eventually(() => inbound.find((m) => m.ticketId === '5Q2ZA-0829T-1510W-30UK9'));
        expect(message).toMatchObject({ submittedDate: '2015-08-29T15:10:03.029-05:00', submittedInstant: '2015-08-29T20:10:03.029Z', text: 'Is my order on its way?' });
      });

      it('reports a part whose sibling never comes as an orphan', async () => {
        expect((await postFixture(url.short, 'inbound-ref8-part1.xml')).status).toBe(200);
        const orphan = await eventually(() => orphans[0]);
        expect(orphan).toMatchObject({ complete: false, missingParts: [2], text: 'Hello ', ticketIds: ['31QX9-0314A-0000A-77PQR'] });
      });

      it('takes an inbound message whose user data header does not parse (200), whole and as received, saying why', async () => {
        const answer = await postFixture(url.inboundRaw, 'inbound-bad-udh.xml');
        expect(answer.status).toBe(200);
        expect(raw).toHaveLength(1);
        expect(raw[0]).toMatchObject({ ticketId: '31QX9-0314A-0000C-77PQT', type: 'hexEncodedText', content: '0900034A0201', complete: true });
        expect(raw[0]?.text).toBeUndefined();
        expect(raw[0]?.headerProblem).toMatch(/^mobileOriginate\.message\.content does not start with a valid user data header \(udh is true\): /);
      });

      it('answers 200 only once the handler has resolved', async () => {
        const answering = postFixture(url.deferred, 'receipt-single-delivered.xml').then((answer) => {
          finished.push('answer');
          return answer;
        });
        await eventually(() => release);
        await sleep(100);
        expect(finished).toEqual([]);
        release?.();
        expect(await answering).toMatchObject({ status: 200, body: '' });
        expect(finished).toEqual(['handler', 'answer']);
      });
    });

    describe('rejections', () => {
      const errors: WebhookError[] = [];
      const handled: string[] = [];
      const authorization = basicAuthorization({ accountId: credentials.username, password: credentials.password });
      const url = receivers(() => {
        const common = { onError: (e: WebhookError) => void errors.push(e), maxBodyBytes: 4096, handlerTimeoutMs: 100 };
        return {
          open: { ...common, onDeliveryReceipt: (r: DeliveryReceipt) => void handled.push(r.mtStatus.ticketId), onInboundMessage: () => undefined },
          receiptsOnly: { ...common, onDeliveryReceipt: () => undefined },
          auth: { ...common, basicAuth: credentials, onDeliveryReceipt: () => undefined },
          allowList: { ...common, allowRemoteAddress: (ip: string | undefined) => ip === '192.0.2.10', onDeliveryReceipt: () => undefined },
          failing: { ...common, onDeliveryReceipt: () => Promise.reject(new Error('database down')) },
          slow: { ...common, onDeliveryReceipt: () => new Promise<void>((r) => setTimeout(r, 1000)) },
        };
      });
      const post = (target: string, fixture: CallbackFixtureName, headers: Record<string, string> = {}) => postFixture(target, fixture, { headers });
      const xmlHeaders = (): Record<string, string> => callbackHeaders('xml');

      it('takes a valid receipt (the baseline of the rejections below)', async () => {
        const answer = await post(url.open, 'receipt-single-delivered.xml');
        expect(answer).toMatchObject({ status: 200, body: '' });
        expect(handled).toContain('44101-0922I-13413-21GDL');
      });

      for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        it(`answers ${method} with 405 and Allow: POST`, async () => {
          const response = await fetch(url.open, { method });
          expect(response.status).toBe(405);
          expect(response.headers.get('allow')).toBe('POST');
        });
      }

      it(`answers 403 to a peer the allow-list refuses${forwardedFor ? ' (the address the framework trusts: the proxy\'s own entry, never one the client wrote before it), and takes the allowed one' : ''}`, async () => {
        expect((await post(url.allowList, 'receipt-single-delivered.xml')).status).toBe(403);
        if (!forwardedFor) return;
        expect((await post(url.allowList, 'receipt-single-delivered.xml', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(403);
        // A stranger who writes an allowed address first: the proxy appends the address it saw.
        expect((await post(url.allowList, 'receipt-single-delivered.xml', { 'x-forwarded-for': '192.0.2.10, 198.51.100.7' })).status).toBe(403);
        expect((await post(url.allowList, 'receipt-single-delivered.xml', { 'x-forwarded-for': '192.0.2.10' })).status).toBe(200);
        expect((await post(url.allowList, 'receipt-single-delivered.xml', { 'x-forwarded-for': '198.51.100.7, 192.0.2.10' })).status).toBe(200);
      });

      it('answers 401 with a Basic challenge without or with wrong credentials, and takes the right ones', async () => {
        const none = await post(url.auth, 'receipt-single-delivered.xml');
        expect(none.status).toBe(401);
        expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="sms-callbacks"/);
        const wrong = basicAuthorization({ accountId: 'openmarket', password: 'callback-secreT' });
        expect((await post(url.auth, 'receipt-single-delivered.xml', { authorization: wrong })).status).toBe(401);
        expect((await post(url.auth, 'receipt-single-delivered.xml', { authorization })).status).toBe(200);
      });

      it('answers 400 without X-API-Version: 4', async () => {
        const answer = await post(url.open, 'receipt-single-delivered.xml', { 'x-api-version': '3' });
        expect(answer).toMatchObject({ status: 400, body: 'X-API-Version must be 4\n' });
      });

      for (const type of ['text/plain', 'text/html', 'application/x-www-form-urlencoded', 'application/xml; charset=UTF-16']) {
        it(`answers Content-Type ${type} with 415`, async () => {
          expect((await post(url.open, 'receipt-single-delivered.xml', { 'content-type': type })).status).toBe(415);
        });
      }

      it('answers a body without Content-Type with 415', async () => {
        const body = new TextEncoder().encode(callbackFixture('receipt-single-delivered.xml').body);
        const response = await fetch(url.open, { method: 'POST', headers: { 'x-api-version': '4' }, body });
        expect(response.status).toBe(415);
      });

      it('answers a gzip-encoded body with 415', async () => {
        expect((await post(url.open, 'receipt-single-delivered.xml', { 'content-encoding': 'gzip' })).status).toBe(415);
      });

      it('answers 413 to a declared oversize body, and to an oversize chunked body', async () => {
        const big = `<deliveryReceipt>${' '.repeat(5000)}</deliveryReceipt>`;
        const declared = await fetch(url.open, { method: 'POST', headers: xmlHeaders(), body: big });
        expect(declared.status).toBe(413);
        expect(await declared.text()).toBe('Payload exceeds 4096 bytes\n');
        expect(await postChunked(url.open, xmlHeaders(), 64 * 1024)).toEqual({ status: 413, body: 'Payload exceeds 4096 bytes\n' });
      });

      for (const [fixture, message] of [
        ['receipt-truncated.json', /^Malformed payload: Invalid JSON in the payload/],
        ['receipt-missing-ticket.json', /deliveryReceipt\.mtStatus\.ticketId is missing/],
        ['receipt-hostile-billion-laughs.xml', /Invalid XML in the payload/],
        ['receipt-unterminated-cdata.xml', /Invalid XML in the payload/],
        ['status-not-a-callback.xml', /neither a deliveryReceipt nor a mobileOriginate/],
      ] as const) {
        it(`answers ${fixture} with 400 and says why`, async () => {
          const answer = await post(url.open, fixture);
          expect(answer.status).toBe(400);
          if (frameworkParsesJson && fixture === 'receipt-truncated.json') return;
          expect(answer.body).toMatch(message);
          expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        });
      }

      it('answers 400 to an empty body', async () => {
        const response = await fetch(url.open, { method: 'POST', headers: xmlHeaders(), body: '' });
        expect(response.status).toBe(400);
      });

      it('answers 422 to a kind of callback the URL does not take', async () => {
        const answer = await post(url.receiptsOnly, 'inbound-text.json');
        expect(answer).toMatchObject({ status: 422, body: 'This URL does not take inbound messages\n' });
      });

      it('answers 500 when the handler fails, without telling why', async () => {
        const answer = await post(url.failing, 'receipt-single-delivered.xml');
        expect(answer.status).toBe(500);
        expect(answer.body).not.toMatch(/database/);
        expect(errors.some((e) => e.code === 'handler-failed' && (e.cause as Error).message === 'database down')).toBe(true);
      });

      it('answers 503 when the handler takes too long', async () => {
        const answer = await post(url.slow, 'receipt-single-delivered.xml');
        expect(answer).toMatchObject({ status: 503, body: 'The event was not handled in time; retry later\n' });
      });

      it('drops a request whose body breaks off, without calling the handler', async () => {
        const before = handled.length;
        await postBrokenOff(url.open, xmlHeaders(), callbackFixture('receipt-single-delivered.xml').body);
        await sleep(50);
        expect(handled.length).toBe(before);
        expect((await post(url.open, 'receipt-multipart-part3-delivered.xml')).status).toBe(200);
      });

      it('refuses to start without basicAuth, allowRemoteAddress or allowUnauthenticated: true', async () => {
        let refused: unknown;
        try {
          const receiver = await start({ onDeliveryReceipt: () => undefined });
          await receiver.close();
        } catch (e) {
          refused = e;
        }
        expect(refused instanceof Error ? refused.message : String(refused)).toMatch(/allowUnauthenticated: true/);
      });

      for (const [what, headers] of [
        ['401 without credentials', {}],
        ['415 for text/plain', { 'content-type': 'text/plain' }],
      ] as const) {
        it(`closes the connection after an early ${what}, without reading the chunked body that follows`, async () => {
          const target = what.startsWith('401') ? url.auth : url.open;
          const answer = await postEndless(target, { ...xmlHeaders(), ...(what.startsWith('401') ? {} : { authorization }), ...headers });
          expect(answer.status).toBe(what.startsWith('401') ? 401 : 415);
          expect(answer.connection).toBe('close');
          expect(answer.closed).toBe(true);
        });
      }

      it('keeps answering after rejections that did not read the body (each closes its connection)', async () => {
        for (let i = 0; i < 3; i++) {
          expect((await post(url.open, 'receipt-single-delivered.xml', { 'content-type': 'text/plain' })).status).toBe(415);
        }
        expect((await post(url.open, 'receipt-multipart-part1-delivered.xml')).status).toBe(200);
      });
    });

    describe("the sandbox's deliveries, with its retries", () => {
      const j = {
        receipts: [] as DeliveryReceipt[],
        statuses: new Map<string, MessageDeliveryStatus>(),
        inbound: [] as InboundMessage[],
        duplicates: [] as DuplicateEvent[],
        /** Ticket IDs (receipts) or senders (inbound) whose handler must fail once more. */
        failNext: new Map<string, number>(),
        /** Ticket IDs whose handler must take this long (ms). */
        slow: new Map<string, number>(),
      };
      const shouldFail = (key: string): boolean => {
        const left = j.failNext.get(key) ?? 0;
        if (left <= 0) return false;
        j.failNext.set(key, left - 1);
        return true;
      };
      const aggregator = createReceiptAggregator();
      const url = receivers(() => {
        const callbacks: WebhookHandlerOptions = {
          async onDeliveryReceipt(receipt: DeliveryReceipt) {
            const { ticketId } = receipt.mtStatus;
            const delay = j.slow.get(ticketId);
            if (delay !== undefined) {
              j.slow.delete(ticketId);
              await sleep(delay);
            }
            if (shouldFail(ticketId)) throw new Error(`receipt store down for ${ticketId}`);
            j.receipts.push(receipt);
            j.statuses.set(ticketId, aggregator.add(receipt));
          },
          async onInboundMessage(message: InboundMessage) {
            if (shouldFail(message.source.address)) throw new Error('inbox down');
            j.inbound.push(message);
          },
          onDuplicate: (event: DuplicateEvent) => void j.duplicates.push(event),
          onError: () => undefined,
          handlerTimeoutMs: 5000 + callbackTimeoutMs,
        };
        // The same receiver with Basic auth on, as a receiver README's quick start sets it.
        return { callbacks, guarded: { ...callbacks, basicAuth: credentials } };
      });
      let sms: TestSandbox;
      let proxy: HoldingProxy;
      beforeAll(async () => {
        sms = await startSandbox({ callbackTimeoutMs, teardown: 'manual' });
        proxy = await startHoldingProxy(url.callbacks, 250);
      });
      afterAll(async () => {
        await proxy?.close();
        await sms?.close();
      });

      async function send(destination: string, content: string, format: 'json' | 'xml', extra: Partial<MtRequest['message']> = {}, receiptUrl = url.callbacks): Promise<string> {
        const sent = await sms.send({ destination: { address: destination }, message: { type: 'text', content, ...extra }, delivery: { receiptRequested: 'final', url: receiptUrl } }, { format });
        expect(sent.ok).toBe(true);
        return sent.ok ? sent.value.ticketId : '';
      }
      /** The sandbox's record of the callbacks for a ticket, newest first. */
      const attempts = (ticketId: string) => sms.sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);
      const completed = (ticketId: string) =>
        eventually(() => {
          const s = j.statuses.get(ticketId);
          return s?.complete === true ? s : undefined;
        });

      for (const format of ['xml', 'json'] as const) {
        it(`takes a single-part ${format} receipt once and answers 200`, async () => {
          const ticketId = await send('14155550100', `Your code is 12${format}`, format);
          await sms.advance(1000);
          const receipt = await eventually(() => j.receipts.find((r) => r.mtStatus.ticketId === ticketId));
          expect(receipt.mtStatus).toMatchObject({ code: 4, description: 'Message delivered' });
          await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
          expect(attempts(ticketId)).toHaveLength(1);
          expect(attempts(ticketId)[0]?.httpStatus).toBe(200);
          expect(attempts(ticketId)[0]?.responseBody).toBe('');
        });

        it(`folds the ${format} receipts of a 3-part message into the message status`, async () => {
          const ticketId = await send('14155550101', 'm'.repeat(400), format, { mlc: 'segment' });
          await sms.advance(2000);
          const status = await completed(ticketId);
          expect(status).toMatchObject({ totalSegments: 3, code: 4, outcome: 'delivered', missing: [] });
          expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId).map((r) => r.mtStatus.segmentNumber).sort()).toEqual([1, 2, 3]);
        });
      }

      it('posts with the Basic credentials of the receipt URL on every attempt: a wrong password is 401 and retried, the right one taken, the password never shown', async () => {
        const withCredentials = (password: string): string => {
          const target = new URL(url.guarded);
          target.username = credentials.username;
          target.password = password;
          return target.href;
        };
        const wrongPassword = 'not-the-secret';
        const refused = await send('14155550105', 'wrong password', 'json', {}, withCredentials(wrongPassword));
        const taken = await send('14155550106', 'right password', 'xml', {}, withCredentials(credentials.password));
        await sms.advance(1000);
        await eventually(() => (attempts(taken)[0]?.outcome === 'delivered' && attempts(refused)[0]?.outcome === 'pending-retry' ? true : undefined));
        expect(j.receipts.filter((r) => r.mtStatus.ticketId === taken)).toHaveLength(1);
        await sms.advance(10_000);
        await eventually(() => (attempts(refused).length === 2 ? true : undefined));
        expect(attempts(refused).map((a) => [a.httpStatus, a.outcome])).toEqual([[401, 'pending-retry'], [401, 'pending-retry']]);
        expect(j.receipts.filter((r) => r.mtStatus.ticketId === refused)).toHaveLength(0);
        // What the admin API (over HTTP, as the dashboard reads it) shows: the user name, never the password.
        expect(attempts(refused)[0]?.url).toBe(withCredentials('***'));
        const state = await fetch(`${sms.url}/__sandbox/api/state`, { headers: { authorization: `Bearer ${sms.sandbox.adminToken ?? ''}` } });
        expect(state.status).toBe(200);
        const shown = await state.text();
        expect(shown).toContain(withCredentials('***'));
        expect(shown).not.toContain(wrongPassword);
        expect(shown).not.toContain(credentials.password);
      });

      it("posts with the account's callback credentials to a URL without any, a wrong password 401 and retried until it is put right", async () => {
        const accountId = sms.client.accountId;
        try {
          sms.sandbox.setCallbackCredentials(accountId, { username: credentials.username, password: 'not-the-secret' });
          const ticketId = await send('14155550107', 'account credentials', 'json', {}, url.guarded);
          await sms.advance(1000);
          await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
          expect(attempts(ticketId)[0]?.httpStatus).toBe(401);
          sms.sandbox.setCallbackCredentials(accountId, credentials);
          await sms.advance(10_000);
          await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
          expect(attempts(ticketId).map((a) => a.httpStatus)).toEqual([200, 401]);
          expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
          const accounts = await fetch(`${sms.url}/__sandbox/api/accounts`, { headers: { authorization: `Bearer ${sms.sandbox.adminToken ?? ''}` } });
          const shown = await accounts.text();
          expect(shown).toContain(`"username":"${credentials.username}","password":"***"`);
          expect(shown).not.toContain(credentials.password);
        } finally {
          sms.sandbox.setCallbackCredentials(accountId, null);
        }
      });

      it('folds a failed part into 830', async () => {
        sms.sandbox.setScenario('14155550102', { kind: 'fail-part', segmentNumber: 2 });
        const ticketId = await send('14155550102', 'p'.repeat(300), 'xml', { mlc: 'segment' });
        await sms.advance(2000);
        const status = await completed(ticketId);
        expect(status).toMatchObject({ code: 830, description: 'Partial message delivery failure', outcome: 'failed' });
        expect(status.parts.map((p) => p.code)).toEqual([4, 811]);
      });

      it("answers 500 while the handler fails, and handles the service's retry exactly once", async () => {
        const ticketId = await send('14155550103', 'retry me', 'json');
        j.failNext.set(ticketId, 2);
        await sms.advance(1000);
        await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
        await sms.advance(10_000);
        await eventually(() => (attempts(ticketId).length === 2 && attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
        await sms.advance(20_000);
        await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
        expect(attempts(ticketId).map((a) => a.httpStatus)).toEqual([200, 500, 500]);
        expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
      });

      it('answers a retry that comes while the first delivery is still handled 409, and the later one 200 without handling it again', async () => {
        const ticketId = await send('14155550104', 'slow handler', 'xml');
        j.slow.set(ticketId, callbackTimeoutMs + 1500); // longer than the sandbox waits for an answer
        await sms.advance(1000);
        await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
        expect(attempts(ticketId)[0]?.error).toMatch(/timeout/);
        await sms.advance(10_000); // the retry arrives while the first is still being handled
        await eventually(() => (attempts(ticketId)[0]?.httpStatus === 409 ? true : undefined));
        await eventually(() => j.receipts.find((r) => r.mtStatus.ticketId === ticketId), 2 * callbackTimeoutMs + 4000);
        await sms.advance(20_000);
        await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
        expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
        expect(j.duplicates.some((d) => d.ticketId === ticketId && d.reason === 'seen')).toBe(true);
      });

      for (const format of ['xml', 'json'] as const) {
        it(`takes a single-part ${format} inbound message`, async () => {
          const from = format === 'xml' ? '14155550110' : '14155550111';
          const injected = sms.sandbox.injectInbound({ from, to: '24273', text: `STOP ${format}`, url: url.callbacks, format });
          const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
          expect(message).toMatchObject({ text: `STOP ${format}`, type: 'text', complete: true, ticketIds: injected.ticketIds, destination: { address: '24273' } });
        });
      }

      for (const [format, referenceBits, from, text] of [
        ['xml', 8, '14155550130', 'Long message from a handset: '.repeat(12)],
        ['json', 16, '14155550131', 'Another long one, with a 16-bit reference. '.repeat(8)],
        ['xml', 16, '14155550132', 'Привет! Это длинное сообщение, которое не помещается в одну часть. '.repeat(3)],
        ['json', 8, '14155550133', 'Γειά σου! Ένα μεγάλο μήνυμα σε πολλά κομμάτια. '.repeat(4)],
      ] as const) {
        it(`reassembles a multipart ${format} inbound message with ${referenceBits}-bit references (from ${from})`, async () => {
          const injected = sms.sandbox.injectInbound({ from, to: '24273', text, url: url.callbacks, format, referenceBits });
          expect(injected.ticketIds.length).toBeGreaterThan(1);
          const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
          expect(message).toMatchObject({ text, complete: true, ticketIds: injected.ticketIds, concatenation: { referenceBits, total: injected.ticketIds.length }, format });
          expect(j.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
        });
      }

      it('reassembles parts that arrive out of order', async () => {
        const from = '14155550120';
        const text = 'Out of order parts still make one message. '.repeat(5);
        const injected = sms.sandbox.injectInbound({ from, to: '24273', text, url: proxy.url, format: 'xml' });
        expect(injected.ticketIds).toHaveLength(2);
        const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
        const arrivals = proxy.forwarded.map((body) => /ticketId="([^"]+)"/.exec(body)?.[1]);
        expect(arrivals).toEqual([...injected.ticketIds].reverse());
        expect(message.text).toBe(text);
        expect(message.ticketIds).toEqual(injected.ticketIds);
      });

      it('keeps the parts when handing over the whole message fails, and hands it over once on the retry', async () => {
        const from = '14155550121';
        const text = 'This message fails to be stored at first. '.repeat(5);
        j.failNext.set(from, 1);
        const injected = sms.sandbox.injectInbound({ from, to: '24273', text, url: url.callbacks, format: 'json' });
        const failed = await eventually(() => sms.sandbox.snapshot().callbacks.find((c) => injected.ticketIds.includes(c.ticketId) && c.httpStatus === 500));
        expect(failed.outcome).toBe('pending-retry');
        await sms.advance(10_000);
        const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
        expect(message.text).toBe(text);
        await sms.settle();
        expect(j.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
      });
    });
  });
}

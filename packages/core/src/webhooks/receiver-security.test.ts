import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import { basicAuthorization } from '../http/basic-auth.js';
import { encodeMobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bytesToHex } from '../text/hex.js';
import { buildUserDataHeader } from '../text/udh.js';
import type { InboundMessage, ReassemblerTimers } from './inbound-reassembler.js';
import { createMemoryReassemblyStore, type ReassemblyStore } from './reassembly-store.js';
import { MAX_INBOUND_PART_OCTETS } from './part-limits.js';
import { createWebhookHandler, type WebhookHandlerOptions, type WebhookRequest } from './webhook-handler.js';

const XML = 'application/xml; charset=UTF-8';
const JSON_TYPE = 'application/json; charset=UTF-8';
const RECEIPT = 'delivery-receipt/single-delivered.xml';
const onDeliveryReceipt = (): void => undefined;

function post(body: string, { headers = {}, type = XML, remoteAddress = '127.0.0.1' }: { headers?: Record<string, string>; type?: string; remoteAddress?: string } = {}): WebhookRequest {
  return { method: 'POST', headers: { 'x-api-version': '4', 'content-type': type, ...headers }, body, remoteAddress };
}

/** One part of a multipart inbound message as the service posts it (JSON), with `octets` octets of payload after its header. */
function partBody(reference: number, sequence: number, total: number, octets: number, from = '12065551234'): string {
  const header = bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence, referenceBits: 16 } }));
  return encodeMobileOriginate(
    {
      ticketId: `T-${reference}-${sequence}`,
      source: { address: from },
      destination: { address: '24273' },
      message: { type: 'hexEncodedText', udh: true, content: header + '41'.repeat(octets) },
    },
    'json',
  ) as string;
}

describe('a receiver refuses strangers unless told otherwise', () => {
  it('refuses to start without basicAuth, allowRemoteAddress or allowUnauthenticated, naming the options and the threat', () => {
    expect(() => createWebhookHandler({ onDeliveryReceipt })).toThrow(TypeError);
    expect(() => createWebhookHandler({ onDeliveryReceipt })).toThrow(/basicAuth or allowRemoteAddress.*forged delivery receipts.*"STOP".*duplicate.*allowUnauthenticated: true/);
    expect(() => createWebhookHandler({ onDeliveryReceipt, allowUnauthenticated: false })).toThrow(/allowUnauthenticated: true/);
    expect(() => createWebhookHandler({ onDeliveryReceipt, allowUnauthenticated: 'yes' as unknown as boolean })).toThrow(/allowUnauthenticated must be a boolean/);
  });

  it('starts with credentials, an allow-list, or allowUnauthenticated: true', () => {
    expect(createWebhookHandler({ onDeliveryReceipt, basicAuth: { username: 'openmarket', password: 's3cret' } }).maxBodyBytes).toBeGreaterThan(0);
    expect(createWebhookHandler({ onDeliveryReceipt, allowRemoteAddress: () => true }).maxBodyBytes).toBeGreaterThan(0);
    expect(createWebhookHandler({ onDeliveryReceipt, allowUnauthenticated: true }).maxBodyBytes).toBeGreaterThan(0);
  });

  it('refuses an empty username or an empty password at configuration', () => {
    for (const basicAuth of [
      { username: '', password: 's3cret' },
      { username: 'openmarket', password: '' },
      [{ username: 'openmarket', password: 's3cret' }, { username: '', password: '' }],
    ]) {
      expect(() => createWebhookHandler({ onDeliveryReceipt, basicAuth })).toThrow(/non-empty username and a non-empty password/);
    }
  });

  it('answers a request with empty credentials 401 (they cannot be configured)', async () => {
    const handler = createWebhookHandler({ onDeliveryReceipt, basicAuth: { username: 'openmarket', password: 's3cret' } });
    const empty = basicAuthorization({ accountId: '', password: '' });
    expect((await handler.handle(post(loadFixture(RECEIPT), { headers: { authorization: empty } }))).status).toBe(401);
  });
});

describe('remote addresses', () => {
  it('gives allowRemoteAddress the IPv4 address an IPv6 socket reports as IPv4-mapped', async () => {
    const seen: (string | undefined)[] = [];
    const handler = createWebhookHandler({
      onDeliveryReceipt: (_r, context) => void seen.push(context.remoteAddress),
      allowRemoteAddress: (ip) => {
        seen.push(ip);
        return ip === '127.0.0.1';
      },
    });
    expect((await handler.handle(post(loadFixture(RECEIPT), { remoteAddress: '::ffff:127.0.0.1' }))).status).toBe(200);
    expect((await handler.handle(post(loadFixture('delivery-receipt/multipart-part2-expired.xml'), { remoteAddress: '::FFFF:7F00:2' }))).status).toBe(403);
    expect(seen).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.2']);
  });
});

describe('early rejections close the connection', () => {
  const handler = createWebhookHandler({
    onDeliveryReceipt,
    basicAuth: { username: 'openmarket', password: 's3cret' },
    allowRemoteAddress: (ip) => ip === '127.0.0.1',
    maxBodyBytes: 1024,
  });
  const authorization = basicAuthorization({ accountId: 'openmarket', password: 's3cret' });
  for (const [name, request, status] of [
    ['403 for a peer off the allow-list', post(loadFixture(RECEIPT), { remoteAddress: '192.0.2.1' }), 403],
    ['405 for a PUT', { ...post(loadFixture(RECEIPT)), method: 'PUT' }, 405],
    ['401 without credentials', post(loadFixture(RECEIPT)), 401],
    ['415 for text/plain', post(loadFixture(RECEIPT), { headers: { authorization }, type: 'text/plain' }), 415],
    ['415 for gzip', post(loadFixture(RECEIPT), { headers: { authorization, 'content-encoding': 'gzip' } }), 415],
    ['400 without X-API-Version: 4', post(loadFixture(RECEIPT), { headers: { authorization, 'x-api-version': '3' } }), 400],
    ['413 for a declared oversize body', post(loadFixture(RECEIPT), { headers: { authorization, 'content-length': '5000' } }), 413],
  ] as const) {
    it(`answers ${name} with Connection: close, the body unread`, async () => {
      let read = false;
      const answer = await handler.handle({
        ...request,
        body: () => {
          read = true;
          return Promise.resolve(request.body as string);
        },
      });
      expect(answer.status).toBe(status);
      expect(answer.headers.connection).toBe('close');
      expect(read).toBe(false);
    });
  }

  it('keeps the connection after a rejection that read the body (400 malformed)', async () => {
    const answer = await handler.handle(post('<deliveryReceipt', { headers: { authorization } }));
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBeUndefined();
  });
});

describe('multipart parts: a size limit and a byte budget', () => {
  const inboundReceiver = (options: Partial<WebhookHandlerOptions> = {}) => {
    const handed: InboundMessage[] = [];
    const handler = createWebhookHandler({ allowUnauthenticated: true, onInboundMessage: (m) => void handed.push(m), onError: () => undefined, ...options });
    return { handler, handed };
  };

  it(`refuses 400 parts of 64 KB each (413: a part holds at most ${MAX_INBOUND_PART_OCTETS} octets), holding none`, async () => {
    const { handler } = inboundReceiver({ maxBodyBytes: 200 * 1024 });
    const statuses = new Set<number>();
    let body = '';
    for (let i = 0; i < 400; i++) {
      body = partBody(1000 + i, 1, 2, 32 * 1024);
      const answer = await handler.handle(post(body, { type: JSON_TYPE }));
      statuses.add(answer.status);
    }
    expect(body.length).toBeGreaterThan(64 * 1024);
    expect([...statuses]).toEqual([413]);
    expect((await handler.handle(post(body, { type: JSON_TYPE }))).body).toBe(`A part of a multipart inbound message holds at most ${MAX_INBOUND_PART_OCTETS} octets\n`);
    expect(handler.pendingMessages).toBe(0);
    handler.close();
  });

  it('takes a part as large as one SMS carries, and a margin past it', async () => {
    const { handler, handed } = inboundReceiver();
    // 7 header octets (16-bit reference) + 133 = 140 (one SMS); then the most the receiver takes.
    expect((await handler.handle(post(partBody(7, 1, 2, 133), { type: JSON_TYPE }))).status).toBe(200);
    expect((await handler.handle(post(partBody(7, 2, 2, MAX_INBOUND_PART_OCTETS - 7), { type: JSON_TYPE }))).status).toBe(200);
    expect(handed).toHaveLength(1);
    expect((await handler.handle(post(partBody(8, 1, 2, MAX_INBOUND_PART_OCTETS - 6), { type: JSON_TYPE }))).status).toBe(413);
    handler.close();
  });

  it('answers 503 with Retry-After past the byte budget (the service retries), and still takes a part that completes a message', async () => {
    const { handler, handed } = inboundReceiver({ maxPendingBytes: 64 * 1024 });
    const answers: number[] = [];
    let refused: Awaited<ReturnType<typeof handler.handle>> | undefined;
    for (let i = 0; i < 400; i++) {
      const answer = await handler.handle(post(partBody(2000 + i, 1, 2, 134), { type: JSON_TYPE }));
      answers.push(answer.status);
      if (answer.status !== 200) refused ??= answer;
    }
    const held = answers.filter((s) => s === 200).length;
    expect(held).toBeGreaterThan(10);
    expect(held).toBeLessThan(400);
    // Every part past the budget is refused, none before it.
    expect(answers.slice(held).every((s) => s === 503)).toBe(true);
    expect(handler.pendingMessages).toBe(held);
    expect(refused).toMatchObject({ status: 503, rejection: 'reassembly-full' });
    expect(refused?.headers['retry-after']).toBe('60');
    // The second part of a held message completes it: taken, and room is made.
    expect((await handler.handle(post(partBody(2000, 2, 2, 134), { type: JSON_TYPE }))).status).toBe(200);
    expect(handed).toHaveLength(1);
    expect(handler.pendingMessages).toBe(held - 1);
    // The retry of a refused part is now held.
    expect((await handler.handle(post(partBody(2000 + held, 1, 2, 134), { type: JSON_TYPE }))).status).toBe(200);
    handler.close();
  });
});

describe('default logs', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never print a phone number: failures of handlers, stores and orphans are logged by ticket, key and reference', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      // As Node's console prints them: message, stack, own properties (code, ticketId, key) and cause.
      for (const arg of args) printed.push(inspect(arg, { depth: 8 }));
    });
    let sweep: (() => void) | undefined;
    const timers: ReassemblerTimers = { setTimeout: (fn) => void (sweep = fn), clearTimeout: () => undefined };
    const memory = createMemoryReassemblyStore();
    // A store that gives up a group it holds no parts of: the orphan cannot be put together.
    const store: ReassemblyStore = {
      add: (part, options) => memory.add(part, options),
      finish: (group, options) => memory.finish(group, options),
      restore: (group) => memory.restore(group),
      claimExpired: () => [{ key: '16-9-2:12065551234:24273', token: 't', concatenation: { reference: 9, referenceBits: 16, total: 2 }, parts: [] }],
    };
    const handler = createWebhookHandler({
      allowUnauthenticated: true,
      reassemblyStore: store,
      timers,
      handlerTimeoutMs: 50,
      onInboundMessage: (message) => {
        if (message.ticketIds.length === 1) return new Promise(() => undefined);
        throw new Error('database down');
      },
    });
    expect((await handler.handle(post(partBody(3, 1, 2, 5), { type: JSON_TYPE }))).status).toBe(200);
    expect((await handler.handle(post(partBody(3, 2, 2, 5), { type: JSON_TYPE }))).status).toBe(500);
    expect((await handler.handle(post(partBody(4, 1, 1, 10), { type: JSON_TYPE }))).status).toBe(503);
    sweep?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    handler.close();
    expect(printed.length).toBeGreaterThanOrEqual(3);
    expect(printed.join('\n')).not.toMatch(/12065551234|24273/);
  });
});

/**
 * The plugin against @smsv4/sandbox: real receipts and inbound messages posted over loopback by
 * the emulated service, with its retries, in XML and JSON, single and multipart, on Fastify 4 and 5.
 * The sandbox runs on a manual clock, so its retry backoff is advanced by hand.
 */
import { basicAuthorization, encodeMtRequest, type MtRequest } from '@smsv4/core';
import { createManualClock, createSandbox, type Sandbox } from '@smsv4/sandbox';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReceiptAggregator,
  fastifyWebhooks,
  type DeliveryReceipt,
  type DuplicateEvent,
  type FastifyWebhooksOptions,
  type InboundMessage,
  type MessageDeliveryStatus,
} from '../src/index.js';
import { FASTIFY_VERSIONS, eventually, listen } from './helpers.js';

const authorization = basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' });

/** What the receiver saw: handled events, failures, duplicates. */
interface Journal {
  receipts: DeliveryReceipt[];
  statuses: Map<string, MessageDeliveryStatus>;
  inbound: InboundMessage[];
  duplicates: DuplicateEvent[];
  /** Ticket IDs (receipts) or senders (inbound) whose handler must fail once more. */
  failNext: Map<string, number>;
  /** Ticket IDs whose handler must take this long (ms). */
  slow: Map<string, number>;
  /** Ticket IDs in the order they reached the receiver on the out-of-order URL. */
  arrivals: string[];
  held: number;
}

const journal = (): Journal => ({
  receipts: [],
  statuses: new Map(),
  inbound: [],
  duplicates: [],
  failNext: new Map(),
  slow: new Map(),
  arrivals: [],
  held: 0,
});

function shouldFail(j: Journal, key: string): boolean {
  const left = j.failNext.get(key) ?? 0;
  if (left <= 0) return false;
  j.failNext.set(key, left - 1);
  return true;
}

/** Registers receivers that record into `j`; the out-of-order one behind a hook that notes which ticket each request carries. */
async function mount(app: FastifyInstance, j: Journal): Promise<void> {
  const aggregator = createReceiptAggregator();
  const options: FastifyWebhooksOptions = {
    async onDeliveryReceipt(receipt) {
      const { ticketId } = receipt.mtStatus;
      const delay = j.slow.get(ticketId);
      if (delay !== undefined) {
        j.slow.delete(ticketId);
        await new Promise((r) => setTimeout(r, delay));
      }
      if (shouldFail(j, ticketId)) throw new Error(`receipt store down for ${ticketId}`);
      j.receipts.push(receipt);
      j.statuses.set(ticketId, aggregator.add(receipt));
    },
    async onInboundMessage(message) {
      if (shouldFail(j, message.source.address)) throw new Error('inbox down');
      j.inbound.push(message);
    },
    onDuplicate: (event) => void j.duplicates.push(event),
    onError: () => undefined,
    handlerTimeoutMs: 5000,
  };
  await app.register(fastifyWebhooks, { prefix: '/callbacks', ...options });
  await app.register(async (scope) => {
    // Reads the body ahead of the plugin (handing on a stream of the same bytes) and holds the
    // first request back, so that the parts of a message reach the receiver in the reverse order.
    scope.addHook('preParsing', async (_request, _reply, payload) => {
      const chunks: Buffer[] = [];
      for await (const chunk of payload) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const ticketId = /ticketId="([^"]+)"/.exec(raw.toString('utf8'))?.[1] ?? '?';
      if (j.held++ === 0) await new Promise((r) => setTimeout(r, 250));
      j.arrivals.push(ticketId);
      return Readable.from([raw]);
    });
    await scope.register(fastifyWebhooks, { prefix: '/out-of-order', ...options });
  }, { prefix: '/callbacks' });
}

describe.each(FASTIFY_VERSIONS)('with the sandbox on %s', (_name, createApp) => {
  const clock = createManualClock();
  let sandbox: Sandbox;
  let app: FastifyInstance;
  let origin: string;
  const j = journal();

  beforeAll(async () => {
    app = createApp();
    await mount(app, j);
    origin = await listen(app);
    sandbox = createSandbox({ clock, callbackTimeoutMs: 1000 });
  });

  afterAll(async () => {
    await sandbox.close();
    await app.close();
  });

  const callbackUrl = (): string => `${origin}/callbacks`;

  async function send(destination: string, content: string, format: 'json' | 'xml', extra: Partial<MtRequest['message']> = {}): Promise<string> {
    const mt: MtRequest = {
      destination: { address: destination },
      message: { type: 'text', content, ...extra },
      delivery: { receiptRequested: 'final', url: callbackUrl() },
    };
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', {
        method: 'POST',
        headers: { authorization, 'content-type': format === 'json' ? 'application/json' : 'application/xml' },
        body: encodeMtRequest(mt, format),
      }),
    );
    expect(response.status).toBe(202);
    return (response.headers.get('location') ?? '').split('/').pop() as string;
  }

  /** The sandbox's record of the callbacks for a ticket, newest first. */
  const attempts = (ticketId: string) => sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);
  /** Waits for the sandbox to settle every callback in flight. */
  const settled = () => eventually(() => (sandbox.snapshot().callbacks.every((c) => c.outcome !== undefined) ? true : undefined));

  it.each(['xml', 'json'] as const)('takes a single-part %s receipt once and answers 200', async (format) => {
    const ticketId = await send('14155550100', `Your code is 12${format}`, format);
    await clock.advance(1000);
    const receipt = await eventually(() => j.receipts.find((r) => r.mtStatus.ticketId === ticketId));
    expect(receipt.mtStatus).toMatchObject({ code: 4, description: 'Message delivered' });
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(ticketId)).toHaveLength(1);
    expect(attempts(ticketId)[0]?.httpStatus).toBe(200);
    expect(attempts(ticketId)[0]?.responseBody).toBe('');
  });

  it.each(['xml', 'json'] as const)('folds the %s receipts of a 3-part message into the message status', async (format) => {
    const ticketId = await send('14155550101', 'm'.repeat(400), format, { mlc: 'segment' });
    await clock.advance(2000);
    const status = await eventually(() => {
      const s = j.statuses.get(ticketId);
      return s?.complete === true ? s : undefined;
    });
    expect(status).toMatchObject({ totalSegments: 3, code: 4, outcome: 'delivered', missing: [] });
    expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId).map((r) => r.mtStatus.segmentNumber).sort()).toEqual([1, 2, 3]);
  });

  it('folds a failed part into 830', async () => {
    sandbox.setScenario('14155550102', { kind: 'fail-part', segmentNumber: 2 });
    const ticketId = await send('14155550102', 'p'.repeat(300), 'xml', { mlc: 'segment' });
    await clock.advance(2000);
    const status = await eventually(() => {
      const s = j.statuses.get(ticketId);
      return s?.complete === true ? s : undefined;
    });
    expect(status).toMatchObject({ code: 830, description: 'Partial message delivery failure', outcome: 'failed' });
    expect(status.parts.map((p) => p.code)).toEqual([4, 811]);
  });

  it('answers 500 while the handler fails, and handles the service\'s retry exactly once', async () => {
    const ticketId = await send('14155550103', 'retry me', 'json');
    j.failNext.set(ticketId, 2);
    await clock.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    await clock.advance(10_000);
    await eventually(() => (attempts(ticketId).length === 2 && attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    await clock.advance(20_000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(ticketId).map((a) => a.httpStatus)).toEqual([200, 500, 500]);
    expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
  });

  it('answers a retry that comes while the first delivery is still handled 409, and the later one 200 without handling it again', async () => {
    const ticketId = await send('14155550104', 'slow handler', 'xml');
    j.slow.set(ticketId, 2500); // longer than the sandbox waits for an answer (1000 ms)
    await clock.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    expect(attempts(ticketId)[0]?.error).toMatch(/timeout/);
    await clock.advance(10_000); // the retry arrives while the first is still being handled
    await eventually(() => (attempts(ticketId)[0]?.httpStatus === 409 ? true : undefined));
    await eventually(() => j.receipts.find((r) => r.mtStatus.ticketId === ticketId), 6000);
    await clock.advance(20_000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(j.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
    expect(j.duplicates.some((d) => d.ticketId === ticketId && d.reason === 'seen')).toBe(true);
  });

  it.each(['xml', 'json'] as const)('takes a single-part %s inbound message', async (format) => {
    const from = format === 'xml' ? '14155550110' : '14155550111';
    const injected = sandbox.injectInbound({ from, to: '24273', text: `STOP ${format}`, url: callbackUrl(), format });
    const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
    expect(message).toMatchObject({ text: `STOP ${format}`, type: 'text', complete: true, ticketIds: injected.ticketIds, destination: { address: '24273' } });
  });

  it.each([
    ['xml', 8, '14155550130', 'Long message from a handset: '.repeat(12)],
    ['json', 16, '14155550131', 'Another long one, with a 16-bit reference. '.repeat(8)],
    ['xml', 16, '14155550132', 'Привет! Это длинное сообщение, которое не помещается в одну часть. '.repeat(3)],
    ['json', 8, '14155550133', 'Γειά σου! Ένα μεγάλο μήνυμα σε πολλά κομμάτια. '.repeat(4)],
  ] as const)('reassembles a multipart %s inbound message with %i-bit references (from %s)', async (format, referenceBits, from, text) => {
    const injected = sandbox.injectInbound({ from, to: '24273', text, url: callbackUrl(), format, referenceBits });
    expect(injected.ticketIds.length).toBeGreaterThan(1);
    const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
    expect(message).toMatchObject({ text, complete: true, ticketIds: injected.ticketIds, concatenation: { referenceBits, total: injected.ticketIds.length } });
    expect(j.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
  });

  it('reassembles parts that arrive out of order', async () => {
    const from = '14155550120';
    const text = 'Out of order parts still make one message. '.repeat(5);
    const injected = sandbox.injectInbound({ from, to: '24273', text, url: `${callbackUrl()}/out-of-order`, format: 'xml' });
    expect(injected.ticketIds).toHaveLength(2);
    const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
    expect(j.arrivals).toEqual([...injected.ticketIds].reverse());
    expect(message.text).toBe(text);
    expect(message.ticketIds).toEqual(injected.ticketIds);
  });

  it('keeps the parts when handing over the whole message fails, and hands it over once on the retry', async () => {
    const from = '14155550121';
    const text = 'This message fails to be stored at first. '.repeat(5);
    j.failNext.set(from, 1);
    const injected = sandbox.injectInbound({ from, to: '24273', text, url: callbackUrl(), format: 'json' });
    const failed = await eventually(() => sandbox.snapshot().callbacks.find((c) => injected.ticketIds.includes(c.ticketId) && c.httpStatus === 500));
    expect(failed.outcome).toBe('pending-retry');
    await clock.advance(10_000);
    const message = await eventually(() => j.inbound.find((m) => m.source.address === from));
    expect(message.text).toBe(text);
    await settled();
    expect(j.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
  });
});

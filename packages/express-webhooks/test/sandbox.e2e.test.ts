/**
 * The receiver against @smsv4/sandbox: real receipts and inbound messages posted over loopback by
 * the emulated service, with its retries, in XML and JSON, single and multipart, on Express 4 and 5.
 * The sandbox (the testing kit's) runs on a manual clock, so its retry backoff is advanced by hand.
 */
import type { MtRequest } from '@smsv4/core';
import type { ManualClock, Sandbox } from '@smsv4/sandbox';
import { startSandbox, type TestSandbox } from '@smsv4/testing';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReceiptAggregator,
  createWebhookMiddleware,
  type DeliveryReceipt,
  type DuplicateEvent,
  type InboundMessage,
  type MessageDeliveryStatus,
  type WebhookMiddleware,
} from '../src/index.js';
import { EXPRESS_VERSIONS, eventually, listen, type Listening } from './helpers.js';

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

/** Mounts a receiver that records into `j`, with a spy in front that notes which ticket each request carries. */
function mount(app: Express, j: Journal): WebhookMiddleware {
  const aggregator = createReceiptAggregator();
  const receiver = createWebhookMiddleware({
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
  });
  app.use('/callbacks/out-of-order', (req, _res, next) => {
    // Reads the body ahead of the receiver (leaving it in req.rawBody) and holds the first request
    // back, so that the parts of a message reach the receiver in the reverse order.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      Object.assign(req, { rawBody });
      const ticketId = /ticketId="([^"]+)"/.exec(rawBody.toString('utf8'))?.[1] ?? '?';
      const delay = j.held++ === 0 ? 250 : 0;
      setTimeout(() => {
        j.arrivals.push(ticketId);
        next();
      }, delay);
    });
  });
  app.use('/callbacks', receiver);
  return receiver;
}

describe.each(EXPRESS_VERSIONS)('with the sandbox on %s', (_name, createApp) => {
  let sms: TestSandbox;
  let sandbox: Sandbox;
  let clock: ManualClock;
  let server: Listening;
  let receiver: WebhookMiddleware;
  const j = journal();

  beforeAll(async () => {
    const app = createApp();
    receiver = mount(app, j);
    server = await listen(app);
    sms = await startSandbox({ callbackTimeoutMs: 300 });
    ({ sandbox, clock } = sms);
  });

  afterAll(async () => {
    receiver.close();
    await sms.close();
    await server.close();
  });

  const callbackUrl = (): string => `${server.url}/callbacks`;

  async function send(destination: string, content: string, format: 'json' | 'xml', extra: Partial<MtRequest['message']> = {}): Promise<string> {
    const mt: MtRequest = {
      destination: { address: destination },
      message: { type: 'text', content, ...extra },
      delivery: { receiptRequested: 'final', url: callbackUrl() },
    };
    const sent = await sms.send(mt, { format });
    expect(sent.ok).toBe(true);
    return sent.ok ? sent.value.ticketId : '';
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
    j.slow.set(ticketId, 1500); // longer than the sandbox waits for an answer (300 ms)
    await clock.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    expect(attempts(ticketId)[0]?.error).toMatch(/timeout/);
    await clock.advance(10_000); // the retry arrives while the first is still being handled
    await eventually(() => (attempts(ticketId)[0]?.httpStatus === 409 ? true : undefined));
    await eventually(() => j.receipts.find((r) => r.mtStatus.ticketId === ticketId), 3000);
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

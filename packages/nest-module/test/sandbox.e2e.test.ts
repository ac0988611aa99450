/**
 * The whole loop against @smsv4/sandbox over loopback: a Nest service sends through the injected
 * client, the sandbox posts the receipts and inbound messages (with its retries) to the webhook
 * controller, and decorated methods take them. The sandbox (the testing kit's) runs on a manual clock.
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import type { ManualClock, Sandbox } from '@smsv4/sandbox';
import { startSandbox, type TestSandbox } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InjectSmsClient,
  OnDeliveryReceipt,
  OnInboundMessage,
  SmsModule,
  createReceiptAggregator,
  type DeliveryReceipt,
  type DuplicateEvent,
  type InboundMessage,
  type MessageDeliveryStatus,
  type MtRequest,
  type SmsClient,
} from '../src/index.js';
import { eventually, startApp, type RunningApp } from './helpers.js';

const JOURNAL = 'JOURNAL';

class Journal {
  receipts: DeliveryReceipt[] = [];
  statuses = new Map<string, MessageDeliveryStatus>();
  inbound: InboundMessage[] = [];
  duplicates: DuplicateEvent[] = [];
  failNext = new Map<string, number>();
  slow = new Map<string, number>();
  callbackUrl = '';
}

function take(counts: Map<string, number>, key: string): boolean {
  const left = counts.get(key) ?? 0;
  if (left <= 0) return false;
  counts.set(key, left - 1);
  return true;
}

/** The application's messaging service: sends, and takes what comes back. */
@Injectable()
class MessagingService {
  readonly #aggregator = createReceiptAggregator();

  constructor(
    @InjectSmsClient() private readonly sms: SmsClient,
    @Inject(JOURNAL) private readonly journal: Journal,
  ) {}

  async send(to: string, content: string, extra: Partial<MtRequest['message']> = {}): Promise<string> {
    const sent = await this.sms.send({
      destination: { address: to },
      message: { type: 'text', content, ...extra },
      delivery: { receiptRequested: 'final', url: this.journal.callbackUrl },
    });
    return sent.ticketId;
  }

  @OnDeliveryReceipt()
  async onReceipt(receipt: DeliveryReceipt): Promise<void> {
    const { ticketId } = receipt.mtStatus;
    const delay = this.journal.slow.get(ticketId);
    if (delay !== undefined) {
      this.journal.slow.delete(ticketId);
      await new Promise((r) => setTimeout(r, delay));
    }
    if (take(this.journal.failNext, ticketId)) throw new Error(`receipt store down for ${ticketId}`);
    this.journal.receipts.push(receipt);
    this.journal.statuses.set(ticketId, this.#aggregator.add(receipt));
  }

  @OnInboundMessage()
  async onInbound(message: InboundMessage): Promise<void> {
    if (take(this.journal.failNext, message.source.address)) throw new Error('inbox down');
    this.journal.inbound.push(message);
  }
}

describe.each(['json', 'xml'] as const)('with the sandbox, sending %s', (format) => {
  const journal = new Journal();
  let sms: TestSandbox;
  let sandbox: Sandbox;
  let clock: ManualClock;
  let running: RunningApp;

  beforeAll(async () => {
    sms = await startSandbox({ callbackTimeoutMs: 300 });
    ({ sandbox, clock } = sms);
    @Module({ providers: [{ provide: JOURNAL, useValue: journal }, MessagingService] })
    class MessagingModule {}
    running = await startApp({
      imports: [
        SmsModule.forRoot({
          isGlobal: true,
          client: { ...sms.client, format },
          webhookPath: 'sms/callbacks',
          webhooks: { onDuplicate: (event) => void journal.duplicates.push(event), onError: () => undefined, handlerTimeoutMs: 5000 },
        }),
        MessagingModule,
      ],
    });
    journal.callbackUrl = `${running.url}/sms/callbacks`;
  });

  afterAll(async () => {
    await running?.close();
    await sms?.close();
  });

  const messaging = () => running.app.get(MessagingService);
  const attempts = (ticketId: string) => sandbox.snapshot().callbacks.filter((c) => c.ticketId === ticketId);

  it('sends through the injected client and takes the receipt once, answered 200 with an empty body', async () => {
    const ticketId = await messaging().send('14155550100', 'Your code is 1234');
    await clock.advance(1000);
    const receipt = await eventually(() => journal.receipts.find((r) => r.mtStatus.ticketId === ticketId));
    expect(receipt.mtStatus).toMatchObject({ code: 4, description: 'Message delivered' });
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(ticketId)).toHaveLength(1);
    expect(attempts(ticketId)[0]).toMatchObject({ httpStatus: 200, responseBody: '' });
  });

  it('folds the receipts of a 3-part message, one of them failed, into 830', async () => {
    sandbox.setScenario('14155550102', { kind: 'fail-part', segmentNumber: 2 });
    const ticketId = await messaging().send('14155550102', 'p'.repeat(400), { mlc: 'segment' });
    await clock.advance(2000);
    const status = await eventually(() => {
      const s = journal.statuses.get(ticketId);
      return s?.complete === true ? s : undefined;
    });
    expect(status).toMatchObject({ totalSegments: 3, code: 830, outcome: 'failed' });
    expect(status.parts.map((p) => p.code)).toEqual([4, 811, 4]);
  });

  it('answers 500 while the handler fails, and handles the service\'s retry exactly once', async () => {
    const ticketId = await messaging().send('14155550103', 'retry me');
    journal.failNext.set(ticketId, 2);
    await clock.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    await clock.advance(10_000);
    await eventually(() => (attempts(ticketId).length === 2 && attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    await clock.advance(20_000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(attempts(ticketId).map((a) => a.httpStatus)).toEqual([200, 500, 500]);
    expect(journal.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
  });

  it('answers a retry that comes while the first delivery is still handled 409, and the next one 200 as a duplicate', async () => {
    const ticketId = await messaging().send('14155550104', 'slow handler');
    journal.slow.set(ticketId, 1500); // longer than the sandbox waits for an answer (300 ms)
    await clock.advance(1000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'pending-retry' ? true : undefined));
    await clock.advance(10_000);
    await eventually(() => (attempts(ticketId)[0]?.httpStatus === 409 ? true : undefined));
    await eventually(() => journal.receipts.find((r) => r.mtStatus.ticketId === ticketId), 3000);
    await clock.advance(20_000);
    await eventually(() => (attempts(ticketId)[0]?.outcome === 'delivered' ? true : undefined));
    expect(journal.receipts.filter((r) => r.mtStatus.ticketId === ticketId)).toHaveLength(1);
    expect(journal.duplicates.some((d) => d.ticketId === ticketId && d.reason === 'seen')).toBe(true);
  });

  it.each([
    ['14155550130', 8, 'Long message from a handset: '.repeat(12)],
    ['14155550131', 16, 'Привет! Это длинное сообщение, которое не помещается в одну часть. '.repeat(3)],
  ] as const)('takes the multipart inbound message from %s (%i-bit reference) once, reassembled', async (from, referenceBits, text) => {
    const injected = sandbox.injectInbound({ from, to: '24273', text, url: journal.callbackUrl, format, referenceBits });
    expect(injected.ticketIds.length).toBeGreaterThan(1);
    const message = await eventually(() => journal.inbound.find((m) => m.source.address === from));
    expect(message).toMatchObject({ text, complete: true, ticketIds: injected.ticketIds, concatenation: { referenceBits, total: injected.ticketIds.length }, format });
    expect(journal.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
  });

  it('keeps the parts when the inbound handler fails, and hands the message over once on the retry', async () => {
    const from = '14155550121';
    const text = 'This message fails to be stored at first. '.repeat(5);
    journal.failNext.set(from, 1);
    const injected = sandbox.injectInbound({ from, to: '24273', text: `STOP ${text}`, url: journal.callbackUrl, format });
    const failed = await eventually(() => sandbox.snapshot().callbacks.find((c) => injected.ticketIds.includes(c.ticketId) && c.httpStatus === 500));
    expect(failed.outcome).toBe('pending-retry');
    await clock.advance(10_000);
    const message = await eventually(() => journal.inbound.find((m) => m.source.address === from));
    expect(message.text).toBe(`STOP ${text}`);
    await eventually(() => (sandbox.snapshot().callbacks.every((c) => c.outcome !== undefined) ? true : undefined));
    expect(journal.inbound.filter((m) => m.source.address === from)).toHaveLength(1);
  });
});

/**
 * The whole loop against @smsv4/sandbox over loopback: a Nest service sends through the injected
 * client, the sandbox posts the receipts to the webhook controller, and a decorated method takes
 * them. The sandbox (the testing kit's) runs on a manual clock. The sandbox's retries, duplicates and
 * inbound messages against the controller are in the receiver conformance suite (conformance.e2e.test.ts).
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import type { ManualClock, Sandbox } from '@smsv4/sandbox';
import { startSandbox, type TestSandbox } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InjectSmsClient,
  OnDeliveryReceipt,
  SmsModule,
  createReceiptAggregator,
  type DeliveryReceipt,
  type MessageDeliveryStatus,
  type MtRequest,
  type SmsClient,
} from '../src/index.js';
import { eventually, startApp, type RunningApp } from './helpers.js';

const JOURNAL = 'JOURNAL';

class Journal {
  receipts: DeliveryReceipt[] = [];
  statuses = new Map<string, MessageDeliveryStatus>();
  callbackUrl = '';
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
    this.journal.receipts.push(receipt);
    this.journal.statuses.set(receipt.mtStatus.ticketId, this.#aggregator.add(receipt));
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
          webhooks: { allowUnauthenticated: true, onError: () => undefined, handlerTimeoutMs: 5000 },
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
});

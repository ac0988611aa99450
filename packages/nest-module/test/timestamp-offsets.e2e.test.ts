/**
 * Timestamps with offsets, end to end through Nest: the sandbox posts the receipts of a multipart
 * message and multipart inbound messages with `deliveryDate` / `submittedDate` at offsets that
 * change between events (+14:00, -12:00, +05:30, -05:00), so that the texts do not sort as the
 * instants do. The webhook controller takes every one (200), the decorated methods get each event
 * once, with the UTC instant, in order of instant.
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import { basicAuthorization, encodeMtRequest, type MtRequest } from '@smsv4/core';
import { createManualClock, createSandbox, type Sandbox } from '@smsv4/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OnDeliveryReceipt,
  OnInboundMessage,
  SmsModule,
  createReceiptAggregator,
  timestampInstant,
  type DeliveryReceipt,
  type InboundMessage,
  type MessageDeliveryStatus,
  type NestPlatform,
  type WebhookContext,
} from '../src/index.js';
import { eventually, startApp, type RunningApp } from './helpers.js';

const JOURNAL = 'JOURNAL';
const START = Date.UTC(2025, 0, 1, 11, 30);

class Journal {
  handled: { kind: 'receipt' | 'inbound'; key: string; text: string; instant: string }[] = [];
  statuses = new Map<string, MessageDeliveryStatus>();
}

@Injectable()
class CallbackService {
  readonly #aggregator = createReceiptAggregator();

  constructor(@Inject(JOURNAL) private readonly journal: Journal) {}

  @OnDeliveryReceipt()
  onReceipt(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>): void {
    this.journal.handled.push({ kind: 'receipt', key: context.key, text: receipt.mtStatus.deliveryDate ?? '', instant: context.instant ?? '' });
    this.journal.statuses.set(receipt.mtStatus.ticketId, this.#aggregator.add(receipt));
  }

  @OnInboundMessage()
  onInbound(message: InboundMessage, context: WebhookContext<NestPlatform>): void {
    this.journal.handled.push({ kind: 'inbound', key: context.key, text: message.submittedDate ?? '', instant: context.instant ?? '' });
  }
}

describe('timestamps with offsets through the Nest webhook controller', () => {
  const clock = createManualClock({ start: START });
  const journal = new Journal();
  let sandbox: Sandbox;
  let running: RunningApp;
  let callbackUrl = '';

  beforeAll(async () => {
    sandbox = createSandbox({ clock, callbackTimeoutMs: 2000, callbackTimestampOffset: '+14:00' });
    @Module({ providers: [{ provide: JOURNAL, useValue: journal }, CallbackService] })
    class CallbackModule {}
    running = await startApp({
      imports: [
        SmsModule.forRoot({
          client: { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' },
          webhookPath: 'sms/callbacks',
          webhooks: { onError: () => undefined },
        }),
        CallbackModule,
      ],
    });
    callbackUrl = `${running.url}/sms/callbacks`;
  });

  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
  });

  async function send(destination: string, content: string, format: 'json' | 'xml'): Promise<string> {
    const mt: MtRequest = { destination: { address: destination }, message: { type: 'text', content, mlc: 'segment' }, delivery: { receiptRequested: 'final', url: callbackUrl } };
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' }), 'content-type': `application/${format}` },
        body: encodeMtRequest(mt, format),
      }),
    );
    expect(response.status).toBe(202);
    return (response.headers.get('location') ?? '').split('/').pop() as string;
  }

  const handledCount = (n: number) => eventually(() => (journal.handled.length === n ? true : undefined));

  it('takes every receipt and inbound part, hands each event over once, in order of instant', async () => {
    const multipart = await send('14155550100', 'n'.repeat(400), 'json');
    // One receipt due at a time, so that the order of arrival is the service's and not a race of posts.
    for (const [stepMs, count] of [[1000, 1], [100, 2], [100, 3]] as const) {
      await clock.advance(stepMs);
      await handledCount(count);
    }
    await clock.advance(300);
    await clock.advance(60_000);

    sandbox.updateSettings({ callbackTimestampOffset: '-12:00' });
    const inbound1 = sandbox.injectInbound({ from: '447700900123', to: '24273', text: 'Long reply from a handset. '.repeat(8), url: callbackUrl, format: 'xml' });
    await handledCount(4);
    await clock.advance(60_000);

    sandbox.updateSettings({ callbackTimestampOffset: '+05:30' });
    const single = await send('14155550101', 'Your code is 1234', 'xml');
    await clock.advance(1500);
    await handledCount(5);
    await clock.advance(60_000);

    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
    const inbound2 = sandbox.injectInbound({ from: '14155550199', to: '24273', text: 'Second long reply, sixteen-bit reference. '.repeat(6), referenceBits: 16, url: callbackUrl, format: 'json' });
    await handledCount(6);

    const expected = 3 + inbound1.ticketIds.length + 1 + inbound2.ticketIds.length;
    const attempts = await eventually(() => {
      const callbacks = sandbox.snapshot().callbacks;
      return callbacks.length >= expected && callbacks.every((c) => c.outcome !== undefined) ? callbacks : undefined;
    });
    expect(attempts).toHaveLength(expected);
    expect(attempts.every((a) => a.attempt === 1 && a.httpStatus === 200)).toBe(true);

    const { handled } = journal;
    expect(new Set(handled.map((h) => h.key)).size).toBe(6);
    expect(handled.map((h) => h.kind)).toEqual(['receipt', 'receipt', 'receipt', 'inbound', 'receipt', 'inbound']);
    expect(handled.map((h) => h.text.slice(-6))).toEqual(['+14:00', '+14:00', '+14:00', '-12:00', '+05:30', '-05:00']);
    for (const h of handled) expect(h.instant).toBe(timestampInstant(h.text));
    const instants = handled.map((h) => h.instant);
    expect([...instants].sort()).toEqual(instants);
    expect(new Set(instants).size).toBe(6);
    expect([...handled.map((h) => h.text)].sort()).not.toEqual(handled.map((h) => h.text));
    expect(instants.slice(0, 3)).toEqual([1000, 1100, 1200].map((ms) => new Date(START + ms).toISOString()));
    expect(journal.statuses.get(multipart)).toMatchObject({ complete: true, code: 4, lastDeliveryInstant: instants[2] });
    expect(journal.statuses.get(single)).toMatchObject({ complete: true, lastDeliveryInstant: instants[4] });
  });
});

/**
 * Timestamps with offsets, end to end through Nest: the sandbox posts the receipts of a multipart
 * message and multipart inbound messages with `deliveryDate` / `submittedDate` at offsets that
 * change between events (+14:00, -12:00, +05:30, -05:00), so that the texts do not sort as the
 * instants do. The webhook controller takes every one (200), the decorated methods get each event
 * once, with the UTC instant, in order of instant. Then the service's retries (every first post's
 * answer lost, a handler that fails once) and the parts of one inbound message written at
 * different offsets, posted out of order and twice.
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import { basicAuthorization, encodeMobileOriginate, encodeMtRequest, formatTimestamp, type MtRequest } from '@smsv4/core';
import { createManualClock, createSandbox, type Sandbox } from '@smsv4/sandbox';
import { buildMultipartInbound, postCallback } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OnDeliveryReceipt,
  OnInboundMessage,
  SmsModule,
  createReceiptAggregator,
  timestampInstant,
  type DeliveryReceipt,
  type DuplicateEvent,
  type InboundMessage,
  type MessageDeliveryStatus,
  type NestPlatform,
  type WebhookContext,
} from '../src/index.js';
import { eventually, startApp, type RunningApp } from './helpers.js';

const JOURNAL = 'JOURNAL';
const START = Date.UTC(2025, 0, 1, 11, 30);

class Journal {
  handled: { kind: 'receipt' | 'inbound'; key: string; text: string; instant: string; parts: number }[] = [];
  inbound: InboundMessage[] = [];
  statuses = new Map<string, MessageDeliveryStatus>();
  /** Inbound texts whose handler fails the first time. */
  failOnce = new Set<string>();
}

@Injectable()
class CallbackService {
  readonly #aggregator = createReceiptAggregator();

  constructor(@Inject(JOURNAL) private readonly journal: Journal) {}

  @OnDeliveryReceipt()
  onReceipt(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>): void {
    this.journal.handled.push({ kind: 'receipt', key: context.key, text: receipt.mtStatus.deliveryDate ?? '', instant: context.instant ?? '', parts: 1 });
    this.journal.statuses.set(receipt.mtStatus.ticketId, this.#aggregator.add(receipt));
  }

  @OnInboundMessage()
  onInbound(message: InboundMessage, context: WebhookContext<NestPlatform>): void {
    if (message.text !== undefined && this.journal.failOnce.delete(message.text)) throw new Error('the database is down');
    this.journal.handled.push({ kind: 'inbound', key: context.key, text: message.submittedDate ?? '', instant: context.instant ?? '', parts: message.parts.length });
    this.journal.inbound.push(message);
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
          webhooks: { allowUnauthenticated: true, onError: () => undefined },
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
    expect(inbound1.ticketIds.length).toBeGreaterThan(1);
    await handledCount(4);
    await clock.advance(60_000);

    sandbox.updateSettings({ callbackTimestampOffset: '+05:30' });
    const single = await send('14155550101', 'Your code is 1234', 'xml');
    await clock.advance(1500);
    await handledCount(5);
    await clock.advance(60_000);

    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
    const inbound2 = sandbox.injectInbound({ from: '14155550199', to: '24273', text: 'Second long reply, sixteen-bit reference. '.repeat(6), referenceBits: 16, url: callbackUrl, format: 'json' });
    expect(inbound2.ticketIds.length).toBeGreaterThan(1);
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
    // Each inbound message reached the handler joined, with every one of its parts.
    expect(handled.filter((h) => h.kind === 'inbound').map((h) => h.parts)).toEqual([inbound1.ticketIds.length, inbound2.ticketIds.length]);
    expect(journal.inbound.map((m) => m.ticketIds)).toEqual([inbound1.ticketIds, inbound2.ticketIds]);
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

describe('retries, duplicates and parts at different offsets through the Nest webhook controller', () => {
  const start = Date.UTC(2025, 3, 1, 8);
  const clock = createManualClock({ start });
  const journal = new Journal();
  const duplicates: DuplicateEvent[] = [];
  /** What the receiver really answered to each post, by body (the sandbox may have been told otherwise). */
  const answered = new Map<string, number[]>();
  let sandbox: Sandbox;
  let running: RunningApp;
  let callbackUrl = '';

  beforeAll(async () => {
    @Module({ providers: [{ provide: JOURNAL, useValue: journal }, CallbackService] })
    class RetryCallbackModule {}
    running = await startApp({
      imports: [
        SmsModule.forRoot({
          client: { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' },
          webhookPath: 'sms/callbacks',
          webhooks: { allowUnauthenticated: true, onError: () => undefined, onDuplicate: (event) => void duplicates.push(event) },
        }),
        RetryCallbackModule,
      ],
    });
    callbackUrl = `${running.url}/sms/callbacks`;
    // The service's side of a lost answer: the receiver took the post, the answer never came back,
    // so the first attempt of every callback counts as failed and is retried with the same body.
    const posted = new Set<string>();
    const losingFirstAnswers: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const text = await response.text();
      const body = String(init?.body);
      answered.set(body, [...(answered.get(body) ?? []), response.status]);
      if (!posted.has(body)) {
        posted.add(body);
        return new Response('answer lost upstream', { status: 502 });
      }
      return new Response(text, { status: response.status, headers: response.headers });
    };
    sandbox = createSandbox({ clock, callbackTimeoutMs: 2000, callbackTimestampOffset: '+14:00', fetch: losingFirstAnswers });
  });

  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
  });

  const handledCount = (n: number) => eventually(() => (journal.handled.length === n ? true : undefined));

  it('hands each event over once however often the service posts it, in order of instant', async () => {
    const mt: MtRequest = { destination: { address: '14155550100' }, message: { type: 'text', content: 'q'.repeat(400), mlc: 'segment' }, delivery: { receiptRequested: 'final', url: callbackUrl } };
    const sent = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', {
        method: 'POST',
        headers: { authorization: basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' }), 'content-type': 'application/json' },
        body: encodeMtRequest(mt, 'json'),
      }),
    );
    expect(sent.status).toBe(202);
    for (const [stepMs, count] of [[1000, 1], [100, 2], [100, 3]] as const) {
      await clock.advance(stepMs);
      await handledCount(count);
    }
    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
    const parts = sandbox.injectInbound({ from: '447700900123', to: '24273', text: 'A long reply posted twice per part. '.repeat(6), url: callbackUrl, format: 'xml' });
    expect(parts.ticketIds.length).toBeGreaterThan(1);
    await handledCount(4);
    await clock.advance(1000);
    sandbox.updateSettings({ callbackTimestampOffset: '+09:30' });
    journal.failOnce.add('STOP');
    sandbox.injectInbound({ from: '447700900124', to: '24273', text: 'STOP', url: callbackUrl, format: 'json' });
    const total = 3 + parts.ticketIds.length + 1;
    await eventually(() => (answered.size === total ? true : undefined));
    expect(journal.handled).toHaveLength(4);

    // The retries, 10 s later (simulated): the same bodies again.
    await clock.advance(10_000);
    const attempts = await eventually(() => {
      const callbacks = sandbox.snapshot().callbacks;
      return callbacks.length >= 2 * total && callbacks.every((c) => c.outcome !== 'pending-retry' || c.attempt === 1) ? callbacks : undefined;
    });
    expect(attempts.filter((a) => a.attempt === 1).every((a) => a.outcome === 'pending-retry' && a.httpStatus === 502)).toBe(true);
    expect(attempts.filter((a) => a.attempt === 2).map((a) => [a.outcome, a.httpStatus])).toEqual(Array.from({ length: total }, () => ['delivered', 200]));

    const { handled } = journal;
    expect([...answered.values()].every((statuses) => statuses.length === 2)).toBe(true);
    expect(handled.map((h) => h.kind)).toEqual(['receipt', 'receipt', 'receipt', 'inbound', 'inbound']);
    expect(new Set(handled.map((h) => h.key)).size).toBe(5);
    expect([...answered.values()].filter((statuses) => statuses[0] === 500)).toEqual([[500, 200]]);
    expect(duplicates.map((d) => d.kind).sort()).toEqual([...Array(3).fill('delivery-receipt'), ...Array(parts.ticketIds.length).fill('inbound-message')].sort());
    expect(duplicates.every((d) => d.reason === 'seen')).toBe(true);

    // The multipart message really had several parts, joined once; every instant is UTC and in order.
    expect(handled[3]?.parts).toBe(parts.ticketIds.length);
    expect(journal.inbound[0]?.ticketIds).toEqual(parts.ticketIds);
    expect(handled.map((h) => h.text.slice(-6))).toEqual(['+14:00', '+14:00', '+14:00', '-05:00', '+09:30']);
    for (const h of handled) expect(h.instant).toBe(timestampInstant(h.text));
    const instants = handled.map((h) => h.instant);
    expect([...instants].sort()).toEqual(instants);
    expect([...handled.map((h) => h.text)].sort()).not.toEqual(handled.map((h) => h.text));
  });

  it('dates a multipart inbound message by its earliest part, compared as instants, whatever offsets and order the parts come in', async () => {
    const before = journal.handled.length;
    const { parts, text } = buildMultipartInbound({ text: 'Parts written in three time zones. '.repeat(10), format: 'json' });
    expect(parts).toHaveLength(3);
    const base = start + 3_600_000;
    // Part 1 at base+2 s written at -05:00, part 2 at base (the earliest) at +14:00, part 3 at base+1 s in UTC:
    // as texts, part 1 sorts first and part 2 last; as instants, part 2 is first.
    const written = [formatTimestamp(base + 2000, '-05:00'), formatTimestamp(base, '+14:00'), formatTimestamp(base + 1000, 'Z')];
    const bodies = parts.map((part, i) => encodeMobileOriginate({ ...part.value, submittedDate: written[i] as string }, 'json'));
    expect([...written].sort()[0]).toBe(written[0]);
    for (const i of [2, 0, 2, 1]) {
      const report = await postCallback(callbackUrl, bodies[i] as string, { format: 'json' });
      expect(report.status).toBe(200);
    }
    await handledCount(before + 1);
    const message = journal.inbound.at(-1) as InboundMessage;
    expect(message.text).toBe(text);
    expect(message.parts).toHaveLength(3);
    expect(message.ticketIds).toEqual(parts.map((p) => p.value.ticketId));
    expect(message.parts.map((p) => p.submittedDate)).toEqual(written);
    expect(message.submittedDate).toBe(written[1]);
    expect(message.submittedInstant).toBe(new Date(base).toISOString());
    expect(journal.handled.at(-1)?.instant).toBe(new Date(base).toISOString());
    expect(duplicates.at(-1)).toMatchObject({ kind: 'inbound-message', reason: 'seen', ticketId: parts[2]?.value.ticketId });
    expect(journal.handled).toHaveLength(before + 1);
  });
});

/**
 * Timestamps with offsets, end to end: the sandbox posts receipts of a multipart message and
 * multipart inbound messages with `deliveryDate` / `submittedDate` written at offsets that change
 * between events (+14:00, -12:00, +05:30, -05:00), so that the texts do not sort as the instants
 * do. The receiver takes every one (200), hands each over once, with the UTC instant, and the
 * events come to the handlers in order of instant.
 */
import { basicAuthorization, encodeMtRequest, type MtRequest } from '@smsv4/core';
import { createManualClock, createSandbox, type Sandbox } from '@smsv4/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiptAggregator, createWebhookMiddleware, timestampInstant, type MessageDeliveryStatus, type WebhookMiddleware } from '../src/index.js';
import { EXPRESS_VERSIONS, eventually, listen, type Listening } from './helpers.js';

const authorization = basicAuthorization({ accountId: 'sandbox', password: 'sandbox-password' });

/** One event as a handler took it. */
interface Handled {
  readonly kind: 'receipt' | 'inbound';
  readonly key: string;
  /** The timestamp as the service wrote it. */
  readonly text: string;
  /** `context.instant`. */
  readonly instant: string;
}

describe.each(EXPRESS_VERSIONS)('timestamps with offsets on %s', (_name, createApp) => {
  const clock = createManualClock({ start: Date.UTC(2025, 0, 1, 11, 30) });
  const handled: Handled[] = [];
  const statuses = new Map<string, MessageDeliveryStatus>();
  let sandbox: Sandbox;
  let server: Listening;
  let receiver: WebhookMiddleware;

  beforeAll(async () => {
    const app = createApp();
    const aggregator = createReceiptAggregator();
    receiver = createWebhookMiddleware({
      onDeliveryReceipt(receipt, context) {
        handled.push({ kind: 'receipt', key: context.key, text: receipt.mtStatus.deliveryDate ?? '', instant: context.instant ?? '' });
        statuses.set(receipt.mtStatus.ticketId, aggregator.add(receipt));
      },
      onInboundMessage(message, context) {
        handled.push({ kind: 'inbound', key: context.key, text: message.submittedDate ?? '', instant: context.instant ?? '' });
      },
      onError: () => undefined,
    });
    app.use('/callbacks', receiver);
    server = await listen(app);
    sandbox = createSandbox({ clock, callbackTimeoutMs: 2000, callbackTimestampOffset: '+14:00' });
  });

  afterAll(async () => {
    receiver.close();
    await sandbox.close();
    await server.close();
  });

  async function send(destination: string, content: string, format: 'json' | 'xml'): Promise<string> {
    const mt: MtRequest = {
      destination: { address: destination },
      message: { type: 'text', content, mlc: 'segment' },
      delivery: { receiptRequested: 'final', url: `${server.url}/callbacks` },
    };
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', {
        method: 'POST',
        headers: { authorization, 'content-type': `application/${format}` },
        body: encodeMtRequest(mt, format),
      }),
    );
    expect(response.status).toBe(202);
    return (response.headers.get('location') ?? '').split('/').pop() as string;
  }

  /** Waits until the sandbox has recorded `count` callback attempts, none still open. */
  const settled = (count: number) =>
    eventually(() => {
      const callbacks = sandbox.snapshot().callbacks;
      return callbacks.length >= count && callbacks.every((c) => c.outcome !== undefined) ? callbacks : undefined;
    });

  it('takes every receipt and inbound part, hands each event over once, in order of instant', async () => {
    // +14:00: the three receipts of a multipart message, 1 s, 1.1 s and 1.2 s after the send.
    const multipart = await send('14155550100', 'm'.repeat(400), 'xml');
    // One receipt due at a time, so that the order of arrival is the service's and not a race of posts.
    for (const [stepMs, count] of [[1000, 1], [100, 2], [100, 3]] as const) {
      await clock.advance(stepMs);
      await eventually(() => (handled.length === count ? true : undefined));
    }
    await clock.advance(300);
    await clock.advance(60_000);

    // -12:00: a multipart inbound message (two parts), written 26 hours "earlier" on the wall clock.
    sandbox.updateSettings({ callbackTimestampOffset: '-12:00' });
    const inbound1 = sandbox.injectInbound({ from: '447700900123', to: '24273', text: 'Long reply from a handset. '.repeat(8), url: `${server.url}/callbacks`, format: 'json' });
    expect(inbound1.ticketIds).toHaveLength(2);
    await eventually(() => (handled.length === 4 ? true : undefined));
    await clock.advance(60_000);

    // +05:30: a single-part message and its receipt, in JSON.
    sandbox.updateSettings({ callbackTimestampOffset: '+05:30' });
    const single = await send('14155550101', 'Your code is 1234', 'json');
    await clock.advance(1500);
    await eventually(() => (handled.length === 5 ? true : undefined));
    await clock.advance(60_000);

    // -05:00: another multipart inbound message, 16-bit reference, XML.
    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
    const inbound2 = sandbox.injectInbound({ from: '14155550199', to: '24273', text: 'Second long reply, sixteen-bit reference. '.repeat(6), referenceBits: 16, url: `${server.url}/callbacks`, format: 'xml' });
    expect(inbound2.ticketIds.length).toBeGreaterThan(1);
    await eventually(() => (handled.length === 6 ? true : undefined));
    const expected = 3 + inbound1.ticketIds.length + 1 + inbound2.ticketIds.length;
    await settled(expected);

    // Every callback was taken at the first attempt (no 4xx, no retry), every event handled once.
    const attempts = sandbox.snapshot().callbacks;
    expect(attempts).toHaveLength(expected);
    expect(attempts.every((a) => a.attempt === 1 && a.httpStatus === 200)).toBe(true);
    expect(new Set(handled.map((h) => h.key)).size).toBe(handled.length);
    expect(handled.map((h) => h.kind)).toEqual(['receipt', 'receipt', 'receipt', 'inbound', 'receipt', 'inbound']);

    // The texts carry the offsets, the instants are UTC, and the handlers saw them in order of instant.
    expect(handled.map((h) => h.text.slice(-6))).toEqual(['+14:00', '+14:00', '+14:00', '-12:00', '+05:30', '-05:00']);
    for (const h of handled) expect(h.instant).toBe(timestampInstant(h.text));
    const instants = handled.map((h) => h.instant);
    expect([...instants].sort()).toEqual(instants);
    expect(new Set(instants).size).toBe(instants.length);
    // Sorting the texts would not give that order: the offsets are what makes this test bite.
    expect([...handled.map((h) => h.text)].sort()).not.toEqual(handled.map((h) => h.text));

    // Each instant is the sandbox's own moment of that event.
    const start = Date.UTC(2025, 0, 1, 11, 30);
    expect(instants.slice(0, 3)).toEqual([1000, 1100, 1200].map((ms) => new Date(start + ms).toISOString()));
    const status = statuses.get(multipart);
    expect(status).toMatchObject({ complete: true, code: 4, lastDeliveryInstant: instants[2] });
    expect(status?.parts.map((p) => p.deliveryInstant)).toEqual(instants.slice(0, 3));
    expect(statuses.get(single)).toMatchObject({ complete: true, lastDeliveryInstant: instants[4] });
  });
});

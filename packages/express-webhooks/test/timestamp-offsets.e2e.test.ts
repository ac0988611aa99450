/**
 * Timestamps with offsets, end to end: the sandbox posts receipts of a multipart message and
 * multipart inbound messages with `deliveryDate` / `submittedDate` written at offsets that change
 * between events (+14:00, -12:00, +05:30, -05:00), so that the texts do not sort as the instants
 * do. The receiver takes every one (200), hands each over once, with the UTC instant, and the
 * events come to the handlers in order of instant. Then the service's retries: every first post's
 * answer lost (the sandbox retries the same body), a handler that fails once; and the parts of one
 * inbound message written at different offsets, posted out of order and twice.
 */
import { basicAuthorization, encodeMobileOriginate, encodeMtRequest, formatTimestamp, type MtRequest } from '@smsv4/core';
import { createManualClock, createSandbox, type Sandbox } from '@smsv4/sandbox';
import { buildMultipartInbound, postCallback } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReceiptAggregator,
  createWebhookMiddleware,
  timestampInstant,
  type DuplicateEvent,
  type InboundMessage,
  type MessageDeliveryStatus,
  type WebhookMiddleware,
} from '../src/index.js';
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
      allowUnauthenticated: true,
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

describe.each(EXPRESS_VERSIONS)('retries, duplicates and parts at different offsets on %s', (_name, createApp) => {
  const start = Date.UTC(2025, 3, 1, 8);
  const clock = createManualClock({ start });
  const handled: (Handled & { parts: number })[] = [];
  const inbound: InboundMessage[] = [];
  const duplicates: DuplicateEvent[] = [];
  /** What the receiver really answered to each post, by body (the sandbox may have been told otherwise). */
  const answered = new Map<string, number[]>();
  /** Inbound texts whose handler fails the first time (the receiver answers 500, the service retries). */
  const failOnce = new Set<string>();
  let sandbox: Sandbox;
  let server: Listening;
  let receiver: WebhookMiddleware;

  beforeAll(async () => {
    const app = createApp();
    receiver = createWebhookMiddleware({
      allowUnauthenticated: true,
      onDeliveryReceipt(receipt, context) {
        handled.push({ kind: 'receipt', key: context.key, text: receipt.mtStatus.deliveryDate ?? '', instant: context.instant ?? '', parts: 1 });
      },
      onInboundMessage(message, context) {
        if (message.text !== undefined && failOnce.delete(message.text)) throw new Error('the database is down');
        handled.push({ kind: 'inbound', key: context.key, text: message.submittedDate ?? '', instant: context.instant ?? '', parts: message.parts.length });
        inbound.push(message);
      },
      onDuplicate: (event) => void duplicates.push(event),
      onError: () => undefined,
    });
    app.use('/callbacks', receiver);
    server = await listen(app);
    // The service's side of a lost answer: the receiver took the post, the answer never came back
    // (a proxy timed out), so the first attempt of every callback counts as failed and is retried.
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
    receiver.close();
    await sandbox.close();
    await server.close();
  });

  it('hands each event over once however often the service posts it, in order of instant', async () => {
    const mt: MtRequest = { destination: { address: '14155550100' }, message: { type: 'text', content: 'r'.repeat(400), mlc: 'segment' }, delivery: { receiptRequested: 'final', url: `${server.url}/callbacks` } };
    const sent = await sandbox.fetch(
      new Request('http://sandbox.test/sms/v4/mt', { method: 'POST', headers: { authorization, 'content-type': 'application/xml' }, body: encodeMtRequest(mt, 'xml') }),
    );
    expect(sent.status).toBe(202);
    for (const [stepMs, count] of [[1000, 1], [100, 2], [100, 3]] as const) {
      await clock.advance(stepMs);
      await eventually(() => (handled.length === count ? true : undefined));
    }
    sandbox.updateSettings({ callbackTimestampOffset: '-05:00' });
    const parts = sandbox.injectInbound({ from: '447700900123', to: '24273', text: 'A long reply posted twice per part. '.repeat(6), url: `${server.url}/callbacks`, format: 'json' });
    expect(parts.ticketIds.length).toBeGreaterThan(1);
    await eventually(() => (handled.length === 4 ? true : undefined));
    await clock.advance(1000);
    sandbox.updateSettings({ callbackTimestampOffset: '+09:30' });
    failOnce.add('STOP');
    sandbox.injectInbound({ from: '447700900124', to: '24273', text: 'STOP', url: `${server.url}/callbacks`, format: 'xml' });
    await eventually(() => (answered.size === 3 + parts.ticketIds.length + 1 ? true : undefined));
    expect(handled).toHaveLength(4);

    // The retries, 10 s later (simulated): the same bodies again.
    await clock.advance(10_000);
    const total = 3 + parts.ticketIds.length + 1;
    const attempts = await eventually(() => {
      const callbacks = sandbox.snapshot().callbacks;
      return callbacks.length >= 2 * total && callbacks.every((c) => c.outcome !== 'pending-retry' || c.attempt === 1) ? callbacks : undefined;
    });
    expect(attempts.filter((a) => a.attempt === 1).every((a) => a.outcome === 'pending-retry' && a.httpStatus === 502)).toBe(true);
    expect(attempts.filter((a) => a.attempt === 2).map((a) => [a.outcome, a.httpStatus])).toEqual(Array.from({ length: total }, () => ['delivered', 200]));

    // Every body reached the receiver twice; every event was handled once.
    expect([...answered.values()].every((statuses) => statuses.length === 2)).toBe(true);
    expect(handled.map((h) => h.kind)).toEqual(['receipt', 'receipt', 'receipt', 'inbound', 'inbound']);
    expect(new Set(handled.map((h) => h.key)).size).toBe(5);
    // The failed handler got its retry (500, then 200); every other second post was a duplicate, answered 200 unhandled.
    expect([...answered.values()].filter((statuses) => statuses[0] === 500)).toEqual([[500, 200]]);
    expect(duplicates.map((d) => d.kind).sort()).toEqual([...Array(3).fill('delivery-receipt'), ...Array(parts.ticketIds.length).fill('inbound-message')].sort());
    expect(duplicates.every((d) => d.reason === 'seen')).toBe(true);

    // The multipart message really had several parts; every instant is UTC and in order.
    expect(handled[3]?.parts).toBe(parts.ticketIds.length);
    expect(handled.map((h) => h.text.slice(-6))).toEqual(['+14:00', '+14:00', '+14:00', '-05:00', '+09:30']);
    for (const h of handled) expect(h.instant).toBe(timestampInstant(h.text));
    const instants = handled.map((h) => h.instant);
    expect([...instants].sort()).toEqual(instants);
    expect([...handled.map((h) => h.text)].sort()).not.toEqual(handled.map((h) => h.text));
  });

  it('dates a multipart inbound message by its earliest part, compared as instants, whatever offsets and order the parts come in', async () => {
    const before = handled.length;
    const { parts, text } = buildMultipartInbound({ text: 'Parts written in three time zones. '.repeat(10), referenceBits: 16, format: 'xml' });
    expect(parts).toHaveLength(3);
    const base = start + 3_600_000;
    // Part 1 at base+2 s written at -05:00, part 2 at base (the earliest) at +14:00, part 3 at base+1 s in UTC:
    // as texts, part 1 sorts first and part 2 last; as instants, part 2 is first.
    const written = [formatTimestamp(base + 2000, '-05:00'), formatTimestamp(base, '+14:00'), formatTimestamp(base + 1000, 'Z')];
    const bodies = parts.map((part, i) => encodeMobileOriginate({ ...part.value, submittedDate: written[i] as string }, 'xml'));
    expect([...written].sort()[0]).toBe(written[0]);
    // Posted out of order, the last part twice, as the service may.
    for (const i of [2, 0, 2, 1]) {
      const report = await postCallback(`${server.url}/callbacks`, bodies[i] as string, { format: 'xml' });
      expect(report.status).toBe(200);
    }
    await eventually(() => (handled.length === before + 1 ? true : undefined));
    const message = inbound.at(-1) as InboundMessage;
    expect(message.text).toBe(text);
    expect(message.parts).toHaveLength(3);
    expect(message.ticketIds).toEqual(parts.map((p) => p.value.ticketId));
    expect(message.parts.map((p) => p.submittedDate)).toEqual(written);
    expect(message.submittedDate).toBe(written[1]);
    expect(message.submittedInstant).toBe(new Date(base).toISOString());
    expect(handled.at(-1)?.instant).toBe(new Date(base).toISOString());
    expect(duplicates.at(-1)).toMatchObject({ kind: 'inbound-message', reason: 'seen', ticketId: parts[2]?.value.ticketId });
    expect(handled).toHaveLength(before + 1);
  });
});

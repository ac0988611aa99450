/**
 * What a handler receives, pinned member by member: the members of its context, which of them are
 * own and enumerable, what spreading, JSON and deep equality show, when the remote address is
 * read, and the answers. The context's construction may change; none of this may.
 */
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../test/fixtures.js';
import type { InboundMessage } from './inbound-reassembler.js';
import type { DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { createWebhookHandler, type WebhookContext, type WebhookRequest } from './webhook-handler.js';

const XML = 'application/xml; charset=UTF-8';
const PLATFORM = { tag: 'platform' };

function post(path: string, remote: { reads: number; value?: string } = { reads: 0, value: '192.0.2.7' }): WebhookRequest<typeof PLATFORM> {
  return {
    method: 'POST',
    headers: { 'x-api-version': '4', 'content-type': path.endsWith('.json') ? 'application/json' : XML },
    body: loadFixture(path),
    get remoteAddress() {
      remote.reads++;
      return remote.value;
    },
    platform: PLATFORM,
  };
}

const RECEIPT_KEY = 'receipt:44101-0922I-13413-21GDL:1';
const RECEIPT_INSTANT = '2024-03-14T09:26:53.000Z';

/** Collects what each handler got. */
function collecting() {
  const receipts: [DeliveryReceipt, WebhookContext<typeof PLATFORM>][] = [];
  const inbound: [InboundMessage, WebhookContext<typeof PLATFORM>][] = [];
  const handler = createWebhookHandler<typeof PLATFORM>({
    allowUnauthenticated: true,
    onError: () => undefined,
    onDeliveryReceipt: async (receipt, context) => void receipts.push([receipt, context]),
    onInboundMessage: async (message, context) => void inbound.push([message, context]),
  });
  return { handler, receipts, inbound };
}

describe('the context a handler receives', () => {
  it('has key, format, instant, signal, remoteAddress and platform as own enumerable members, in that order', async () => {
    const { handler, receipts } = collecting();
    expect(await handler.handle(post('delivery-receipt/single-delivered.xml'))).toEqual({ status: 200, headers: {}, body: '', outcome: 'handled' });
    const [, context] = receipts[0]!;
    expect(Object.keys(context)).toEqual(['key', 'format', 'instant', 'signal', 'remoteAddress', 'platform']);
    for (const name of ['key', 'format', 'instant']) {
      expect(Object.getOwnPropertyDescriptor(context, name), name).toMatchObject({ enumerable: true, configurable: true, writable: true });
    }
    for (const name of ['signal', 'remoteAddress', 'platform']) {
      const descriptor = Object.getOwnPropertyDescriptor(context, name);
      expect(descriptor, name).toMatchObject({ enumerable: true, configurable: true, set: undefined });
      expect(typeof descriptor?.get, name).toBe('function');
    }
    expect(Object.getOwnPropertySymbols(context).filter((s) => Object.getOwnPropertyDescriptor(context, s)?.enumerable)).toEqual([]);
  });

  it('gives the same values to reads, spreading, JSON and deep equality', async () => {
    const { handler, receipts } = collecting();
    await handler.handle(post('delivery-receipt/single-delivered.xml'));
    const [receipt, context] = receipts[0]!;
    expect(receipt.mtStatus.ticketId).toBe('44101-0922I-13413-21GDL');
    expect(context.key).toBe(RECEIPT_KEY);
    expect(context.format).toBe('xml');
    expect(context.instant).toBe(RECEIPT_INSTANT);
    expect(context.remoteAddress).toBe('192.0.2.7');
    expect(context.platform).toBe(PLATFORM);
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.signal).toBe(context.signal);
    expect(context.signal.aborted).toBe(false);
    const spread = { ...context };
    expect(Object.getPrototypeOf(spread)).toBe(Object.prototype);
    expect(spread).toStrictEqual({ key: RECEIPT_KEY, format: 'xml', instant: RECEIPT_INSTANT, signal: context.signal, remoteAddress: '192.0.2.7', platform: PLATFORM });
    expect(context).toStrictEqual({ key: RECEIPT_KEY, format: 'xml', instant: RECEIPT_INSTANT, signal: context.signal, remoteAddress: '192.0.2.7', platform: PLATFORM });
    expect(JSON.parse(JSON.stringify(context))).toEqual({ key: RECEIPT_KEY, format: 'xml', instant: RECEIPT_INSTANT, signal: {}, remoteAddress: '192.0.2.7', platform: PLATFORM });
    const { key, signal, platform } = context;
    expect([key, signal, platform]).toEqual([RECEIPT_KEY, context.signal, PLATFORM]);
    expect('remoteAddress' in context && 'signal' in context && 'platform' in context).toBe(true);
  });

  it('reads the remote address only when asked, each time it is asked', async () => {
    const remote = { reads: 0, value: '192.0.2.7' as string | undefined };
    let context: WebhookContext | undefined;
    const handler = createWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: (_r, c) => void (context = c) });
    await handler.handle(post('delivery-receipt/single-delivered.xml', remote));
    expect(remote.reads).toBe(0);
    expect(context?.remoteAddress).toBe('192.0.2.7');
    remote.value = undefined;
    expect(context?.remoteAddress).toBeUndefined();
    expect(remote.reads).toBe(2);
    expect(Object.keys(context ?? {})).toContain('remoteAddress');
  });

  it('has no instant member when the event has none', async () => {
    const { handler, inbound } = collecting();
    const request = post('mobile-originate/text.json');
    await handler.handle(request);
    const [message, context] = inbound[0]!;
    if (message.submittedInstant === undefined) {
      expect(Object.keys(context)).toEqual(['key', 'format', 'signal', 'remoteAddress', 'platform']);
      expect('instant' in context).toBe(false);
    } else {
      expect(Object.keys(context)).toEqual(['key', 'format', 'instant', 'signal', 'remoteAddress', 'platform']);
    }
    expect(context.format).toBe('json');
    expect(context.key).toBe(`inbound:${message.ticketId}`);
  });

  it('gives each event its own context and signal', async () => {
    const { handler, receipts } = collecting();
    await handler.handle(post('delivery-receipt/single-delivered.xml'));
    await handler.handle(post('delivery-receipt/multipart-part2-expired.xml'));
    const a = receipts[0]![1];
    const b = receipts[1]![1];
    expect(a).not.toBe(b);
    expect(a.signal).not.toBe(b.signal);
    expect(a.key).not.toBe(b.key);
  });

  it('hands a whole multipart message over with the context of its last part', async () => {
    const { handler, inbound } = collecting();
    expect((await handler.handle(post('mobile-originate/udh8-part1.xml'))).outcome).toBe('part-stored');
    expect(inbound).toHaveLength(0);
    expect((await handler.handle(post('mobile-originate/udh8-part2.xml'))).outcome).toBe('handled');
    const [message, context] = inbound[0]!;
    expect(message.complete).toBe(true);
    expect(Object.keys(context)).toEqual(['key', 'format', ...(message.submittedInstant === undefined ? [] : ['instant']), 'signal', 'remoteAddress', 'platform']);
    expect(context.platform).toBe(PLATFORM);
  });

  it("gives an orphan a plain context: key, format, instant and an unaborted signal, without remote address or platform", async () => {
    const orphans: [InboundMessage, WebhookContext][] = [];
    const handler = createWebhookHandler({ allowUnauthenticated: true, onError: () => undefined, onInboundMessage: (m, c) => void orphans.push([m, c]) });
    await handler.handle(post('mobile-originate/udh8-part1.xml'));
    handler.close();
    const [message, context] = orphans[0]!;
    expect(message.complete).toBe(false);
    expect(Object.keys(context)).toEqual(['key', 'format', 'signal', ...(message.submittedInstant === undefined ? [] : ['instant'])]);
    expect(context.key).toBe(`orphan:${message.ticketId}`);
    expect(context.signal.aborted).toBe(false);
  });
});

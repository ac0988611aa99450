import { describe, expect, it } from 'vitest';
import { createAddressAllowList, createFetchWebhookHandler, lastForwardedFor } from './index.js';

const RECEIPT = `<?xml version="1.0" encoding="UTF-8"?><deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" code="4" description="Message delivered"/></deliveryReceipt>`;

const post = (forwardedFor: string | undefined): Request =>
  new Request('http://receiver.test/sms/callbacks', {
    method: 'POST',
    headers: { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4', ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) },
    body: RECEIPT,
  });

describe('lastForwardedFor: the address the one proxy in front saw', () => {
  it('reads the last entry of X-Forwarded-For, the one the proxy appended', () => {
    expect(lastForwardedFor(post('192.0.2.10'))).toBe('192.0.2.10');
    expect(lastForwardedFor(post('192.0.2.10, 198.51.100.7'))).toBe('198.51.100.7');
    expect(lastForwardedFor(post('192.0.2.10,198.51.100.7 '))).toBe('198.51.100.7');
    expect(lastForwardedFor(post('192.0.2.10, '))).toBeUndefined();
    expect(lastForwardedFor(post(undefined))).toBeUndefined();
  });

  it('refuses (403) a stranger who writes an allowed address first: X-Forwarded-For: <allowed>, <attacker>', async () => {
    const handled: string[] = [];
    const receive = createFetchWebhookHandler({
      allowRemoteAddress: createAddressAllowList(['192.0.2.0/24']),
      getRemoteAddress: lastForwardedFor,
      onDeliveryReceipt: (receipt) => void handled.push(receipt.mtStatus.ticketId),
    });
    expect((await receive(post('192.0.2.10, 198.51.100.7'))).status).toBe(403);
    expect((await receive(post(undefined))).status).toBe(403);
    expect(handled).toEqual([]);
    // The service's own address, appended by the proxy (after whatever the peer wrote).
    expect((await receive(post('198.51.100.7, 192.0.2.10'))).status).toBe(200);
    expect(handled).toEqual(['44101-0922I-13413-21GDL']);
  });
});

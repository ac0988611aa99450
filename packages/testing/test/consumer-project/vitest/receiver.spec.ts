import { buildDeliveryReceipt, buildMultipartInbound, postCallback, serve, startSandbox } from '@smsv4/testing';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module without types
import { createReceiver } from '../receiver.mjs';

describe('a receiver tested with @smsv4/testing under vitest', () => {
  it('takes a receipt posted as the service posts it', async () => {
    const { app, journal } = createReceiver();
    const { url } = await serve(app);
    const receipt = buildDeliveryReceipt({ code: 811, timestamps: { offset: 'Z' } });
    const report = await postCallback(`${url}/callbacks`, receipt);
    expect(report).toMatchObject({ delivered: true, status: 200, warnings: [] });
    expect(journal.receipts[0]).toBeDeliveryReceipt({ ticketId: receipt.value.mtStatus.ticketId, code: 811 });
    expect(journal.receipts).toContainEqual(expect.toBeDeliveryReceipt({ code: 811 }));
  });

  it('is retried by the service until it takes the receipt', async () => {
    const { app, journal } = createReceiver({ failFirst: 2 });
    const { url } = await serve(app);
    const report = await postCallback(`${url}/callbacks`, buildDeliveryReceipt({ format: 'json' }), { retries: 5 });
    expect(report.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(journal.receipts).toHaveLength(1);
  });

  it('reassembles a multipart inbound message sent in reverse order', async () => {
    const { app, journal } = createReceiver();
    const { url } = await serve(app);
    const text = 'A long reply from a handset, split in parts. '.repeat(6);
    const { parts } = buildMultipartInbound({ text, referenceBits: 16 });
    for (const part of [...parts].reverse()) expect((await postCallback(`${url}/callbacks`, part)).status).toBe(200);
    expect(journal.inbound).toHaveLength(1);
    expect(journal.inbound[0].text).toBe(text);
  });

  it('checks MT requests with the service rules', () => {
    expect({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } }).toBeValidMtRequest();
    const bad = { destination: { address: '+14155550100' }, message: { type: 'text', content: 'Hi' } };
    expect(bad).toFailWith540('destination address value is invalid');
    expect(() => expect(bad).toBeValidMtRequest()).toThrow(/rule: +destinationAddress/);
  });

  let port = 0;
  it('gets receipts from the sandbox on its manual clock', async () => {
    const { app, journal } = createReceiver();
    const { url } = await serve(app);
    const sms = await startSandbox();
    port = sms.port;
    const sent = await sms.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' }, delivery: { receiptRequested: 'final', url: `${url}/callbacks` } });
    expect(sent.ok).toBe(true);
    await sms.advance(60_000);
    expect(journal.receipts).toHaveLength(1);
  });

  it('had the sandbox closed after the test that started it', async () => {
    expect(port).toBeGreaterThan(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});

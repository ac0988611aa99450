import { describe, expect, it } from 'vitest';
import { createFetchWebhookHandler, type WebhookError } from './index.js';

const RECEIPT = `<?xml version="1.0" encoding="UTF-8"?><deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" code="4" description="Message delivered"/></deliveryReceipt>`;
const HEADERS = { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4' };

/** A body stream that records how many octets were pulled from it, and can fail after some chunks. */
function recordingStream(chunks: number, chunkSize: number, { failAfter }: { failAfter?: number } = {}) {
  const state = { pulled: 0, cancelled: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && sent === failAfter) return controller.error(new Error('connection reset'));
      if (sent === chunks) return controller.close();
      sent++;
      state.pulled += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (body: BodyInit | null, headers: Record<string, string> = HEADERS): Request =>
  new Request('http://receiver.test/sms/callbacks', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

describe('createFetchWebhookHandler', () => {
  it('answers a taken receipt 200 with no body, after the handler resolved', async () => {
    const order: string[] = [];
    const receive = createFetchWebhookHandler({
      allowUnauthenticated: true,
      onDeliveryReceipt: async () => {
        await new Promise((r) => setTimeout(r, 20));
        order.push('handled');
      },
    });
    const response = await receive(post(RECEIPT));
    order.push('answered');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(order).toEqual(['handled', 'answered']);
  });

  it('never pulls the body of a request whose Content-Length is over the limit', async () => {
    const { stream, state } = recordingStream(100, 1024);
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, maxBodyBytes: 4096, onDeliveryReceipt: () => undefined });
    const response = await receive(post(stream, { ...HEADERS, 'content-length': '102400' }));
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    // A ReadableStream may pull once ahead of a reader; nothing was read by the receiver beyond that.
    expect(state.pulled).toBeLessThanOrEqual(1024);
  });

  it('stops reading a body without Content-Length once it passes the limit, and cancels the stream', async () => {
    const { stream, state } = recordingStream(1000, 1024);
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, maxBodyBytes: 4096, onDeliveryReceipt: () => undefined });
    const response = await receive(post(stream));
    expect(response.status).toBe(413);
    expect(state.pulled).toBeLessThanOrEqual(4096 + 2 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('answers 400 to a body that breaks off, without calling the handler', async () => {
    const { stream } = recordingStream(10, 16, { failAfter: 2 });
    let called = false;
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: () => void (called = true) });
    const response = await receive(post(stream));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/could not be read/);
    expect(called).toBe(false);
  });

  it('reads a body that arrives in many chunks', async () => {
    const bytes = new TextEncoder().encode(RECEIPT);
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + 7));
        offset += 7;
      },
    });
    const tickets: string[] = [];
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: (r) => void tickets.push(r.mtStatus.ticketId) });
    expect((await receive(post(stream))).status).toBe(200);
    expect(tickets).toEqual(['44101-0922I-13413-21GDL']);
  });

  it('answers 500 and reports receiver-misconfigured when the body was read before', async () => {
    const errors: WebhookError[] = [];
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: () => undefined, onError: (e) => void errors.push(e) });
    const request = post(RECEIPT);
    await request.text();
    expect((await receive(request)).status).toBe(500);
    expect(errors.map((e) => e.code)).toEqual(['receiver-misconfigured']);
  });

  it('passes the runtime arguments to getRemoteAddress and to the handlers', async () => {
    const seen: unknown[] = [];
    const receive = createFetchWebhookHandler<[{ remoteAddr: { hostname: string } }]>({
      allowUnauthenticated: true,
      getRemoteAddress: (_request, info) => info.remoteAddr.hostname,
      allowRemoteAddress: (ip) => ip === '203.0.113.5',
      onDeliveryReceipt: (_receipt, context) => void seen.push(context.remoteAddress, context.platform?.args[0], context.platform?.request.url),
    });
    const info = { remoteAddr: { hostname: '203.0.113.5' } };
    expect((await receive(post(RECEIPT), info)).status).toBe(200);
    expect(seen).toEqual(['203.0.113.5', info, 'http://receiver.test/sms/callbacks']);
    expect((await receive(post(RECEIPT), { remoteAddr: { hostname: '198.51.100.1' } })).status).toBe(403);
  });

  it('asks for the remote address only when something needs it', async () => {
    let asked = 0;
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, getRemoteAddress: () => String(++asked), onDeliveryReceipt: () => undefined });
    expect((await receive(post(RECEIPT))).status).toBe(200);
    expect(asked).toBe(0);
  });

  it('throws TypeError for options or arguments a programmer got wrong', async () => {
    expect(() => createFetchWebhookHandler({ allowUnauthenticated: true })).toThrow(TypeError);
    expect(() => createFetchWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: () => undefined, getRemoteAddress: 'x' as never })).toThrow(/getRemoteAddress/);
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, onDeliveryReceipt: () => undefined });
    await expect(receive({} as Request)).rejects.toThrow(TypeError);
  });

  it('stops the reassembly timers on close', () => {
    const receive = createFetchWebhookHandler({ allowUnauthenticated: true, onInboundMessage: () => undefined });
    expect(receive.handler.pendingMessages).toBe(0);
    receive.close();
  });
});

/**
 * Telemetry of a whole flow against the sandbox over HTTP: a send retried after 1010, its receipts
 * posted to core's receiver (one handler failure, then the service's retry, then a duplicate), all
 * read back from the OpenTelemetry SDK's in-memory exporters.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTelemetry, createWebhookHandler, encodeDeliveryReceipt, SMS_ERRORS, TELEMETRY_METRICS, type DeliveryReceipt } from '@smsv4/core';
import { createManualClock, createSandbox, type SandboxServer } from '@smsv4/sandbox';
import { createTestTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { account } from './helpers.js';

const sdk = createTestTelemetry();
const SENT_AT = Date.parse('2026-03-01T12:00:00.000Z');
const clock = createManualClock({ start: SENT_AT });
const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, now: clock.now });
const sandbox = createSandbox({ clock, retry: { initialDelayMs: 1_000 } });
let sandboxServer: SandboxServer;
let receiver: Server;
let receiverUrl: string;
const handled: DeliveryReceipt[] = [];
let failNextPart2 = true;

beforeAll(async () => {
  sandboxServer = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const handler = createWebhookHandler({
    allowUnauthenticated: true,
    telemetry,
    now: clock.now,
    onDeliveryReceipt: (receipt) => {
      if (receipt.mtStatus.segmentNumber === 2 && failNextPart2) {
        failNextPart2 = false;
        throw new Error('database unavailable');
      }
      handled.push(receipt);
    },
    onError: () => undefined,
  });
  receiver = createServer((req, res) => {
    void handler.handle({ method: req.method ?? 'GET', headers: req.headers, body: async () => Buffer.concat(await req.toArray()) }).then((answer) => {
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/receipts`;
});
afterAll(async () => {
  await sandboxServer.close();
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
  await sdk.shutdown();
});

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Advances simulated time until `check` holds, letting the posts it starts land (bounded). */
async function advanceUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 40 && !check(); i++) {
    await clock.advance(500);
    await new Promise((r) => setTimeout(r, 20));
  }
  await eventually(check);
}

describe('telemetry of send → receipts', () => {
  it('records spans, links, attributes and metrics exactly', async () => {
    sandbox.addFault({ operation: 'send', kind: '1010' });
    // The retry waits 40 real milliseconds in the sandbox: its duration is at least that.
    sandbox.addFault({ operation: 'send', kind: 'latency', latencyMs: 40 });
    const client = createClient({ baseUrl: sandboxServer.url, ...account(), telemetry, retry: { send: { temporaryErrorDelayMs: 50 } } });
    const sent = await client.send({
      destination: { address: '14155550100' },
      message: { type: 'text', content: 'x'.repeat(200), mlc: 'segment' },
      delivery: { receiptRequested: 'final', url: receiverUrl },
    });
    expect(sent.attempts).toBe(2);

    // Both parts delivered; part 2's first post fails in the handler and is retried a second later.
    await advanceUntil(() => handled.length === 2 && !failNextPart2);
    // The service posts part 1 again (its answer was lost, say): a duplicate.
    const part1 = handled.find((r) => r.mtStatus.segmentNumber === 1) as DeliveryReceipt;
    const again = await fetch(receiverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/xml; charset=UTF-8', 'x-api-version': '4' },
      body: encodeDeliveryReceipt(part1, 'xml'),
    });
    expect(again.status).toBe(200);
    expect(handled).toHaveLength(2);

    const spans = sdk.finishedSpans();
    const send = spans.find((s) => s.name === 'smsv4 send');
    expect(send?.attributes).toEqual({
      'smsv4.operation': 'send',
      'smsv4.outcome': 'accepted',
      'smsv4.attempts': 2,
      'smsv4.ticket_id': sent.ticketId,
      'smsv4.request_id': sent.requestId,
      'http.response.status_code': 202,
    });
    const attempts = spans.filter((s) => s.parentSpanContext?.spanId === send?.spanContext().spanId);
    expect(attempts.map((s) => [s.name, s.attributes['http.response.status_code'], s.attributes['error.type'], s.status.code])).toEqual([
      ['POST', SMS_ERRORS['1010'].httpStatus, '1010', 2],
      ['POST', 202, undefined, 0],
    ]);
    expect(attempts[1]?.attributes['http.request.resend_count']).toBe(1);
    expect(attempts[1]?.attributes['url.full']).toBe(`${sandboxServer.url}/sms/v4/mt`);

    const receipts = spans.filter((s) => s.name === 'smsv4 receive delivery-receipt');
    expect(receipts.map((s) => [s.attributes['smsv4.segment_number'], s.attributes['smsv4.outcome'], s.attributes['smsv4.rejection'] ?? null]).sort()).toEqual([
      [1, 'duplicate', null],
      [1, 'handled', null],
      [2, 'handled', null],
      [2, 'rejected', 'handler-failed'],
    ]);
    for (const r of receipts) {
      expect(r.links.map((l) => l.context.spanId)).toEqual([send?.spanContext().spanId]);
      expect(r.attributes['smsv4.ticket_id']).toBe(sent.ticketId);
      expect(r.attributes['smsv4.total_segments']).toBe(2);
    }
    const failed = receipts.find((s) => s.attributes['smsv4.outcome'] === 'rejected');
    expect(failed?.status).toEqual({ code: 2, message: 'handler-failed' });
    expect(failed?.events.map((e) => [e.name, e.attributes?.['exception.type'], e.attributes?.['exception.message']])).toEqual([['exception', 'Error', 'database unavailable']]);
    expect(failed?.attributes['http.response.status_code']).toBe(500);

    const sends = await sdk.points(TELEMETRY_METRICS.sends.name);
    expect(sends.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.outcome': 'accepted' }, 1]]);
    const operations = await sdk.points(TELEMETRY_METRICS.operations.name);
    expect(operations.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.operation': 'send', 'smsv4.outcome': 'accepted' }, 1]]);
    const retries = await sdk.points(TELEMETRY_METRICS.retries.name);
    expect(retries.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.operation': 'send', 'error.type': '1010' }, 1]]);
    const attemptPoints = await sdk.points(TELEMETRY_METRICS.attempts.name);
    expect(attemptPoints.map((p) => [p.attributes, p.value])).toEqual([
      [{ 'smsv4.operation': 'send', 'http.response.status_code': SMS_ERRORS['1010'].httpStatus, 'error.type': '1010' }, 1],
      [{ 'smsv4.operation': 'send', 'http.response.status_code': 202 }, 1],
    ]);
    const server = { 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'server.port': Number(new URL(sandboxServer.url).port) };
    const durations = await sdk.points(TELEMETRY_METRICS.attemptDuration.name);
    expect(durations.map((p) => [p.attributes, (p.value as { count: number }).count])).toEqual([
      [{ ...server, 'http.response.status_code': SMS_ERRORS['1010'].httpStatus, 'error.type': '1010' }, 1],
      [{ ...server, 'http.response.status_code': 202 }, 1],
    ]);
    const [refusedS, acceptedS] = durations.map((p) => (p.value as { sum: number }).sum) as [number, number];
    expect(refusedS).toBeGreaterThanOrEqual(0);
    expect(acceptedS).toBeGreaterThanOrEqual(0.04);
    const callbacks = await sdk.points(TELEMETRY_METRICS.callbacks.name);
    expect(callbacks.map((p) => [p.attributes, p.value])).toEqual(
      expect.arrayContaining([
        [{ 'smsv4.callback.kind': 'delivery-receipt', 'smsv4.outcome': 'handled' }, 2],
        [{ 'smsv4.callback.kind': 'delivery-receipt', 'smsv4.outcome': 'rejected', 'smsv4.rejection': 'handler-failed' }, 1],
        [{ 'smsv4.callback.kind': 'delivery-receipt', 'smsv4.outcome': 'duplicate' }, 1],
      ]),
    );
    expect(callbacks).toHaveLength(3);
    const duplicates = await sdk.points(TELEMETRY_METRICS.duplicates.name);
    expect(duplicates.map((p) => [p.attributes, p.value])).toEqual([[{ 'smsv4.callback.kind': 'delivery-receipt' }, 1]]);
    expect(receipts.find((s) => s.attributes['smsv4.outcome'] === 'duplicate')?.attributes['smsv4.duplicate']).toBe(true);
    const latency = await sdk.points(TELEMETRY_METRICS.deliveryLatency.name);
    const expectedSeconds = handled.reduce((total, r) => total + (Date.parse(r.mtStatus.deliveryDate ?? '') - SENT_AT) / 1000, 0);
    expect(latency.map((p) => [p.attributes, (p.value as { count: number; sum: number }).count, (p.value as { sum: number }).sum])).toEqual([
      [{ 'smsv4.delivery.outcome': 'delivered' }, 2, expectedSeconds],
    ]);
    expect(expectedSeconds).toBeGreaterThan(0);
  });
});

describe('structured logs', () => {
  it('log each call and callback without credentials, phone numbers or message content', async () => {
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
    const logger = { info: at('info'), warn: at('warn'), error: at('error') };
    const { accountId, password } = account();
    const client = createClient({ baseUrl: sandboxServer.url, accountId, password, logger });
    const secretText = 'my one-time code is 493817';
    const sent = await client.send({ destination: { address: '14155550123' }, message: { type: 'text', content: secretText } });
    await expect(client.send({ destination: { address: '12' }, message: { type: 'text', content: secretText } })).rejects.toThrow();
    const handler = createWebhookHandler({ allowUnauthenticated: true, logger, onInboundMessage: () => undefined });
    const inbound = `<mobileOriginate xmlns="http://sms.openmarket.com/v4/mo" submittedDate="2026-03-01T12:00:00.000Z" ticketId="AAAAA-BBBBB-CCCCC-DDDDD"><source ton="1" address="14155550123" mobileOperatorId="383"/><destination ton="3" address="12345"/><message type="text" udh="false" content="${secretText}"/></mobileOriginate>`;
    const answer = await handler.handle({ method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-version': '4' }, body: inbound });
    expect(answer.status).toBe(200);

    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['info', `send accepted as ${sent.ticketId}`],
      ['warn', expect.stringMatching(/^send rejected: /)],
      ['info', 'inbound-message handled'],
    ]);
    const written = JSON.stringify(lines);
    for (const secret of [password, Buffer.from(`${accountId}:${password}`).toString('base64'), secretText, '14155550123']) expect(written).not.toContain(secret);
  });
});

describe('logContent: true', () => {
  it("records the send's destination and content on its span and log line, and an inbound message's addresses and content", async () => {
    const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
    const logger = { info: at('info'), warn: at('warn'), error: at('error') };
    const withContent = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, logger, logContent: true });
    const client = createClient({ baseUrl: sandboxServer.url, ...account(), telemetry: withContent });
    const sent = await client.send({ destination: { address: '14155550177' }, message: { type: 'text', content: 'Your code is 5521' } });
    const span = sdk.finishedSpans().find((s) => s.name === 'smsv4 send' && s.attributes['smsv4.ticket_id'] === sent.ticketId);
    expect(span?.attributes).toEqual({
      'smsv4.operation': 'send',
      'smsv4.destination': '14155550177',
      'smsv4.message.content': 'Your code is 5521',
      'smsv4.outcome': 'accepted',
      'smsv4.attempts': 1,
      'smsv4.ticket_id': sent.ticketId,
      'smsv4.request_id': sent.requestId,
      'http.response.status_code': 202,
    });
    expect(lines.map((l) => [l.message, l.fields['destination'], l.fields['content']])).toEqual([[`send accepted as ${sent.ticketId}`, '14155550177', 'Your code is 5521']]);

    const handler = createWebhookHandler({ allowUnauthenticated: true, telemetry: withContent, onInboundMessage: () => undefined });
    const inbound = `<mobileOriginate xmlns="http://sms.openmarket.com/v4/mo" submittedDate="2026-03-01T12:00:00.000Z" ticketId="EEEEE-BBBBB-CCCCC-DDDDD"><source ton="1" address="14155550177" mobileOperatorId="383"/><destination ton="3" address="12345"/><message type="text" udh="false" content="YES"/></mobileOriginate>`;
    expect((await handler.handle({ method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-version': '4' }, body: inbound })).status).toBe(200);
    expect(lines[1]?.fields).toMatchObject({ kind: 'inbound-message', outcome: 'handled', source: '14155550177', destination: '12345', content: 'YES' });
    const callback = sdk.finishedSpans().find((s) => s.attributes['smsv4.ticket_id'] === 'EEEEE-BBBBB-CCCCC-DDDDD');
    expect(callback?.attributes).toMatchObject({ 'smsv4.source': '14155550177', 'smsv4.destination': '12345', 'smsv4.message.content': 'YES' });
  });
});

/**
 * Every operation against the sandbox, in both formats, through the sandbox's in-process handler and
 * over real HTTP on loopback.
 */
import { deliveryState, isTicketId, timestampInstant, type WireFormat } from '@smsv4/core';
import { createManualClock, createSandbox, type SandboxServer } from '@smsv4/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type AttemptEvent, type FetchFunction } from '../src/index.js';
import { account, globalFetch, invokeFixture, mtFixture, recordingFetch, sandboxFetch } from './helpers.js';

const clock = createManualClock();
const sandbox = createSandbox({ clock });
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
  await sandbox.close();
});
beforeEach(() => sandbox.reset());

const transports: readonly [string, () => { baseUrl: string; fetch: FetchFunction }][] = [
  ['in-process handler', () => ({ baseUrl: 'http://sandbox.test', fetch: sandboxFetch(sandbox) })],
  ['real HTTP', () => ({ baseUrl: server.url, fetch: globalFetch })],
];
const formats: readonly WireFormat[] = ['json', 'xml'];

describe.each(transports)('over the %s', (_, transport) => {
  describe.each(formats)('in %s', (format) => {
    const client = (events: AttemptEvent[] = []) => {
      const { baseUrl, fetch } = transport();
      const recorded = recordingFetch(fetch);
      return {
        recorded,
        client: createClient({ baseUrl, ...account(), format, accept: format, fetch: recorded, onAttempt: (e) => events.push(e) }),
      };
    };

    it('sends a message: the ticket ID from Location, X-Request-Id, 202, one attempt', async () => {
      const events: AttemptEvent[] = [];
      const { client: c, recorded } = client(events);
      const sent = await c.send(mtFixture('mt-text.json'));
      expect(isTicketId(sent.ticketId)).toBe(true);
      expect(sent.location.endsWith(`/sms/v4/mt/${sent.ticketId}`)).toBe(true);
      expect(sent.httpStatus).toBe(202);
      expect(sent.requestId).toMatch(/\S/);
      expect(sent.response.headers.get('x-request-id')).toBe(sent.requestId);
      expect(sent.body).toBe('');
      expect(sent.attempts).toBe(1);
      expect(recorded.calls).toHaveLength(1);
      const headers = recorded.calls[0]?.init.headers as Record<string, string>;
      expect(headers['content-type']).toContain(format === 'json' ? 'application/json' : 'application/xml');
      const [message] = sandbox.snapshot().messages;
      expect(message?.ticketId).toBe(sent.ticketId);
      expect(message?.format).toBe(format);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ operation: 'send', attempt: 1, method: 'POST', httpStatus: 202, requestId: sent.requestId });
      expect(events[0]?.error).toBeUndefined();
    });

    it('sends hex-encoded GSM text', async () => {
      const { client: c } = client();
      const sent = await c.send(mtFixture('mt-hex-gsm.json'));
      expect(sandbox.snapshot().messages[0]?.ticketId).toBe(sent.ticketId);
    });

    it('reads the status of a message, pending then delivered', async () => {
      const { client: c } = client();
      const { ticketId } = await c.send(mtFixture('mt-text.json'));
      const before = await c.getStatus(ticketId);
      expect(before.httpStatus).toBe(200);
      expect(before.status.ticketId).toBe(ticketId);
      expect([2, 3]).toContain(before.status.code);
      expect(before.deliveryInstant).toBeUndefined();
      expect(before.body).toContain(ticketId);
      expect(before.response.headers.get('content-type')).toContain(format === 'json' ? 'json' : 'xml');
      await clock.advance(1000);
      const after = await c.getStatus(ticketId);
      expect(after.status.code).toBe(4);
      expect(after.status.note1).toBe('order-1234');
      expect(after.status.destination?.address).toBe('14155550100');
      expect(after.deliveryInstant).toBe(timestampInstant(after.status.deliveryDate as string));
    });

    it('reads a multipart status: one segment per part and the summary code', async () => {
      const { client: c } = client();
      sandbox.setScenario('447700900123', { kind: 'fail-part', segmentNumber: 2, code: 811 });
      const { ticketId } = await c.send(mtFixture('mt-multipart.json'));
      await clock.advance(5000); // parts are reported one after the other
      const { status } = await c.getStatus(ticketId);
      const segments = status.segments ?? [];
      expect(status.totalSegments).toBe(segments.length);
      expect(segments.length).toBeGreaterThanOrEqual(2);
      expect(segments.map((s) => s.segmentNumber)).toEqual(segments.map((_, i) => i + 1));
      expect(segments.find((s) => s.segmentNumber === 2)?.code).toBe(811);
      expect(segments.filter((s) => s.segmentNumber !== 2).every((s) => s.code === 4)).toBe(true);
      expect(status.code).toBe(830);
      expect(status.description).toBe(deliveryState(830)?.description);
      const { segmentInstants } = await c.getStatus(ticketId);
      expect(segmentInstants).toStrictEqual(segments.map((s) => ({ segmentNumber: s.segmentNumber, ...(s.deliveryDate === undefined ? {} : { deliveryInstant: timestampInstant(s.deliveryDate) }) })));
    });

    it('looks up a number', async () => {
      const { client: c } = client();
      const found = await c.lookup('14155550100');
      expect(found.httpStatus).toBe(200);
      expect(found.preview.destination.phoneNumber).toBe('14155550100');
      expect(found.preview.destination.alpha2Code).toBe('US');
      expect(found.preview.mobileOperator?.mobileOperatorId).toBe(383);
      expect(found.preview.mobileOperator?.textLength).toBe(160);
      expect(found.requestId).toMatch(/\S/);
    });
  });

  it('invokes a service with variables (JSON only, as the spec defines it)', async () => {
    const { baseUrl, fetch } = transport();
    const recorded = recordingFetch(fetch);
    const c = createClient({ baseUrl, ...account(), fetch: recorded });
    const result = await c.invokeService('4a6f', invokeFixture('invoke-request.json'));
    expect(result.httpStatus).toBe(202);
    expect(result.body).toBe('');
    expect(result.requestId).toMatch(/\S/);
    expect(recorded.calls[0]?.url).toMatch(/\/service\/v1\/invokeService\/4a6f$/);
    const [invocation] = sandbox.snapshot().invocations;
    expect(invocation).toMatchObject({ serviceId: '4a6f', phoneNumber: '14155550100', outcome: 'accepted' });
    expect(invocation?.variables).toEqual(invokeFixture('invoke-request.json').variables);
  });
});

describe('endpoints', () => {
  it('sends each operation to its own base URL when urls overrides it', async () => {
    const recorded = recordingFetch(sandboxFetch(sandbox));
    const c = createClient({
      ...account(),
      fetch: recorded,
      urls: { send: 'http://smsc.test', status: 'http://mtstatus.test', lookup: 'http://preview.test', invokeService: 'http://servicemanager.test' },
    });
    const { ticketId } = await c.send(mtFixture('mt-text.json'));
    await c.getStatus(ticketId);
    await c.lookup('447700900123');
    await c.invokeService('abc', invokeFixture('invoke-minimal.json'));
    expect(recorded.calls.map((call) => call.url)).toEqual([
      'http://smsc.test/sms/v4/mt',
      `http://mtstatus.test/sms/v4/mt/${ticketId}/status`,
      'http://preview.test/sms/v4/preview/447700900123',
      'http://servicemanager.test/service/v1/invokeService/abc',
    ]);
  });
});

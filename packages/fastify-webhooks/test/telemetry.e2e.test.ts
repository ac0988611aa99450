/**
 * Telemetry of the Fastify plugin over real HTTP: the `telemetry` option reaches core's receiver,
 * so a handled callback, a duplicate and a refused one (401) each give exactly one span, one point
 * of `smsv4.receiver.callbacks` and one log line, read back from the OpenTelemetry SDK's in-memory
 * exporters; none of them holds the credentials, the message's content or a phone number.
 */
import { basicAuthorization, createTelemetry, TELEMETRY_METRICS } from '@smsv4/core';
import { createMemoryLogger, postFixture, type LogLine } from '@smsv4/testing';
import { createTestTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { fastifyWebhooks, type InboundMessage } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

const USERNAME = 'sms-callbacks';
const PASSWORD = 'callback-secret-5521';
const GUESSED = 'guessed-password-77';
const TICKET = '2213K-0122M-1347B-28U4E'; // inbound-text.json: "STOP & unsubscribe 👋" from 12065551234 to 24273
const SECRETS = [PASSWORD, GUESSED, basicAuthorization({ accountId: USERNAME, password: PASSWORD }), basicAuthorization({ accountId: USERNAME, password: GUESSED }), 'STOP', 'unsubscribe', '12065551234', '24273'];

describe.each(FASTIFY_VERSIONS)('telemetry on %s', (_name, createApp) => {
  const sdk = createTestTelemetry();
  const logger = createMemoryLogger();
  const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, logger });
  const taken: InboundMessage[] = [];
  const bareLogger = createMemoryLogger();
  let app: FastifyInstance;
  let url: string;
  let origin: string;
  let seen = 0;
  /** The log lines written since the last call. */
  const newLines = (): LogLine[] => logger.lines.slice(seen, (seen = logger.lines.length));
  const points = async (name: string) => (await sdk.points(name)).map((p) => [p.attributes, p.value]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  let spansSeen = 0;
  /** The spans ended since the last call. */
  const newSpans = () =>
    sdk
      .finishedSpans()
      .slice(spansSeen, (spansSeen = sdk.finishedSpans().length))
      .map((s) => ({ name: s.name, attributes: s.attributes, status: s.status }));
  const post = (password?: string) => postFixture(url, 'inbound-text.json', password === undefined ? {} : { headers: { authorization: basicAuthorization({ accountId: USERNAME, password }) } });

  beforeAll(async () => {
    app = createApp();
    await app.register(fastifyWebhooks, {
      prefix: '/callbacks',
      telemetry,
      basicAuth: { username: USERNAME, password: PASSWORD },
      onInboundMessage: (message) => void taken.push(message),
    });
    await app.register(fastifyWebhooks, { prefix: '/logged', logger: bareLogger, onDeliveryReceipt: () => undefined });
    origin = await listen(app);
    url = `${origin}/callbacks`;
  });

  afterAll(async () => {
    await app.close();
    await sdk.shutdown();
  });

  it('a handled callback: one span with its attributes, one counter point, one log line', async () => {
    expect((await post(PASSWORD)).status).toBe(200);
    expect(taken).toHaveLength(1);
    expect(newSpans()).toEqual([
      {
        name: 'smsv4 receive inbound-message',
        attributes: {
          'smsv4.callback.kind': 'inbound-message',
          'smsv4.ticket_id': TICKET,
          'smsv4.outcome': 'handled',
          'smsv4.duplicate': false,
          'http.response.status_code': 200,
        },
        status: { code: 0 },
      },
    ]);
    expect(await points(TELEMETRY_METRICS.callbacks.name)).toEqual([[{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'handled' }, 1]]);
    expect(await points(TELEMETRY_METRICS.duplicates.name)).toEqual([]);
    expect(newLines()).toEqual([
      { level: 'info', fields: { kind: 'inbound-message', outcome: 'handled', status: 200, ticketId: TICKET }, message: 'inbound-message handled' },
    ]);
  });

  it('a duplicate: one span marked duplicate, one counter point each, one log line', async () => {
    expect((await post(PASSWORD)).status).toBe(200);
    expect(taken).toHaveLength(1);
    expect(newSpans()).toEqual([
      {
        name: 'smsv4 receive inbound-message',
        attributes: {
          'smsv4.callback.kind': 'inbound-message',
          'smsv4.ticket_id': TICKET,
          'smsv4.outcome': 'duplicate',
          'smsv4.duplicate': true,
          'http.response.status_code': 200,
        },
        status: { code: 0 },
      },
    ]);
    expect(await points(TELEMETRY_METRICS.callbacks.name)).toEqual([
      [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'duplicate' }, 1],
      [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'handled' }, 1],
    ]);
    expect(await points(TELEMETRY_METRICS.duplicates.name)).toEqual([[{ 'smsv4.callback.kind': 'inbound-message' }, 1]]);
    expect(newLines()).toEqual([
      { level: 'info', fields: { kind: 'inbound-message', outcome: 'duplicate', status: 200, ticketId: TICKET }, message: 'inbound-message duplicate' },
    ]);
  });

  it('a callback refused 401 (wrong credentials, then none): one error span, one counter point, one warning each', async () => {
    for (const password of [GUESSED, undefined]) {
      const answer = await post(password);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
    expect(taken).toHaveLength(1);
    const refused = {
      name: 'smsv4 receive unknown',
      attributes: {
        'smsv4.callback.kind': 'unknown',
        'smsv4.outcome': 'rejected',
        'smsv4.duplicate': false,
        'smsv4.rejection': 'unauthorized',
        'http.response.status_code': 401,
      },
      status: { code: 2, message: 'unauthorized' },
    };
    expect(newSpans()).toEqual([refused, refused]);
    expect(await points(TELEMETRY_METRICS.callbacks.name)).toEqual([
      [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'duplicate' }, 1],
      [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'handled' }, 1],
      [{ 'smsv4.callback.kind': 'unknown', 'smsv4.outcome': 'rejected', 'smsv4.rejection': 'unauthorized' }, 2],
    ]);
    const warning = { level: 'warn', fields: { kind: 'unknown', outcome: 'rejected', status: 401, rejection: 'unauthorized' }, message: 'unknown answered 401: unauthorized' };
    expect(newLines()).toEqual([warning, warning]);
  });

  it('records no credentials, content or phone numbers in any span or log line', () => {
    const recorded = `${logger.text()}${JSON.stringify(sdk.finishedSpans().map((s) => [s.name, s.attributes, s.status, s.events]))}`;
    expect(logger.lines).toHaveLength(4);
    expect(sdk.finishedSpans()).toHaveLength(4);
    for (const secret of SECRETS) expect(recorded).not.toContain(secret);
  });

  it('takes a bare `logger` option too: one line per callback, without OpenTelemetry', async () => {
    const answer = await postFixture(`${origin}/logged`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(200);
    expect(bareLogger.lines).toEqual([
      {
        level: 'info',
        fields: { kind: 'delivery-receipt', outcome: 'handled', status: 200, ticketId: '44101-0922I-13413-21GDL', code: 4 },
        message: 'delivery-receipt handled',
      },
    ]);
    expect(bareLogger.text()).not.toContain('12065551234');
  });
});

describe.each(FASTIFY_VERSIONS)("Fastify's own logger on %s", (_name, createApp) => {
  it("takes `logger: app.log`: the receiver writes its lines with the application's (pino)", async () => {
    const written: string[] = [];
    const app = createApp({ logger: { level: 'info', stream: { write: (line: string) => void written.push(line) } } });
    await app.register(fastifyWebhooks, { prefix: '/callbacks', logger: app.log, onDeliveryReceipt: () => undefined });
    const origin = await listen(app);
    try {
      expect((await postFixture(`${origin}/callbacks`, 'receipt-single-delivered.xml')).status).toBe(200);
      const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.kind !== undefined);
      expect(lines).toEqual([expect.objectContaining({ level: 30, msg: 'delivery-receipt handled', kind: 'delivery-receipt', outcome: 'handled', status: 200, ticketId: '44101-0922I-13413-21GDL', code: 4 })]);
      expect(written.join('')).not.toContain('12065551234');
    } finally {
      await app.close();
    }
  });
});

/**
 * Telemetry of the webhook controller over real HTTP: `webhooks.telemetry` reaches core's receiver,
 * and the Basic auth guard, which answers 401 before that receiver runs, reports to the same
 * telemetry as the receiver reports its own 401. A handled callback, a duplicate and a refused one
 * each give exactly one span, one point of `smsv4.receiver.callbacks` and one log line, read back
 * from the OpenTelemetry SDK's in-memory exporters; none of them holds the credentials, the
 * message's content or a phone number.
 */
import { Injectable } from '@nestjs/common';
import { basicAuthorization, createTelemetry, TELEMETRY_METRICS } from '@smsv4/core';
import { createMemoryLogger, postFixture, type LogLine } from '@smsv4/testing';
import { createTestTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnDeliveryReceipt, OnInboundMessage, SmsModule, type InboundMessage } from '../src/index.js';
import { startApp, type RunningApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };
const USERNAME = 'sms-callbacks';
const PASSWORD = 'callback-secret-5521';
const GUESSED = 'guessed-password-77';
const TICKET = '2213K-0122M-1347B-28U4E'; // inbound-text.json: "STOP & unsubscribe 👋" from 12065551234 to 24273
const SECRETS = [PASSWORD, GUESSED, basicAuthorization({ accountId: USERNAME, password: PASSWORD }), basicAuthorization({ accountId: USERNAME, password: GUESSED }), 'STOP', 'unsubscribe', '12065551234', '24273'];

const taken: InboundMessage[] = [];

@Injectable()
class InboundService {
  @OnInboundMessage()
  take(message: InboundMessage): void {
    taken.push(message);
  }

  @OnDeliveryReceipt()
  receipt(): void {}
}

describe('telemetry of the webhook controller', () => {
  const sdk = createTestTelemetry();
  const logger = createMemoryLogger();
  const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, logger });
  const bareLogger = createMemoryLogger();
  let running: RunningApp;
  let logged: RunningApp;
  let url: string;
  let seen = 0;
  let spansSeen = 0;
  /** The log lines written since the last call. */
  const newLines = (): LogLine[] => logger.lines.slice(seen, (seen = logger.lines.length));
  /** The spans ended since the last call. */
  const newSpans = () =>
    sdk
      .finishedSpans()
      .slice(spansSeen, (spansSeen = sdk.finishedSpans().length))
      .map((s) => ({ name: s.name, attributes: s.attributes, status: s.status }));
  const points = async (name: string) => (await sdk.points(name)).map((p) => [p.attributes, p.value]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  const post = (password?: string) => postFixture(url, 'inbound-text.json', password === undefined ? {} : { headers: { authorization: basicAuthorization({ accountId: USERNAME, password }) } });

  beforeAll(async () => {
    running = await startApp({
      imports: [SmsModule.forRoot({ client: CLIENT, webhookPath: 'sms/callbacks', webhooks: { telemetry, basicAuth: { username: USERNAME, password: PASSWORD } } })],
      providers: [InboundService],
    });
    url = `${running.url}/sms/callbacks`;
    // A bare logger (no OpenTelemetry) behind the guard: the guard's 401 is logged too.
    logged = await startApp({
      imports: [SmsModule.forRoot({ client: CLIENT, webhookPath: 'logged', webhooks: { logger: bareLogger, basicAuth: { username: USERNAME, password: PASSWORD } } })],
      providers: [InboundService],
    });
  });

  afterAll(async () => {
    await running.close();
    await logged.close();
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

  it('a callback the guard refuses 401 (wrong credentials, then none): reported as core reports its own 401', async () => {
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

  it('takes a bare `logger` option too: the receiver and the guard each log one line per callback', async () => {
    const at = `${logged.url}/logged`;
    expect((await postFixture(at, 'receipt-single-delivered.xml', { headers: { authorization: basicAuthorization({ accountId: USERNAME, password: PASSWORD }) } })).status).toBe(200);
    expect((await postFixture(at, 'receipt-single-delivered.xml')).status).toBe(401);
    expect(bareLogger.lines).toEqual([
      {
        level: 'info',
        fields: { kind: 'delivery-receipt', outcome: 'handled', status: 200, ticketId: '44101-0922I-13413-21GDL', code: 4 },
        message: 'delivery-receipt handled',
      },
      { level: 'warn', fields: { kind: 'unknown', outcome: 'rejected', status: 401, rejection: 'unauthorized' }, message: 'unknown answered 401: unauthorized' },
    ]);
    expect(bareLogger.text()).not.toContain('12065551234');
    expect(bareLogger.text()).not.toContain(PASSWORD);
  });
});

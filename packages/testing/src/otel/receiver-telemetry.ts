/**
 * `describeReceiverTelemetry()`: what a receiver adapter reports through core's telemetry, as tests
 * any adapter runs against itself. Callbacks go over real HTTP on loopback to receivers the adapter
 * starts with the options given (`telemetry`, `logger`, Basic auth, handlers) passed through; the
 * spans and metric points are read back from the OpenTelemetry SDK's in-memory exporters.
 */
import { basicAuthorization, createTelemetry, TELEMETRY_METRICS, type InboundMessage } from '@smsv4/core';
import { postFixture } from '../conformance/callback-fixtures.js';
import type { ConformanceRunner, ReceiverConformanceOptions } from '../conformance/receiver-conformance.js';
import { createMemoryLogger, type LogLine } from '../logs/memory-logger.js';
import { createTestTelemetry } from './test-telemetry.js';

/** Options of {@link describeReceiverTelemetry}: the conformance suite's `name`, `runner` and `start`. */
export type ReceiverTelemetryOptions = Pick<ReceiverConformanceOptions, 'name' | 'runner' | 'start'>;

const USERNAME = 'sms-callbacks';
const PASSWORD = 'callback-secret-5521';
const GUESSED = 'guessed-password-77';
/** inbound-text.json: "STOP & unsubscribe 👋" from 12065551234 to 24273. */
const TICKET = '2213K-0122M-1347B-28U4E';
const RECEIPT_TICKET = '44101-0922I-13413-21GDL';
/** What no span or log line may hold: the credentials, their Basic headers, the content and the numbers. */
const SECRETS = [
  PASSWORD,
  GUESSED,
  basicAuthorization({ accountId: USERNAME, password: PASSWORD }),
  basicAuthorization({ accountId: USERNAME, password: GUESSED }),
  'STOP',
  'unsubscribe',
  '12065551234',
  '24273',
];

const authorized = (password: string) => ({ headers: { authorization: basicAuthorization({ accountId: USERNAME, password }) } });

/**
 * Declares the receiver telemetry suite for one receiver adapter. A receiver given `telemetry`
 * reports a handled callback, a duplicate and a callback refused 401 each as exactly one span, one
 * point of `smsv4.receiver.callbacks` and one log line; one given a bare `logger` logs one line per
 * callback; neither records credentials, content or phone numbers.
 *
 * @example
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest';
 * import { describeReceiverTelemetry } from '@smsv4/testing/otel';
 * describeReceiverTelemetry({ name: 'my adapter', runner: { describe, it, expect, beforeAll, afterAll }, start: startMyReceiver });
 */
export function describeReceiverTelemetry({ name, runner, start }: ReceiverTelemetryOptions): void {
  if (typeof start !== 'function') throw new TypeError('describeReceiverTelemetry needs start(options), which starts a receiver and resolves to { url, close }');
  const { describe, it, expect, beforeAll, afterAll }: ConformanceRunner = runner;

  describe(`receiver telemetry on ${name}`, () => {
    const sdk = createTestTelemetry();
    const logger = createMemoryLogger();
    const telemetry = createTelemetry({ api: sdk.api, tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, logger });
    const bareLogger = createMemoryLogger();
    const taken: InboundMessage[] = [];
    const closers: Array<() => unknown> = [];
    let url = '';
    let loggedUrl = '';
    let linesSeen = 0;
    let spansSeen = 0;
    /** The log lines written since the last call. */
    const newLines = (): LogLine[] => logger.lines.slice(linesSeen, (linesSeen = logger.lines.length));
    /** The spans ended since the last call. */
    const newSpans = () =>
      sdk
        .finishedSpans()
        .slice(spansSeen, (spansSeen = sdk.finishedSpans().length))
        .map((s) => ({ name: s.name, attributes: s.attributes, status: s.status }));
    const points = async (metric: string) =>
      (await sdk.points(metric)).map((p) => [p.attributes, p.value]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const post = (password?: string) => postFixture(url, 'inbound-text.json', password === undefined ? {} : authorized(password));
    const inboundSpan = (outcome: 'handled' | 'duplicate') => ({
      name: 'smsv4 receive inbound-message',
      attributes: {
        'smsv4.callback.kind': 'inbound-message',
        'smsv4.ticket_id': TICKET,
        'smsv4.outcome': outcome,
        'smsv4.duplicate': outcome === 'duplicate',
        'http.response.status_code': 200,
      },
      status: { code: 0 },
    });
    const handledPoint = [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'handled' }, 1];
    const duplicatePoint = [{ 'smsv4.callback.kind': 'inbound-message', 'smsv4.outcome': 'duplicate' }, 1];
    const refusedLine: LogLine = { level: 'warn', fields: { kind: 'unknown', outcome: 'rejected', status: 401, rejection: 'unauthorized' }, message: 'unknown answered 401: unauthorized' };

    beforeAll(async () => {
      const basicAuth = { username: USERNAME, password: PASSWORD };
      const main = await start({ telemetry, basicAuth, onInboundMessage: (message) => void taken.push(message) });
      closers.push(() => main.close());
      url = main.url;
      const logged = await start({ logger: bareLogger, basicAuth, onDeliveryReceipt: () => undefined });
      closers.push(() => logged.close());
      loggedUrl = logged.url;
    });

    afterAll(async () => {
      for (const close of closers.splice(0).reverse()) await close();
      await sdk.shutdown();
    });

    it('a handled callback: one span with its attributes, one counter point, one log line', async () => {
      expect((await post(PASSWORD)).status).toBe(200);
      expect(taken).toHaveLength(1);
      expect(newSpans()).toEqual([inboundSpan('handled')]);
      expect(await points(TELEMETRY_METRICS.callbacks.name)).toEqual([handledPoint]);
      expect(await points(TELEMETRY_METRICS.duplicates.name)).toEqual([]);
      expect(newLines()).toEqual([{ level: 'info', fields: { kind: 'inbound-message', outcome: 'handled', status: 200, ticketId: TICKET }, message: 'inbound-message handled' }]);
    });

    it('a duplicate: one span marked duplicate, one counter point each, one log line', async () => {
      expect((await post(PASSWORD)).status).toBe(200);
      expect(taken).toHaveLength(1);
      expect(newSpans()).toEqual([inboundSpan('duplicate')]);
      expect(await points(TELEMETRY_METRICS.callbacks.name)).toEqual([duplicatePoint, handledPoint]);
      expect(await points(TELEMETRY_METRICS.duplicates.name)).toEqual([[{ 'smsv4.callback.kind': 'inbound-message' }, 1]]);
      expect(newLines()).toEqual([{ level: 'info', fields: { kind: 'inbound-message', outcome: 'duplicate', status: 200, ticketId: TICKET }, message: 'inbound-message duplicate' }]);
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
        duplicatePoint,
        handledPoint,
        [{ 'smsv4.callback.kind': 'unknown', 'smsv4.outcome': 'rejected', 'smsv4.rejection': 'unauthorized' }, 2],
      ]);
      expect(newLines()).toEqual([refusedLine, refusedLine]);
    });

    it('records no credentials, content or phone numbers in any span or log line', async () => {
      const recorded = `${logger.text()}${JSON.stringify(sdk.finishedSpans().map((s) => [s.name, s.attributes, s.status, s.events]))}`;
      expect(logger.lines).toHaveLength(4);
      expect(sdk.finishedSpans()).toHaveLength(4);
      for (const secret of SECRETS) expect(recorded).not.toContain(secret);
    });

    it('takes a bare `logger` option too: one line per callback, refusals included, without OpenTelemetry', async () => {
      expect((await postFixture(loggedUrl, 'receipt-single-delivered.xml', authorized(PASSWORD))).status).toBe(200);
      expect((await postFixture(loggedUrl, 'receipt-single-delivered.xml')).status).toBe(401);
      expect(bareLogger.lines).toEqual([
        { level: 'info', fields: { kind: 'delivery-receipt', outcome: 'handled', status: 200, ticketId: RECEIPT_TICKET, code: 4 }, message: 'delivery-receipt handled' },
        refusedLine,
      ]);
      for (const secret of SECRETS) expect(bareLogger.text()).not.toContain(secret);
    });
  });
}

/**
 * The receiver telemetry suite of @smsv4/testing on Fastify 4 and 5 (the `telemetry` and `logger`
 * options reach core's receiver: one span, one counter point and one log line per callback, with no
 * credentials, content or numbers), and Fastify's own pino logger given as `logger`.
 */
import { postFixture } from '@smsv4/testing';
import { describeReceiverTelemetry } from '@smsv4/testing/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks } from '../src/index.js';
import { FASTIFY_VERSIONS, listen, receiverStarter } from './helpers.js';

for (const [name, createApp] of FASTIFY_VERSIONS) {
  describeReceiverTelemetry({ name, runner: { describe, it, expect, beforeAll, afterAll }, start: receiverStarter(createApp) });
}

describe.each(FASTIFY_VERSIONS)("Fastify's own logger on %s", (_name, createApp) => {
  it("takes `logger: app.log`: the receiver writes its lines with the application's (pino)", async () => {
    const written: string[] = [];
    const app = createApp({ logger: { level: 'info', stream: { write: (line: string) => void written.push(line) } } });
    await app.register(fastifyWebhooks, { allowUnauthenticated: true, prefix: '/callbacks', logger: app.log, onDeliveryReceipt: () => undefined });
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

/**
 * The Basic credentials of the webhook route are checked before any body parser runs, on both
 * platforms: a stranger's body is refused 401 unread (a body no parser could read gets 401, not the
 * parser's 400), under a global prefix; right credentials reach the receiver, and the application's
 * other routes keep their parsers.
 */
import { Body, Controller, Injectable, Post } from '@nestjs/common';
import { callbackFixture } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnDeliveryReceipt, SmsModule } from '../src/index.js';
import { request, startApp, type Platform, type RunningApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };
const CREDENTIALS = { username: 'service', password: 'callback-secret' };
const authorization = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;

@Injectable()
class Receipts {
  readonly received: string[] = [];
  @OnDeliveryReceipt()
  take(receipt: { mtStatus: { ticketId: string } }): void {
    this.received.push(receipt.mtStatus.ticketId);
  }
}

@Controller('echo')
class Echo {
  @Post()
  echo(@Body() body: unknown): unknown {
    return { parsed: body };
  }
}

describe.each(['express', 'fastify'] as const)('the webhook route on %s', (platform: Platform) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(
      {
        imports: [SmsModule.forRoot({ client: CLIENT, webhookPath: 'sms/callbacks', webhooks: { basicAuth: CREDENTIALS, onError: () => undefined } })],
        providers: [Receipts],
        controllers: [Echo],
      },
      {},
      (app) => void app.setGlobalPrefix('api'),
      platform,
    );
  });
  afterAll(() => running.close());

  const post = (body: string, headers: Record<string, string>) =>
    request(`${running.url}/api/sms/callbacks`, { method: 'POST', headers: { 'x-api-version': '4', ...headers }, body });

  it('refuses a stranger with 401 and a challenge before parsing: a body that is not JSON is not even read', async () => {
    const answer = await post('{ not json', { 'content-type': 'application/json' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm="sms-callbacks"/);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 401 });
  });

  it('takes XML and JSON receipts with the right credentials (the same receipt twice: handled once)', async () => {
    const receipts = running.app.get(Receipts);
    expect(await post(callbackFixture('receipt-single-delivered.xml').body, { 'content-type': 'application/xml', authorization })).toMatchObject({ status: 200, body: '' });
    expect((await post(callbackFixture('receipt-single-delivered.json').body, { 'content-type': 'application/json', authorization })).status).toBe(200);
    expect(receipts.received).toEqual(['44101-0922I-13413-21GDL']);
  });

  it("leaves the application's other routes to the platform's parsers", async () => {
    const answer = await request(`${running.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ parsed: { a: 1 } });
  });
});

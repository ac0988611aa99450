/**
 * The webhook route on Nest's Fastify platform: answered before Fastify parses the body, so the
 * credentials are checked before any byte of it is read, whatever the content type, under a global
 * prefix too; the application's own routes keep Fastify's parsers.
 */
import { Body, Controller, Injectable, Post } from '@nestjs/common';
import { callbackFixture } from '@smsv4/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnDeliveryReceipt, SmsModule, type SmsModuleOptions } from '../src/index.js';
import { request, startApp, type RunningApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };
const CREDENTIALS = { username: 'service', password: 'callback-secret' };
const authorization = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;

const received: string[] = [];

@Injectable()
class Receipts {
  @OnDeliveryReceipt()
  take(receipt: { mtStatus: { ticketId: string } }): void {
    received.push(receipt.mtStatus.ticketId);
  }
}

@Controller('echo')
class Echo {
  @Post()
  echo(@Body() body: unknown): unknown {
    return { parsed: body };
  }
}

describe('SmsModule on Nest\'s Fastify platform', () => {
  let running: RunningApp;
  beforeAll(async () => {
    const options: SmsModuleOptions = { client: CLIENT, webhooks: { basicAuth: CREDENTIALS, onError: () => undefined } };
    running = await startApp(
      { imports: [SmsModule.forRoot({ ...options, webhookPath: 'sms/callbacks' })], providers: [Receipts], controllers: [Echo] },
      {},
      (app) => void app.setGlobalPrefix('api'),
      'fastify',
    );
  });
  afterAll(() => running.close());

  const post = (body: string, headers: Record<string, string>) =>
    request(`${running.url}/api/sms/callbacks`, { method: 'POST', headers: { 'x-api-version': '4', ...headers }, body });

  it('takes XML and JSON receipts under the global prefix (no Fastify parser for XML is needed)', async () => {
    received.length = 0;
    const xml = await post(callbackFixture('receipt-single-delivered.xml').body, { 'content-type': 'application/xml', authorization });
    expect(xml).toMatchObject({ status: 200, body: '' });
    const json = await post(callbackFixture('receipt-single-delivered.json').body, { 'content-type': 'application/json', authorization });
    // The same receipt in the other format: a duplicate, answered 200 without handling it again.
    expect(json.status).toBe(200);
    expect(received).toEqual(['44101-0922I-13413-21GDL']);
  });

  it('refuses a stranger with 401 before parsing: a body that is not JSON is not even read', async () => {
    const answer = await post('{ not json', { 'content-type': 'application/json' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm="sms-callbacks"/);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 401 });
  });

  it('answers a bad body with the receiver\'s own 400 once the credentials are right', async () => {
    const answer = await post('{ not json', { 'content-type': 'application/json', authorization });
    expect(answer.status).toBe(400);
    expect(answer.body).not.toMatch(/statusCode/);
  });

  it("leaves the application's other routes to Fastify's parsers", async () => {
    const answer = await request(`${running.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ parsed: { a: 1 } });
  });
});

/**
 * The controller reads the raw body itself: whether Nest's body parsers run (the default), keep the
 * raw body (`rawBody: true`), are off (`bodyParser: false`), or other parsers were added.
 */
import type { IncomingMessage } from 'node:http';
import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { Inject, Injectable } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnDeliveryReceipt, SmsModule, type DeliveryReceipt, type WebhookError } from '../src/index.js';
import { postFixture } from '@smsv4/testing';
import { startApp, type RunningApp } from './helpers.js';

const RECEIVED = 'RECEIVED';

@Injectable()
class Receipts {
  constructor(@Inject(RECEIVED) private readonly received: string[]) {}

  @OnDeliveryReceipt()
  take(receipt: DeliveryReceipt): void {
    this.received.push(`${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}:${receipt.mtStatus.code}`);
  }
}

/** A middleware that reads XML bodies itself and leaves an object the receiver cannot read back. */
function xmlToObjectParser(app: INestApplication): void {
  app.use((req: IncomingMessage & { body?: unknown; _body?: boolean }, _res: unknown, next: () => void) => {
    if (!String(req.headers['content-type']).includes('xml')) return next();
    req.resume();
    req.on('end', () => {
      req.body = { parsed: 'xml' };
      req._body = true;
      next();
    });
  });
}

interface Setup {
  readonly options: NestApplicationOptions;
  readonly configure?: (app: INestApplication) => void;
}

const SETUPS: Record<string, Setup> = {
  'default parsers': { options: {} },
  'rawBody: true': { options: { rawBody: true } },
  'bodyParser: false': { options: { bodyParser: false } },
  "useBodyParser('text') for XML": { options: {}, configure: (app) => (app as unknown as { useBodyParser(t: string, o: object): void }).useBodyParser('text', { type: 'application/xml' }) },
  "useBodyParser('raw') for XML": { options: {}, configure: (app) => (app as unknown as { useBodyParser(t: string, o: object): void }).useBodyParser('raw', { type: 'application/xml' }) },
  'an XML parser that leaves an object': { options: {}, configure: xmlToObjectParser },
};

describe.each(Object.keys(SETUPS))('with %s', (name) => {
  const setup = SETUPS[name] as Setup;
  const received: string[] = [];
  const errors: WebhookError[] = [];
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(
      {
        imports: [
          SmsModule.forRoot({
            client: { baseUrl: 'http://127.0.0.1:9', accountId: 'a', password: 'b' },
            webhookPath: 'callbacks',
            webhooks: { allowUnauthenticated: true, onError: (error) => void errors.push(error) },
          }),
        ],
        providers: [{ provide: RECEIVED, useValue: received }, Receipts],
      },
      setup.options,
      setup.configure,
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  const url = () => `${running.url}/callbacks`;

  it('takes JSON receipts', async () => {
    expect(await postFixture(url(), 'receipt-single-delivered.json')).toMatchObject({ status: 200, body: '' });
    expect(received).toContain('44101-0922I-13413-21GDL#1:4');
  });

  if (name === 'an XML parser that leaves an object') {
    it('answers an XML receipt 500 and reports receiver-misconfigured', async () => {
      const answer = await postFixture(url(), 'receipt-multipart-part2-expired.xml');
      expect(answer).toMatchObject({ status: 500, body: 'The request body was consumed by another body parser before the receiver\n' });
      expect(errors.map((e) => e.code)).toEqual(['receiver-misconfigured']);
      expect(errors[0]?.message).toContain('rawBody: true');
    });
    return;
  }

  it('takes XML receipts', async () => {
    expect(await postFixture(url(), 'receipt-multipart-part2-expired.xml')).toMatchObject({ status: 200, body: '' });
    expect(received).toContain('03155-0331L-1439U-51SLFX#2:811');
  });

  const seesRawJson = name === 'rawBody: true' || name === 'bodyParser: false';
  it(
    seesRawJson ? 'refuses a JSON body with a repeated member (400)' : 'cannot see a repeated JSON member once Nest parsed the body (the last value wins)',
    async () => {
      const answer = await postFixture(url(), 'receipt-repeated-member.json');
      if (seesRawJson) {
        expect(answer.status).toBe(400);
        expect(answer.body).toMatch(/^Malformed payload: /);
        expect(received.some((r) => r.startsWith('77Q2M'))).toBe(false);
      } else {
        expect(answer.status).toBe(200);
        expect(received).toContain('77Q2M-0315C-0A1B2-C3D4E#1:811');
      }
    },
  );
});

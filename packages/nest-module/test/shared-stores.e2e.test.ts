/**
 * Two applications ("instances") given the same duplicate store and reassembly store through
 * `webhooks`: the parts of one message posted to different instances are joined, handed over once,
 * and a repeat on the other instance is a duplicate. (In-memory stores shared in one process stand
 * in for Redis here; @smsv4/express-webhooks runs the same receiver against a real Redis.)
 */
import { Inject, Injectable, Module } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnInboundMessage, SmsModule, createMemoryDuplicateStore, createMemoryReassemblyStore, type InboundMessage } from '../src/index.js';
import { postFixture } from '@smsv4/testing';
import { startApp, type RunningApp } from './helpers.js';

const CLIENT = { baseUrl: 'http://127.0.0.1:9', accountId: 'sandbox', password: 'sandbox-password' };
const INBOX = 'INBOX';

@Injectable()
class InboxService {
  constructor(@Inject(INBOX) private readonly inbox: Array<{ instance: string; message: InboundMessage }>) {}

  @OnInboundMessage()
  take(message: InboundMessage, context: { platform?: { req: { headers: Record<string, unknown> } } }): void {
    this.inbox.push({ instance: String(context.platform?.req.headers['x-instance'] ?? '?'), message });
  }
}

describe('SmsModule instances sharing their stores', () => {
  const inbox: Array<{ instance: string; message: InboundMessage }> = [];
  const store = createMemoryDuplicateStore();
  const reassemblyStore = createMemoryReassemblyStore();
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      @Module({ providers: [{ provide: INBOX, useValue: inbox }], exports: [INBOX] })
      class InboxModule {}
      apps.push(
        await startApp({
          imports: [{ module: InboxModule, global: true }, SmsModule.forRoot({ client: CLIENT, webhookPath: 'sms/callbacks', webhooks: { allowUnauthenticated: true, store, reassemblyStore } })],
          providers: [InboxService],
        }),
      );
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('joins the parts that reach different instances into one message, handed over once', async () => {
    const [a, b] = apps as [RunningApp, RunningApp];
    expect((await postFixture(`${a.url}/sms/callbacks`, 'inbound-utf16-ref16-part2.json', { headers: { 'x-instance': 'a' } })).status).toBe(200);
    expect(reassemblyStore.pending).toBe(1);
    expect((await postFixture(`${b.url}/sms/callbacks`, 'inbound-utf16-ref16-part1.json', { headers: { 'x-instance': 'b' } })).status).toBe(200);
    expect((await postFixture(`${a.url}/sms/callbacks`, 'inbound-utf16-ref16-part1.json', { headers: { 'x-instance': 'a' } })).status).toBe(200);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]?.instance).toBe('b');
    expect(inbox[0]?.message).toMatchObject({ complete: true, text: 'Привет! Это первая часть и вторая часть сообщения.' });
    expect(reassemblyStore.pending).toBe(0);
  });
});

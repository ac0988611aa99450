import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectSmsClient, SmsCodec, type SmsClient } from '@smsv4/nest-module';
import { MessageStore, type SentMessage } from './message-store';

/** Sends notifications through the injected client. */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectSmsClient() private readonly sms: SmsClient,
    private readonly codec: SmsCodec,
    private readonly store: MessageStore,
    @Inject(ConfigService) private readonly config: ConfigService,
  ) {}

  /** Sends `text` to `to` (digits with the country code), in as many parts as it needs. */
  async send(to: string, text: string): Promise<SentMessage> {
    if (this.store.optedOut.has(to)) throw new Error(`${to} replied STOP`);
    const { segments } = this.codec.estimateSegments(text);
    // SMS_CALLBACK_URL: where the service posts the receipts (else the URL set at provisioning).
    const callbackUrl = this.config.get<string>('SMS_CALLBACK_URL');
    const { ticketId } = await this.sms.send({
      destination: { address: to },
      message: { type: 'text', content: text, mlc: segments > 1 ? 'segment' : 'reject' },
      delivery: { receiptRequested: 'final', ...(callbackUrl === undefined ? {} : { url: callbackUrl }) },
    });
    const message: SentMessage = { ticketId, to, segments };
    this.store.sent.set(ticketId, message);
    return message;
  }

  /** What the receipts said, or the service's status while none arrived. */
  async status(ticketId: string): Promise<{ ticketId: string; code: number; description?: string; source: 'receipts' | 'status' }> {
    const known = this.store.sent.get(ticketId)?.status;
    if (known !== undefined) return { ticketId, code: known.code, description: known.description, source: 'receipts' };
    const { status } = await this.sms.getStatus(ticketId);
    return { ticketId, code: status.code, ...(status.description === undefined ? {} : { description: status.description }), source: 'status' };
  }
}

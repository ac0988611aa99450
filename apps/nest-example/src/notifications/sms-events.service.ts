import { Injectable, Logger } from '@nestjs/common';
import { InjectSmsClient, OnDeliveryReceipt, OnInboundMessage, type DeliveryReceipt, type InboundMessage, type SmsClient } from '@smsv4/nest-module';
import { MessageStore } from './message-store';

/**
 * Takes the callbacks. Each method's promise must resolve before the service is answered 200; if it
 * throws, the service gets a 500 and retries (receipts for 24 hours, inbound messages for 3 days).
 */
@Injectable()
export class SmsEventsService {
  readonly #logger = new Logger(SmsEventsService.name);

  constructor(
    private readonly store: MessageStore,
    @InjectSmsClient() private readonly sms: SmsClient,
  ) {}

  /** One receipt per part: folded into the message's status (830 once a part failed, 831 while parts are missing). */
  @OnDeliveryReceipt()
  onReceipt(receipt: DeliveryReceipt): void {
    const status = this.store.receipts.add(receipt);
    const sent = this.store.sent.get(status.ticketId);
    if (sent !== undefined) sent.status = status;
    this.#logger.log(`${status.ticketId}: ${status.code} ${status.description ?? ''}${status.complete ? '' : ` (parts ${status.missing.join(', ')} to come)`}`);
  }

  /** Multipart messages arrive here once, reassembled. STOP opts the sender out and is confirmed once. */
  @OnInboundMessage()
  async onInbound(message: InboundMessage): Promise<void> {
    const from = message.source.address;
    const text = message.text ?? '';
    this.#logger.log(`from ${from} to ${message.destination.address}: ${text}`);
    if (text.trim().toUpperCase() === 'STOP') {
      if (this.store.optedOut.has(from)) return; // a retry of a STOP already confirmed
      // If this send fails, the handler throws: the service is answered 500 and posts the STOP again.
      await this.sms.send({ destination: { address: from }, message: { type: 'text', content: 'You will receive no more messages from us.' } });
      this.store.optedOut.add(from);
    }
    this.store.inbound.push(message);
  }
}

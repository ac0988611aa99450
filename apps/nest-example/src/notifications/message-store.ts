import { Injectable } from '@nestjs/common';
import { createReceiptAggregator, type InboundMessage, type MessageDeliveryStatus } from '@smsv4/nest-module';

/** What the application knows of a message it sent. */
export interface SentMessage {
  readonly ticketId: string;
  readonly to: string;
  readonly segments: number;
  /** From the receipts, once the first arrived. */
  status?: MessageDeliveryStatus;
}

/**
 * The application's records, in memory for the example: use your database (and make the writes
 * idempotent, e.g. keyed by ticket ID and part, as the service may deliver a callback twice).
 */
@Injectable()
export class MessageStore {
  readonly sent = new Map<string, SentMessage>();
  readonly inbound: InboundMessage[] = [];
  readonly optedOut = new Set<string>();
  readonly receipts = createReceiptAggregator();
}

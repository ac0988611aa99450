/**
 * `@OnDeliveryReceipt()` and `@OnInboundMessage()`: mark provider methods as handlers of the
 * callbacks the webhook controller receives. The module finds them at start-up in every provider.
 */
import { SetMetadata } from '@nestjs/common';
import type { CallbackKind } from '@smsv4/core';

/** Metadata key of `@OnDeliveryReceipt()` methods. */
export const ON_DELIVERY_RECEIPT = '@smsv4/nest-module:on-delivery-receipt';
/** Metadata key of `@OnInboundMessage()` methods. */
export const ON_INBOUND_MESSAGE = '@smsv4/nest-module:on-inbound-message';

/** The metadata key of each kind of callback. */
export const HANDLER_METADATA: Readonly<Record<CallbackKind, string>> = Object.freeze({
  'delivery-receipt': ON_DELIVERY_RECEIPT,
  'inbound-message': ON_INBOUND_MESSAGE,
});

/**
 * Marks a method that takes each delivery receipt (one per message part):
 * `(receipt: DeliveryReceipt, context: WebhookContext<NestPlatform>) => unknown`. The callback is
 * answered 200 only once the method (and every other receipt handler) has resolved; a throw or a
 * rejection answers 500, so the service retries.
 *
 * @example
 * @Injectable()
 * export class ReceiptsService {
 *   @OnDeliveryReceipt()
 *   async save(receipt: DeliveryReceipt) {
 *     await this.db.receipts.upsert(receipt.mtStatus);
 *   }
 * }
 */
export function OnDeliveryReceipt(): MethodDecorator {
  return SetMetadata(ON_DELIVERY_RECEIPT, true);
}

/**
 * Marks a method that takes each inbound message, multipart messages reassembled (and orphans, with
 * `complete: false`, unless `webhooks.onOrphan` is set):
 * `(message: InboundMessage, context: WebhookContext<NestPlatform>) => unknown`. Answered 200 only
 * once it resolved; a failure answers 500.
 *
 * @example
 * @OnInboundMessage()
 * async reply(message: InboundMessage) {
 *   if (message.text?.trim().toUpperCase() === 'STOP') await this.optOuts.add(message.source.address);
 * }
 */
export function OnInboundMessage(): MethodDecorator {
  return SetMetadata(ON_INBOUND_MESSAGE, true);
}

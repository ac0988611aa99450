/**
 * The webhook controller: one class per module declaration, so that each gets its own path. It
 * only hands the request and response to the receiver (on Express; on Fastify the receiver answers
 * the route before it reaches the controller).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Inject, Req, Res, SetMetadata, UseGuards, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import { SmsBasicAuthGuard } from './basic-auth-guard.js';
import { FASTIFY_ROUTE_CONFIG, SmsWebhookReceiver, WEBHOOK_ROUTE_MARK } from './webhook-receiver.js';

/** Creates the controller class of the receiving URL `path` (every method: the receiver answers 405 to all but POST). */
export function createWebhookController(path: string): Type<unknown> {
  @Controller({ path, version: VERSION_NEUTRAL })
  @UseGuards(SmsBasicAuthGuard)
  class SmsWebhookController {
    constructor(@Inject(SmsWebhookReceiver) private readonly receiver: SmsWebhookReceiver) {}

    // On Fastify, the route carries its path in its config: the receiver answers it from the route's
    // onRequest hook, before Fastify parses the body (see SmsWebhookReceiver).
    @All()
    @SetMetadata(FASTIFY_ROUTE_CONFIG, { [WEBHOOK_ROUTE_MARK]: path })
    receive(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
      return this.receiver.handle(req, res);
    }
  }
  return SmsWebhookController;
}

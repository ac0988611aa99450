import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { SmsApiError } from '@smsv4/nest-module';
import { MessageStore } from './message-store';
import { NotificationsService } from './notifications.service';

/** The application's own API: send a notification, read its status, list inbound messages. */
@Controller('notifications')
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly store: MessageStore,
  ) {}

  @Post()
  @HttpCode(202)
  async send(@Body() body: { to?: unknown; text?: unknown }) {
    if (typeof body?.to !== 'string' || !/^\d{5,20}$/.test(body.to)) throw new BadRequestException('to: 5 to 20 digits with the country code, no +');
    if (typeof body.text !== 'string' || body.text === '') throw new BadRequestException('text: a non-empty string');
    try {
      return await this.notifications.send(body.to, body.text);
    } catch (error) {
      // 540 and friends: the service's own code and description, checked before the request left.
      if (error instanceof SmsApiError && error.kind === 'invalid-request') throw new BadRequestException(`${error.code} ${error.description}`);
      throw error;
    }
  }

  @Get('inbound')
  inbound() {
    return this.store.inbound.map((m) => ({ from: m.source.address, to: m.destination.address, text: m.text, ticketIds: m.ticketIds }));
  }

  @Get(':ticketId')
  status(@Param('ticketId') ticketId: string) {
    return this.notifications.status(ticketId);
  }
}

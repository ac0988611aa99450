import { Module } from '@nestjs/common';
import { MessageStore } from './message-store';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { SmsEventsService } from './sms-events.service';

// No need to import SmsModule here: it was declared global in AppModule.
@Module({
  controllers: [NotificationsController],
  providers: [MessageStore, NotificationsService, SmsEventsService],
})
export class NotificationsModule {}

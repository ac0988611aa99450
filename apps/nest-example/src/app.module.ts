import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { SmsModule } from '@smsv4/nest-module';
import { NotificationsModule } from './notifications/notifications.module';
import { smsOptionsFromConfig } from './sms-options';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true }),
    // Global: every module can inject the client. The webhook controller answers at /sms/callbacks;
    // the @OnDeliveryReceipt() and @OnInboundMessage() methods of any provider get the callbacks.
    SmsModule.forRootAsync({
      isGlobal: true,
      webhookPath: 'sms/callbacks',
      inject: [ConfigService],
      useFactory: smsOptionsFromConfig,
    }),
    NotificationsModule,
  ],
})
export class AppModule {}

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  // rawBody: true keeps the exact bytes of JSON callbacks next to Nest's parsed body, so the receiver
  // checks them as the service sent them (a repeated member is refused). XML callbacks are read by the
  // receiver itself either way.
  const app = await NestFactory.create(AppModule, { rawBody: true });
  // Stops cleanly on SIGTERM: incomplete multipart inbound messages are handed over, servers closed.
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost');
  Logger.log(`Listening on ${url} (callbacks at ${url}/sms/callbacks)`, 'Bootstrap');
}

void bootstrap();

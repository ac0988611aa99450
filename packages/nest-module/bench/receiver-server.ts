/**
 * The server side of the benchmark, run in a child process (its own core): one Nest 11 application
 * (Express platform, default body parsers) with three routes that take the same XML receipts:
 * `/bare`, a Nest controller that only answers 200; `/sms/callbacks`, this package's webhook
 * controller with one `@OnDeliveryReceipt()` method; `/express`, @smsv4/express-webhooks' middleware
 * mounted with `app.use` in the same application. The handlers count each receipt by ticket ID and
 * part. Answers `stats` messages with those counts and the process's CPU time.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { Controller, HttpCode, Injectable, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createWebhookMiddleware } from '@smsv4/express-webhooks';
import { OnDeliveryReceipt, SmsModule, type DeliveryReceipt } from '../src/index.js';

const counts = { nest: new Map<string, number>(), express: new Map<string, number>() };
const duplicates = { nest: 0, express: 0 };
const count = (map: Map<string, number>, receipt: DeliveryReceipt): void => {
  const key = `${receipt.mtStatus.ticketId}#${receipt.mtStatus.segmentNumber ?? 1}`;
  map.set(key, (map.get(key) ?? 0) + 1);
};

@Controller('bare')
class BareController {
  @Post()
  @HttpCode(200)
  take(): void {}
}

@Injectable()
class Receipts {
  @OnDeliveryReceipt()
  take(receipt: DeliveryReceipt): void {
    count(counts.nest, receipt);
  }
}

@Module({
  imports: [
    SmsModule.forRoot({
      client: { baseUrl: 'http://127.0.0.1:9', accountId: 'bench', password: 'bench' },
      webhookPath: 'sms/callbacks',
      webhooks: { onDuplicate: () => void duplicates.nest++ },
    }),
  ],
  controllers: [BareController],
  providers: [Receipts],
})
class BenchModule {}

const app = await NestFactory.create(BenchModule, { logger: false });
const middleware = createWebhookMiddleware({ onDeliveryReceipt: (receipt) => count(counts.express, receipt), onDuplicate: () => void duplicates.express++ });
app.use('/express', middleware);
await app.listen(0, '127.0.0.1');
const server = app.getHttpServer() as Server;
server.keepAliveTimeout = 30_000;
process.send?.({ kind: 'ready', url: (await app.getUrl()).replace('[::1]', '127.0.0.1') });

process.on('message', (message: { kind: string }) => {
  if (message.kind === 'stats') {
    const doubles = (map: Map<string, number>) => [...map.values()].filter((n) => n > 1).length;
    const cpu = process.cpuUsage();
    process.send?.({
      kind: 'stats',
      handled: { nest: counts.nest.size, express: counts.express.size },
      doubles: { nest: doubles(counts.nest), express: doubles(counts.express) },
      duplicates,
      cpuMicros: cpu.user + cpu.system,
    });
  } else if (message.kind === 'close') {
    middleware.close();
    server.closeAllConnections();
    void app.close().then(() => process.exit(0));
  }
});

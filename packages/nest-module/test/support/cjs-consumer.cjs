// A CommonJS application, as `nest new` makes them: it require()s the built package, boots a module
// with a decorated handler, sends through the injected client to the sandbox and takes the receipt.
// Prints one JSON line for test/cjs-consumer.e2e.test.ts.
'use strict';
require('reflect-metadata');
const { Injectable, Module, Inject } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { SmsModule, OnDeliveryReceipt, SMS_CLIENT, SmsCodec } = require('@smsv4/nest-module');
const { createManualClock, createSandbox } = require('@smsv4/sandbox');

async function main() {
  const clock = createManualClock();
  const sandbox = createSandbox({ clock });
  const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const receipts = [];

  // Decorators applied by hand, as TypeScript's CommonJS output does.
  class Receipts {
    constructor(codec) {
      this.codec = codec;
    }
    take(receipt) {
      receipts.push({ ticketId: receipt.mtStatus.ticketId, code: receipt.mtStatus.code, segments: this.codec.estimateSegments('Hello').segments });
    }
  }
  OnDeliveryReceipt()(Receipts.prototype, 'take', Object.getOwnPropertyDescriptor(Receipts.prototype, 'take'));
  Inject(SmsCodec)(Receipts, undefined, 0);
  Injectable()(Receipts);

  class AppModule {}
  Module({
    imports: [SmsModule.forRoot({ isGlobal: true, webhookPath: 'sms/callbacks', webhooks: { allowUnauthenticated: true }, client: { baseUrl: server.url, accountId: 'sandbox', password: 'sandbox-password' } })],
    providers: [Receipts],
  })(AppModule);

  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  try {
    const client = app.get(SMS_CLIENT);
    const sent = await client.send({
      destination: { address: '14155550100' },
      message: { type: 'text', content: 'From CommonJS' },
      delivery: { receiptRequested: 'final', url: `${url}/sms/callbacks` },
    });
    await clock.advance(1000);
    for (let i = 0; i < 300 && receipts.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    process.stdout.write(
      `${JSON.stringify({
        ticketId: sent.ticketId,
        receipts,
        resolved: require.resolve('@smsv4/nest-module'),
        nestVersion: require('@nestjs/core/package.json').version,
      })}\n`,
    );
  } finally {
    await app.close();
    await server.close();
    await sandbox.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});

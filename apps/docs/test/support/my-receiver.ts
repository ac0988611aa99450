// `./my-receiver.js` of the conformance example: the receiver adapter under test.
import type { RequestListener } from 'node:http';
import type { WebhookHandlerOptions } from '@smsv4/core';

export declare function createMyReceiver(options: WebhookHandlerOptions): { listener: RequestListener; close(): void };

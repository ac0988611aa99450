/** Shared helpers of the end-to-end tests: both Express majors and the testing kit's server. */
import type { WebhookHandlerOptions } from '@smsv4/core';
import { eventually, serve, type ReceiverUnderTest, type ServedApp } from '@smsv4/testing';
import express5, { type Express } from 'express';
import express4 from 'express4';
import { createWebhookMiddleware } from '../src/index.js';

export { eventually };

/** The Express majors every end-to-end suite runs against. */
export const EXPRESS_VERSIONS: ReadonlyArray<readonly [string, () => Express]> = [
  ['express 4', () => express4()],
  ['express 5', () => express5()],
];

/** The `express` module of a major (for its body parsers). */
export const EXPRESS_MODULES = { 'express 4': express4, 'express 5': express5 } as const;

/** A server on 127.0.0.1 (any free port), closed by the kit after the file when not closed before. */
export type Listening = ServedApp;

/** Serves an Express app on loopback. */
export const listen = (app: Express): Promise<Listening> => serve(app);

/**
 * Starts the middleware with these options at `/callbacks` of an app of one Express major that
 * trusts a loopback proxy: the receivers of the conformance and telemetry suites.
 */
export const receiverStarter =
  (createApp: () => Express) =>
  async (options: WebhookHandlerOptions): Promise<ReceiverUnderTest> => {
    const app = createApp();
    app.set('trust proxy', 'loopback');
    const receiver = createWebhookMiddleware(options);
    app.use('/callbacks', receiver);
    const served = await serve(app, { teardown: 'manual' });
    return {
      url: `${served.url}/callbacks`,
      close: async () => {
        receiver.close();
        await served.close();
      },
    };
  };

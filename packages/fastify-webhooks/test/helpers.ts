/** Shared helpers of the end-to-end tests: both Fastify majors, loopback listening. */
import type { WebhookHandlerOptions } from '@smsv4/core';
import type { ReceiverUnderTest } from '@smsv4/testing';
import fastify5, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastify4 from 'fastify4';
import { fastifyWebhooks } from '../src/index.js';

/** The Fastify majors every end-to-end suite runs against. */
export const FASTIFY_VERSIONS: ReadonlyArray<readonly [string, (options?: FastifyServerOptions) => FastifyInstance]> = [
  ['fastify 4', (options) => fastify4(options)],
  ['fastify 5', (options) => fastify5(options)],
];

/** Starts an app on 127.0.0.1 (any free port) and returns its origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  return (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
}

/**
 * Starts the plugin with these options at `/callbacks` of an app of one Fastify major that trusts
 * a loopback proxy: the receivers of the conformance and telemetry suites.
 */
export const receiverStarter =
  (createApp: (options?: FastifyServerOptions) => FastifyInstance) =>
  async (options: WebhookHandlerOptions): Promise<ReceiverUnderTest> => {
    const app = createApp({ trustProxy: '127.0.0.1' });
    await app.register(fastifyWebhooks, { prefix: '/callbacks', ...options });
    return { url: `${await listen(app)}/callbacks`, close: () => app.close() };
  };

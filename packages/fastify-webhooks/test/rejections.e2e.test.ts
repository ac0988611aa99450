/**
 * What is Fastify's own among the paths on which the plugin does not take a callback: a hook that
 * read the body first, and options that make no sense at registration. Every other rejection is in
 * the receiver conformance suite (conformance.e2e.test.ts).
 */
import { postFixture } from '@smsv4/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyWebhooks, type FastifyWebhooksOptions, type WebhookError } from '../src/index.js';
import { FASTIFY_VERSIONS, listen } from './helpers.js';

describe.each(FASTIFY_VERSIONS)('rejections on %s', (_name, createApp) => {
  let app: FastifyInstance;
  let origin: string;
  const errors: WebhookError[] = [];

  beforeAll(async () => {
    app = createApp();
    app.register(async (scope) => {
      // A hook of the application that reads the body before the plugin's route.
      scope.addHook('preHandler', async (request) => {
        for await (const _chunk of request.raw) void _chunk;
      });
      await scope.register(fastifyWebhooks, { allowUnauthenticated: true, prefix: '/consumed', onError: (e: WebhookError) => void errors.push(e), onDeliveryReceipt: () => undefined });
    });
    origin = await listen(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers 500 when a hook read the body before the plugin, and says what to do', async () => {
    const answer = await postFixture(`${origin}/consumed`, 'receipt-single-delivered.xml');
    expect(answer.status).toBe(500);
    expect(errors.find((e) => e.code === 'receiver-misconfigured')?.message).toMatch(/read no body in hooks/);
  });

  it('refuses to register with options that make no sense', async () => {
    const bad = createApp();
    bad.register(fastifyWebhooks, { allowUnauthenticated: true, prefix: '/x' } as FastifyWebhooksOptions);
    await expect(bad.ready()).rejects.toThrow(/onDeliveryReceipt, onInboundMessage, or both/);
    await bad.close().catch(() => undefined);
  });
});

/** Shared helpers of the end-to-end tests: a Fetch handler served on loopback, and polling. */
import type { AddressInfo } from 'node:net';
import type { WebhookHandlerOptions } from '@smsv4/core';
import { eventually as poll, type ReceiverUnderTest } from '@smsv4/testing';
import { serve } from '@hono/node-server';
import { createFetchWebhookHandler, lastForwardedFor } from '../src/index.js';

/** A server on 127.0.0.1 (any free port). */
export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves a Fetch handler on loopback with Node's HTTP server (through @hono/node-server). */
export async function listenFetch(fetch: (request: Request) => Response | Promise<Response>): Promise<Listening> {
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve({ server: s, port: info.port }));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/** The testing kit's `eventually`, with this suite's longer default wait (other runtimes start slowly). */
export const eventually = <T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => poll(check, timeoutMs, 20);

/**
 * Starts the handler with these options, served at `/callbacks` by Node's HTTP server, the peer's
 * address read from the last X-Forwarded-For entry (`lastForwardedFor`, as behind one proxy): the
 * receivers of the conformance and telemetry suites.
 */
export async function startReceiver(options: WebhookHandlerOptions): Promise<ReceiverUnderTest> {
  const receiver = createFetchWebhookHandler({ getRemoteAddress: lastForwardedFor, ...options });
  const server = await listenFetch((request) => (new URL(request.url).pathname === '/callbacks' ? receiver(request) : new Response('not found', { status: 404 })));
  return {
    url: `${server.url}/callbacks`,
    close: async () => {
      receiver.close();
      await server.close();
    },
  };
}

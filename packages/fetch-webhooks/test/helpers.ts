/** Shared helpers of the end-to-end tests: fixtures, a Fetch handler served on loopback, requests. */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** One real payload file of `test/fixtures/`, as text. */
export function loadFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

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

/** The headers the service sends with a callback of a fixture (by its extension). */
export function callbackHeaders(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': name.endsWith('.json') ? 'application/json; charset=UTF-8' : 'application/xml; charset=UTF-8',
    'x-api-version': '4',
    'user-agent': 'test-suite',
    ...extra,
  };
}

/** An answer, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** Posts a fixture to a URL as the service would. */
export async function postCallback(url: string, fixture: string, extra: Record<string, string> = {}, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers: callbackHeaders(fixture, extra), body: loadFixture(fixture), ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Polls `check` until it returns a value other than `undefined` (rejects after `timeoutMs`). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Shared helpers of the end-to-end tests: fixtures, a Fetch handler served on loopback, requests. */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callbackHeaders as serviceHeaders, eventually as poll, postCallback as post } from '@smsv4/testing';
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

const formatOf = (name: string): 'json' | 'xml' => (name.endsWith('.json') ? 'json' : 'xml');

/** The headers the service sends with a callback of a fixture (by its extension). */
export function callbackHeaders(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...serviceHeaders(formatOf(name), { userAgent: 'test-suite' }), ...extra };
}

/** An answer, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** Posts a fixture to a URL as the service would (one attempt, through the testing kit), with extra headers. */
export async function postCallback(url: string, fixture: string, extra: Record<string, string> = {}): Promise<Answer> {
  const report = await post(url, loadFixture(fixture), { format: formatOf(fixture), headers: extra, userAgent: 'test-suite' });
  const attempt = report.attempts[0];
  if (attempt?.status === undefined) throw new Error(`no answer from ${url}: ${attempt?.error ?? 'no attempt'}`);
  return { status: attempt.status, headers: new Headers(attempt.headers), body: attempt.body };
}

/** The testing kit's `eventually`, with this suite's longer default wait (other runtimes start slowly). */
export const eventually = <T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => poll(check, timeoutMs, 20);

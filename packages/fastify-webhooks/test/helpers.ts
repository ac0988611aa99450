/** Shared helpers of the end-to-end tests: both Fastify majors, loopback listening, fixtures, requests. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastify5, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastify4 from 'fastify4';

/** The Fastify majors every end-to-end suite runs against. */
export const FASTIFY_VERSIONS: ReadonlyArray<readonly [string, (options?: FastifyServerOptions) => FastifyInstance]> = [
  ['fastify 4', (options) => fastify4(options)],
  ['fastify 5', (options) => fastify5(options)],
];

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** One real payload file of `test/fixtures/`, as text. */
export function loadFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Starts an app on 127.0.0.1 (any free port) and returns its origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  return (await app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
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
export async function eventually<T>(check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

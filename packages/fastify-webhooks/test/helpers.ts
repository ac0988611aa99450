/** Shared helpers of the end-to-end tests: both Fastify majors, loopback listening, fixtures, requests. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callbackHeaders as serviceHeaders, eventually, postCallback as post } from '@smsv4/testing';
import fastify5, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastify4 from 'fastify4';

export { eventually };

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

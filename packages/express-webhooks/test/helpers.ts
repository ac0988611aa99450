/** Shared helpers of the end-to-end tests: both Express majors, fixtures, and the testing kit's server and poster. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callbackHeaders as serviceHeaders, eventually, postCallback as post, serve, type ServedApp } from '@smsv4/testing';
import express5, { type Express } from 'express';
import express4 from 'express4';

export { eventually };

/** The Express majors every end-to-end suite runs against. */
export const EXPRESS_VERSIONS: ReadonlyArray<readonly [string, () => Express]> = [
  ['express 4', () => express4()],
  ['express 5', () => express5()],
];

/** The `express` module of a major (for its body parsers). */
export const EXPRESS_MODULES = { 'express 4': express4, 'express 5': express5 } as const;

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** One real payload file of `test/fixtures/`, as text. */
export function loadFixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** A server on 127.0.0.1 (any free port), closed by the kit after the file when not closed before. */
export type Listening = ServedApp;

/** Serves an Express app on loopback. */
export const listen = (app: Express): Promise<Listening> => serve(app);

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

/** Posts a fixture to a URL as the service would (one attempt), with extra headers. */
export async function postCallback(url: string, fixture: string, extra: Record<string, string> = {}): Promise<Answer> {
  const report = await post(url, loadFixture(fixture), { format: formatOf(fixture), headers: extra, userAgent: 'test-suite' });
  const attempt = report.attempts[0];
  if (attempt?.status === undefined) throw new Error(`no answer from ${url}: ${attempt?.error ?? 'no attempt'}`);
  return { status: attempt.status, headers: new Headers(attempt.headers), body: attempt.body };
}

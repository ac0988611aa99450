/** Shared helpers of the end-to-end tests: both Express majors, a loopback listener, fixtures, requests. */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express5, { type Express } from 'express';
import express4 from 'express4';

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

/** A server on 127.0.0.1 (any free port). */
export interface Listening {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves an Express app on loopback. */
export async function listen(app: Express): Promise<Listening> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
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

/** Posts a fixture (or any body) to a URL as the service would. */
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

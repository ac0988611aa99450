/** Shared helpers of the tests: fixtures, fetch wrappers, a scripted stub server, free ports. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeInvokeServiceRequest, decodeMtRequest, type InvokeServiceRequest, type MtRequest } from '@smsv4/core';
import type { Sandbox } from '@smsv4/sandbox';
import type { FetchFunction } from '../src/index.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The text of a fixture file under `test/fixtures/`. */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** An MT request fixture (a JSON send body), decoded by core. */
export function mtFixture(name: string): MtRequest {
  const decoded = decodeMtRequest(fixture(name), 'json');
  if (decoded.ok) return decoded.value;
  // Fixtures of invalid requests: the body as it is, inside mobileTerminate.
  return (JSON.parse(fixture(name)) as { mobileTerminate: MtRequest }).mobileTerminate;
}

/** An Invoke Service request fixture (a JSON body), decoded by core. */
export function invokeFixture(name: string): InvokeServiceRequest {
  const decoded = decodeInvokeServiceRequest(fixture(name));
  if (!decoded.ok) throw new Error(`fixture ${name}: ${decoded.error.description}`);
  return decoded.value;
}

/** The sandbox's Web handler as a `fetch`. */
export function sandboxFetch(sandbox: Sandbox): FetchFunction {
  return (url, init) => sandbox.fetch(new Request(url, init));
}

/** A `fetch` that records every request it makes. */
export function recordingFetch(inner: FetchFunction): FetchFunction & { calls: { url: string; init: RequestInit }[] } {
  const calls: { url: string; init: RequestInit }[] = [];
  const wrapped = ((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return inner(url, init);
  }) as FetchFunction & { calls: typeof calls };
  wrapped.calls = calls;
  return wrapped;
}

/** The global `fetch`, as the client calls it. */
export const globalFetch: FetchFunction = (url, init) => fetch(url, init);

/** One scripted answer of the stub server. */
export interface StubAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Wait before answering, ms. */
  readonly delayMs?: number;
  /** Destroy the socket instead of answering. */
  readonly drop?: boolean;
}

/** A request the stub received. */
export interface StubRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** A local server answering from a script, for answers the sandbox never gives. */
export interface Stub {
  readonly url: string;
  readonly requests: StubRequest[];
  /** Answers for the next requests, in order; afterwards `fallback`. */
  script(...answers: StubAnswer[]): void;
  close(): Promise<void>;
}

/** Starts a stub on 127.0.0.1 (a free port, or `port`). */
export async function startStub(fallback: StubAnswer = { status: 500 }, port = 0): Promise<Stub> {
  const requests: StubRequest[] = [];
  let answers: StubAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = answers.shift() ?? fallback;
      const respond = (): void => {
        if (answer.drop === true) {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs === undefined) respond();
      else setTimeout(respond, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    script: (...list) => void (answers = list),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A TCP port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Account credentials of the sandbox's default accounts (password: `<id>-password`). */
export function account(accountId = 'sandbox', password = `${accountId}-password`): { accountId: string; password: string } {
  return { accountId, password };
}

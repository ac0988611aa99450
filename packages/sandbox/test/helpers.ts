/** Shared helpers of the end-to-end tests: a scripted callback receiver, credentials, polling. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuthorization } from '@smsv4/core';

/** `Authorization` header of an account whose password is `<id>-password` (the default accounts). */
export const auth = (accountId = 'sandbox', password = `${accountId}-password`): string => basicAuthorization({ accountId, password });

/** One request the receiver got. */
export interface ReceivedCallback {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** What the receiver did with it. */
  readonly answer: number | 'drop' | 'hang';
}

/** A local receiver of receipts and inbound messages. */
export interface Receiver {
  readonly url: string;
  readonly received: ReceivedCallback[];
  /** Answers for the next requests, in order (`drop` destroys the socket, `hang` never answers); afterwards 200. */
  script(...answers: (number | 'drop' | 'hang')[]): void;
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (any free port). */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedCallback[] = [];
  let answers: (number | 'drop' | 'hang')[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = answers.shift() ?? 200;
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answer });
      for (const w of [...waiters]) if (received.length >= w.count) w.resolve();
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer >= 200 && answer < 300 ? '' : `receiver says ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    received,
    script: (...list) => void (answers = list),
    waitFor(count, timeoutMs = 5000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls `check` until it returns a value other than `undefined` (rejects after `timeoutMs`). */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A JSON send body. */
export function jsonSend(mt: Record<string, unknown>): string {
  return JSON.stringify({ mobileTerminate: mt });
}

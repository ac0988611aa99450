/**
 * `startCallbackReceiver()`: a receiver on a free loopback port that records every request and
 * answers as scripted (a status, a dropped connection, no answer at all): to see exactly what the
 * sandbox (or your own code) posts, and how it copes with a receiver that fails.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once, prepareTeardown, type Teardown } from '../sandbox/teardown.js';

/** What the receiver does with a request: answer with a status, `drop` the connection, or `hang` (never answer). */
export type ScriptedAnswer = number | 'drop' | 'hang';

/** One request the receiver got. */
export interface ReceivedCallback {
  readonly method: string;
  /** The path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** What the receiver did with it. */
  readonly answer: ScriptedAnswer;
}

/** A running callback receiver. */
export interface CallbackReceiver {
  /** Where to post (`http://127.0.0.1:<port>/callbacks`). */
  readonly url: string;
  /** Every request so far, in order of arrival. */
  readonly received: readonly ReceivedCallback[];
  /** The answers to the next requests, in order; once spent, 200 (or the default answer). */
  script(...answers: ScriptedAnswer[]): void;
  /** Resolves with the requests once `count` have arrived (rejects after `timeoutMs`, default 5000). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  /** Stops listening and drops open connections (once). */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@link startCallbackReceiver}. */
export interface CallbackReceiverOptions {
  /** The answer once the script is spent (default 200). */
  readonly defaultAnswer?: number;
  /** The path of {@link CallbackReceiver.url} (default `/callbacks`; every path is received). */
  readonly path?: string;
  /** How it is closed (default `'auto'`). */
  readonly teardown?: Teardown;
}

const isAnswer = (a: unknown): a is ScriptedAnswer => a === 'drop' || a === 'hang' || (typeof a === 'number' && Number.isInteger(a) && a >= 200 && a <= 599);

/**
 * Starts a recording receiver.
 *
 * @example
 * const receiver = await startCallbackReceiver();
 * receiver.script(500, 'drop'); // then 200
 * // ... let the sandbox post a receipt to receiver.url, advance its clock ...
 * expect(receiver.received.map((r) => r.answer)).toEqual([500, 'drop', 200]);
 */
export async function startCallbackReceiver(options: CallbackReceiverOptions = {}): Promise<CallbackReceiver> {
  const { defaultAnswer = 200, path = '/callbacks', teardown } = options;
  const register = prepareTeardown(teardown, 'startCallbackReceiver');
  if (!isAnswer(defaultAnswer) || typeof defaultAnswer !== 'number') throw new TypeError('defaultAnswer must be an HTTP status from 200 to 599');
  if (!path.startsWith('/')) throw new TypeError('path must start with /');
  const received: ReceivedCallback[] = [];
  let answers: ScriptedAnswer[] = [];
  const waiters = new Set<{ count: number; resolve: () => void }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = answers.shift() ?? defaultAnswer;
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answer });
      for (const waiter of [...waiters]) if (received.length >= waiter.count) waiter.resolve();
      if (answer === 'drop') return void req.socket.destroy();
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer >= 200 && answer < 300 ? '' : `receiver says ${answer}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const close = once(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const receiver: CallbackReceiver = {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    script(...list) {
      const bad = list.find((a) => !isAnswer(a));
      if (bad !== undefined) throw new TypeError(`an answer is an HTTP status from 200 to 599, 'drop' or 'hang', not ${String(bad)}`);
      answers = list;
    },
    waitFor(count, timeoutMs = 5000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(received.slice());
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
  register(close);
  return receiver;
}

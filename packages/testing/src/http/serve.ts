/** `serve()`: your app (any Node request listener: an Express app, a Nest app's handler) on a free loopback port. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once, prepareTeardown, type Teardown } from '../sandbox/teardown.js';

/** A server of {@link serve}. */
export interface ServedApp {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  readonly server: Server;
  /** Stops listening and drops open connections (once). */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Serves a request listener on 127.0.0.1 (a free port), closed by the test runner like the
 * sandbox (`teardown`, default `'auto'`).
 *
 * @example
 * const app = express();
 * app.use('/callbacks', createWebhookMiddleware({ allowUnauthenticated: true, onDeliveryReceipt }));
 * const { url } = await serve(app);
 * await postCallback(`${url}/callbacks`, buildDeliveryReceipt());
 */
export async function serve(listener: RequestListener, { teardown }: { readonly teardown?: Teardown } = {}): Promise<ServedApp> {
  if (typeof listener !== 'function') throw new TypeError('serve takes a request listener (an Express app is one)');
  const register = prepareTeardown(teardown, 'serve');
  const server = createServer(listener);
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
  register(close);
  return { url: `http://127.0.0.1:${port}`, server, close, [Symbol.asyncDispose]: close };
}

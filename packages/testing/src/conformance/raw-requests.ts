/**
 * Requests `fetch` cannot make: a chunked body of a given size, a body that breaks off, and a
 * proxy that holds the first request back so that the parts of a message arrive out of order.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/** Posts `size` bytes of spaces in 1 KiB chunks without a Content-Length (chunked transfer); the answer read whole. */
export function postChunked(url: string, headers: Record<string, string>, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = new Uint8Array(1024).fill(0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

/** What {@link postEndless} saw. */
export interface EndlessAnswer {
  readonly status: number;
  /** The answer's `Connection` header. */
  readonly connection: string | undefined;
  /** Whether the server closed the connection while the body was still being sent. */
  readonly closed: boolean;
}

/**
 * Posts a chunked body that never ends (1 KiB chunks, at most `limitBytes`) on a raw socket, and
 * reads the answer; resolves once the server closes the connection, or once `limitBytes` were sent
 * without it closing (`closed: false`: the server kept reading a body it had answered).
 */
export function postEndless(url: string, headers: Record<string, string>, limitBytes = 8 * 1024 * 1024): Promise<EndlessAnswer> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let head = '';
    let sent = 0;
    let done = false;
    const chunk = `400\r\n${' '.repeat(1024)}\r\n`;
    const finish = (closed: boolean): void => {
      if (done) return;
      done = true;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const connection = /\r\nconnection: *([^\r]*)/i.exec(head)?.[1]?.trim().toLowerCase();
      socket.destroy();
      if (status === 0) reject(new Error(`no answer before the connection ${closed ? 'closed' : 'stayed open'}`));
      else resolve({ status, connection, closed });
    };
    const pump = (): void => {
      while (!done && sent < limitBytes) {
        sent += 1024;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (sent >= limitBytes) finish(false);
    };
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      if (head.length < 4096) head += data;
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${lines}transfer-encoding: chunked\r\n\r\n`);
      pump();
    });
  });
}

/** Options of {@link postStalledBody}. */
export interface PostStalledBodyOptions {
  /** The headers of the request (the `Host`, `Content-Length` and `Connection` are set here). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The start of the body, sent with the headers; nothing follows it (default: nothing). */
  readonly sent?: string;
  /** The body's length as declared (default 400 bytes): more than `sent`, so the body never ends. */
  readonly declaredLength?: number;
  /** How long to wait for the server to close the connection (default 30 000 ms): then rejects. */
  readonly timeoutMs?: number;
}

/**
 * Posts a body that stops coming: the headers declare `declaredLength` bytes, `sent` follows them,
 * then nothing. Resolves with what the server wrote back (status line, headers and body, as text)
 * once it closed the connection: a receiver that bounds the reading of a body answers (408 for the
 * receivers of smsv4, with `Connection: close`) and frees the socket. Rejects when the server has
 * not closed it within `timeoutMs`, and when `sent` is not shorter than the declared length.
 *
 * @example
 * const reply = await postStalledBody(`${receiver.url}/callbacks`, { headers: callbackHeaders('xml'), sent: '<?xml version="1.0"?>' });
 * expect(reply).toMatch(/^HTTP\/1\.1 408 /);
 */
export function postStalledBody(url: string, { headers = {}, sent = '', declaredLength = 400, timeoutMs = 30_000 }: PostStalledBodyOptions = {}): Promise<string> {
  const { hostname, port, pathname, search } = new URL(url);
  const sentBytes = Buffer.byteLength(sent);
  if (!Number.isSafeInteger(declaredLength) || declaredLength <= sentBytes) {
    return Promise.reject(new RangeError(`declaredLength (${declaredLength}) must be a whole number greater than the ${sentBytes} bytes sent`));
  }
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port || 80), hostname);
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection of a stalled body within ${timeoutMs} ms; it answered: ${JSON.stringify(reply.slice(0, 200))}`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(reply);
    });
    const own = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
    const lines = Object.entries(headers)
      .filter(([name]) => !own.has(name.toLowerCase()))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${lines}Content-Length: ${declaredLength}\r\n\r\n${sent}`);
  });
}

/** Declares 2000 bytes, sends the first 100 of `body`, then drops the connection; resolves once it is gone. */
export function postBrokenOff(url: string, headers: Record<string, string>, body: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': '2000' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.slice(0, 100), () => setTimeout(() => req.destroy(), 50));
  });
}

/** A proxy on loopback that forwards every POST to one URL. */
export interface HoldingProxy {
  readonly url: string;
  /** The bodies in the order they were forwarded. */
  readonly forwarded: string[];
  close(): Promise<void>;
}

/** Starts a proxy that reads each body whole and holds the first request back `holdMs` before forwarding it. */
export async function startHoldingProxy(target: string, holdMs: number): Promise<HoldingProxy> {
  const forwarded: string[] = [];
  let seen = 0;
  const server = createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on('data', (c: Uint8Array) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const wait = seen++ === 0 ? holdMs : 0;
      setTimeout(() => {
        forwarded.push(body.toString('utf8'));
        fetch(target, { method: req.method ?? 'POST', headers: forwardable(req.headers), body })
          .then(async (answer) => {
            const text = await answer.text();
            const headers: Record<string, string> = {};
            answer.headers.forEach((value, name) => {
              if (!HOP_BY_HOP.has(name)) headers[name] = value;
            });
            res.writeHead(answer.status, headers);
            res.end(text);
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      }, wait);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && typeof value === 'string') out[name] = value;
  return out;
}

/**
 * A small load balancer on loopback for the scale-out test: each request goes to the next backend
 * in turn (round robin, whatever it carries). An unreachable backend, or one that drops the
 * connection, is answered 502, as a real balancer does. Optional disorder: some requests held back
 * a little (so the parts of a message arrive out of order), some sent to a second backend at the
 * same time (a duplicate delivery), some sent again to another backend after their answer (a late
 * retry). Every request and answer it saw is counted.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Disorder the proxy adds; each rate is a probability per request. */
export interface ProxyDisorder {
  /** Share of requests held back before they are forwarded, and for at most how long (ms). */
  readonly delayRate: number;
  readonly maxDelayMs: number;
  /** Share of requests also sent to the next backend at the same time (its answer is dropped). */
  readonly duplicateRate: number;
  /** Share of requests answered 2xx that are sent again to another backend after `replayDelayMs`. */
  readonly replayRate: number;
  readonly replayDelayMs: number;
}

/** What a copy (duplicate or replay) got. */
export interface CopyAnswer {
  readonly kind: 'duplicate' | 'replay';
  readonly port: number;
  readonly status: number;
}

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: string;
  /** Requests forwarded to a backend (copies included), per backend port. */
  readonly forwarded: Map<number, number>;
  /** Statuses of the answers given to the client. */
  readonly answered: Map<number, number>;
  /** What the duplicates and replays got. */
  readonly copies: CopyAnswer[];
  /** Requests being forwarded right now to a backend port. */
  inFlight(port: number): number;
  /** Resolves once nothing is in flight, held back or waiting to be replayed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'proxy-connection', 'upgrade']);

/** Starts the proxy in front of `ports` (read on every request, so a list can change). */
export async function startRoundRobinProxy(ports: readonly number[], disorder?: ProxyDisorder, random: () => number = Math.random): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const forwarded = new Map<number, number>();
  const answered = new Map<number, number>();
  const copies: CopyAnswer[] = [];
  const flying = new Map<number, number>();
  let pending = 0;
  let waiters: Array<() => void> = [];
  let next = 0;

  const begin = (): void => void pending++;
  const end = (): void => {
    pending--;
    if (pending <= 0) {
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };

  /** Forwards one request to `port`; resolves with the backend's answer, or 502. */
  const forward = (port: number, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> => {
    forwarded.set(port, (forwarded.get(port) ?? 0) + 1);
    flying.set(port, (flying.get(port) ?? 0) + 1);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    headers['content-length'] = String(body.length);
    return new Promise((resolve) => {
      let settled = false;
      const done = (answer: { status: number; headers: Record<string, string>; body: Buffer }): void => {
        if (settled) return;
        settled = true;
        flying.set(port, (flying.get(port) ?? 1) - 1);
        resolve(answer);
      };
      const bad = (): void => done({ status: 502, headers: { 'content-type': 'text/plain' }, body: Buffer.from('backend unavailable\n') });
      const outgoing = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (!HOP_BY_HOP.has(name) && typeof value === 'string') out[name] = value;
          done({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
        });
        res.on('error', bad);
        res.on('aborted', bad);
      });
      outgoing.on('error', bad);
      outgoing.on('timeout', () => outgoing.destroy(new Error('backend timeout')));
      outgoing.end(body);
    });
  };

  const copy = (kind: CopyAnswer['kind'], port: number, req: IncomingMessage, body: Buffer): void => {
    begin();
    void forward(port, req, body)
      .then(({ status }) => void copies.push({ kind, port, status }))
      .finally(end);
  };

  const later = (ms: number, fn: () => void): void => {
    begin();
    setTimeout(() => {
      try {
        fn();
      } finally {
        end();
      }
    }, ms);
  };

  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    begin();
    const chunks: Buffer[] = [];
    let ended = false;
    const once = (): void => {
      if (!ended) {
        ended = true;
        end();
      }
    };
    req.on('data', (c: Buffer) => chunks.push(c));
    // A client that went away before its body was complete: nothing to forward.
    req.on('error', once);
    req.on('aborted', once);
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const list = [...ports];
      const index = next++;
      const port = list[index % list.length] as number;
      const other = list[(index + 1) % list.length] as number;
      const send = async (): Promise<void> => {
        if (disorder !== undefined && random() < disorder.duplicateRate) copy('duplicate', other, req, body);
        const answer = await forward(port, req, body);
        answered.set(answer.status, (answered.get(answer.status) ?? 0) + 1);
        if (!res.destroyed) {
          res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
          res.end(answer.body);
        }
        if (disorder !== undefined && answer.status >= 200 && answer.status < 300 && random() < disorder.replayRate) {
          later(disorder.replayDelayMs, () => copy('replay', list[(index + 2) % list.length] as number, req, body));
        }
      };
      const go = (): void => void send().finally(once);
      if (disorder !== undefined && random() < disorder.delayRate) later(Math.floor(random() * disorder.maxDelayMs), go);
      else go();
    });
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    answered,
    copies,
    inFlight: (port) => flying.get(port) ?? 0,
    idle: () => (pending <= 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The Node listener of a sandbox: an HTTP or HTTPS server (`@hono/node-server` translates between
 * Node and the Web-standard handler). The TLS facts of each connection (the client certificate and
 * whether it was verified) are handed to the handler as its context. A `drop-after-accept` fault
 * destroys the socket before any answer is written.
 */
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { getRequestListener } from '@hono/node-server';
import type { SandboxRequestContext, SandboxTlsInfo } from '../http/account-checks.js';
import { ConnectionDroppedError } from '../engine/faults.js';
import type { ListenOptions, SandboxFetch, SandboxServer } from './listen-types.js';

/** PEM text or octets, as Node's TLS options take them. */
const pem = (value: string | Uint8Array): string | Buffer => (typeof value === 'string' ? value : Buffer.from(value));

/** The TLS facts of a connection. */
function tlsInfo(socket: TLSSocket): SandboxTlsInfo {
  const certificate = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
  if (certificate === undefined || certificate === null || Object.keys(certificate).length === 0) return {};
  const cn = certificate.subject?.CN;
  const commonName = Array.isArray(cn) ? cn[0] : cn;
  const error = socket.authorizationError;
  return {
    clientCertificate: {
      ...(typeof commonName === 'string' ? { commonName } : {}),
      authorized: socket.authorized === true,
      ...(error === undefined || error === null ? {} : { authorizationError: String(error) }),
    },
  };
}

/** Starts a Node server for a sandbox (anything that answers a `Request` with its TLS context). */
export async function listenSandbox(sandbox: SandboxFetch, { port = 0, host = '127.0.0.1', tls }: ListenOptions = {}): Promise<SandboxServer> {
  const listener = getRequestListener(
    async (request, env) => {
      const incoming = env.incoming as IncomingMessage;
      const context: SandboxRequestContext = tls === undefined ? {} : { tls: tlsInfo(incoming.socket as TLSSocket) };
      try {
        return await sandbox.fetch(request, context);
      } catch (error) {
        // The request was processed; its answer is lost with the connection.
        if (error instanceof ConnectionDroppedError) incoming.socket.destroy();
        throw error;
      }
    },
    {
      overrideGlobalObjects: false,
      errorHandler: (error) => {
        if (error instanceof ConnectionDroppedError) return undefined;
        return new Response(null, { status: 500 });
      },
    },
  );
  const server: Server =
    tls === undefined
      ? createServer(listener)
      : createHttpsServer(
          {
            key: pem(tls.key),
            cert: pem(tls.cert),
            ...(tls.ca === undefined ? {} : { ca: Array.isArray(tls.ca) ? tls.ca.map(pem) : pem(tls.ca as string | Uint8Array) }),
            requestCert: tls.requestCert ?? true,
            rejectUnauthorized: false,
          },
          listener,
        );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://${shownHost}:${address.port}`,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Open event streams and slow requests do not hold the shutdown.
        setTimeout(() => server.closeAllConnections(), 100).unref();
      });
      return closing;
    },
  };
}

/** Options and result of `sandbox.listen` (the listener itself is Node-only: `node-listener.ts`). */
import type { SandboxRequestContext } from '../http/account-checks.js';

/** What the Node listener serves: a sandbox's Web-standard handler. */
export interface SandboxFetch {
  fetch(request: Request, context?: SandboxRequestContext): Promise<Response>;
}

/** TLS settings of an HTTPS listener. */
export interface ListenTlsOptions {
  /** The server's private key (PEM). */
  readonly key: string | Uint8Array;
  /** The server's certificate (PEM). */
  readonly cert: string | Uint8Array;
  /** Certificate authorities that client certificates are verified against (PEM). */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
  /**
   * Ask clients for a certificate (default `true`). Unverified certificates are not refused by the
   * TLS layer: Invoke Service answers 12010 for them itself.
   */
  readonly requestCert?: boolean;
}

/** Options of `sandbox.listen`. */
export interface ListenOptions {
  /** TCP port (default 0: any free port). */
  readonly port?: number;
  /** Interface to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** Serve HTTPS with these settings (mutual TLS for Invoke Service when `requestCert`). */
  readonly tls?: ListenTlsOptions;
}

/** A listening sandbox server. */
export interface SandboxServer {
  /** Base URL of the API and the dashboard (`http://127.0.0.1:4010`). */
  readonly url: string;
  /** The port bound. */
  readonly port: number;
  /** Stops listening and closes open connections (the sandbox itself keeps running: `sandbox.close()`). */
  close(): Promise<void>;
}

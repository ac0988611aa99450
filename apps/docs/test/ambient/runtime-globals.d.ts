// The little of Bun's and Deno's globals the recipes use, so their blocks type-check under Node's types.
declare namespace Bun {
  interface Server {
    readonly port: number;
    requestIP(request: Request): { address: string } | null;
  }
  function serve(options: { hostname?: string; port?: number; fetch(request: Request, server: Server): Response | Promise<Response> }): Server;
}
declare namespace Deno {
  interface ServeHandlerInfo {
    readonly remoteAddr: { readonly hostname: string; readonly port: number };
  }
  const env: { get(name: string): string | undefined };
  function serve(
    options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>,
  ): unknown;
}

// Libraries of the examples that are not the toolkit's (a logger, the OpenTelemetry SDK and its
// exporters): declared untyped here; what the examples pass to the toolkit is still checked.
declare module 'pino';
declare module '@opentelemetry/sdk-node';
declare module '@opentelemetry/exporter-trace-otlp-http';
declare module '@opentelemetry/exporter-metrics-otlp-http';

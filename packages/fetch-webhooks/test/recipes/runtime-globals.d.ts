// The few globals of Bun and Deno the recipes use, declared for the type check of the tests (the
// recipes run in those runtimes, which bring their own complete types).
declare namespace Bun {
  interface Server {
    readonly port: number;
    requestIP(request: Request): { address: string; port: number } | null;
  }
  function serve(options: {
    hostname?: string;
    port?: number;
    fetch(request: Request, server: Server): Response | Promise<Response>;
  }): Server;
}

declare namespace Deno {
  interface ServeHandlerInfo {
    readonly remoteAddr: { readonly hostname: string; readonly port: number };
  }
  function serve(
    options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>,
  ): unknown;
  const env: { get(name: string): string | undefined };
}

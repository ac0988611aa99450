/** The operations of the API, each reachable on its own host in the real service. */
export type ApiOperation = 'send' | 'status' | 'lookup' | 'invokeService';

/** Where requests go: one base URL, with optional per-operation overrides. */
export interface Endpoints {
  /** Base URL of every operation without an override (e.g. a sandbox: `http://127.0.0.1:4010`). */
  readonly baseUrl: string;
  /** Per-operation base URLs, for the real service's host-per-operation layout. */
  readonly urls?: Partial<Readonly<Record<ApiOperation, string>>>;
}

/** The real service's production hosts (wire-facts "Hosts"). */
export const PRODUCTION_URLS: Readonly<Record<ApiOperation, string>> = {
  send: 'https://smsc.openmarket.com',
  status: 'https://mtstatus.openmarket.com',
  lookup: 'https://preview.openmarket.com',
  invokeService: 'https://servicemanager.openmarket.com',
};

/** The real service's test environment hosts. */
export const TEST_ENVIRONMENT_URLS: Readonly<Record<ApiOperation, string>> = {
  send: 'https://smsc-cie.openmarket.com',
  status: 'https://mtstatus.openmarket.com',
  lookup: 'https://preview.openmarket.com',
  invokeService: 'https://servicemanager-cie.openmarket.com',
};

/** The absolute URL of `path` for an operation (a base URL's own path prefix is kept). */
export function operationUrl(endpoints: Endpoints, operation: ApiOperation, path: string): string {
  const base = endpoints.urls?.[operation] ?? endpoints.baseUrl;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(`invalid base URL for ${operation}: ${String(base)}`);
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

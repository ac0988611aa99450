/**
 * What keeps web pages from driving a sandbox: the `Host` allow-list (against DNS rebinding: a
 * page on `attacker.example` whose name now resolves to 127.0.0.1 still sends `Host:
 * attacker.example`), and on the admin API's writes a same-origin `Origin` and a JSON body (a
 * cross-site form or `text/plain` post needs no preflight; `application/json` does).
 */
import { isLoopbackHost } from '../engine/callback-url.js';

/** The host names a request may name in `Host`: `'any'`, or names beside loopback and IP literals. */
export type AllowedHosts = readonly string[] | 'any';

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower-cased. */
function hostName(value: string): string {
  const host = value.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).replace(/\.$/, '');
}

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * Whether a `Host` header is allowed: absent (an in-process `Request`), an IP literal (DNS
 * rebinding needs a name), `localhost` or a name under `.localhost`, or a listed name (a listed
 * `.example.com` allows its subdomains too).
 */
export function hostAllowed(header: string | null, allowed: AllowedHosts): boolean {
  if (header === null || allowed === 'any') return true;
  const name = hostName(header);
  if (name === '') return false;
  if (IPV4.test(name) || name.startsWith('[') || isLoopbackHost(name)) return true;
  return allowed.some((entry) => {
    const listed = entry.toLowerCase();
    return listed.startsWith('.') ? name === listed.slice(1) || name.endsWith(listed) : name === listed;
  });
}

/** Why a write to the admin API is refused, or `undefined` when it may go on. */
export function adminWriteRefusal(request: Request): { status: number; code: string; description: string } | undefined {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const origin = request.headers.get('origin');
  if (origin !== null) {
    let same = false;
    try {
      same = origin !== 'null' && new URL(origin).host === (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
    } catch {
      same = false;
    }
    if (!same) return { status: 403, code: 'foreign-origin', description: `writes from ${origin} are refused: only the sandbox's own pages may change it` };
  }
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return { status: 403, code: 'foreign-origin', description: `writes from another site (${site}) are refused` };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, code: 'unsupported-media-type', description: 'the admin API takes Content-Type: application/json' };
  }
  return undefined;
}

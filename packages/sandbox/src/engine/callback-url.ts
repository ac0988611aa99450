/**
 * Callback URLs as the service treats them: credentials in the URL's userinfo
 * (`https://user:pass@host/path`) are sent as an `Authorization: Basic` header on every attempt,
 * never in the URL; the password is never shown back (`user:***@host`). Where the sandbox may post
 * is limited: loopback, the hosts of the URLs configured on the accounts, and `callbackHosts`.
 */
import { basicAuthorization } from '@smsv4/core';

/** What stands in for a password wherever a callback URL is shown. */
export const REDACTED = '***';

/** The URL to post to (without userinfo) and the `Authorization` its userinfo asks for. */
export type CallbackTarget = { ok: true; url: URL; authorization?: string } | { ok: false; error: string };

/** Percent-decodes a part of the userinfo; a `%` that starts no valid escape is taken as it is. */
function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * Reads a callback URL: an `http://` or `https://` URL, its userinfo turned into Basic credentials
 * (percent-decoded, as the URL standard encodes them; a stray `%` kept as it is). Never throws.
 */
export function callbackTarget(raw: string): CallbackTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: 'not an http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: 'not an http:// or https:// URL' };
  if (url.username === '' && url.password === '') return { ok: true, url };
  const user = decode(url.username);
  const password = decode(url.password);
  url.username = '';
  url.password = '';
  if (user.includes(':')) return { ok: false, error: 'the user name of the URL contains a colon, which Basic authentication cannot carry' };
  return { ok: true, url, authorization: basicAuthorization({ accountId: user, password }) };
}

/** A callback URL as it may be shown: its password replaced by `***` (the user name kept). */
export function redactUrl(raw: string): string {
  if (!raw.includes('@')) return raw;
  try {
    const url = new URL(raw);
    if (url.password === '') return url.href;
    url.password = REDACTED;
    return url.href;
  } catch {
    // Not a URL: hide whatever precedes the last `@` of its authority.
    return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`);
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]']);

/** Whether a host name (as `URL.hostname` writes it) is the loopback interface. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return true;
  if (/^127(?:\.\d{1,3}){3}$/.test(name)) return true;
  return name === '[::ffff:7f00:1]' || /^\[::ffff:127\./.test(name);
}

/**
 * Decides where callbacks may go: `'any'` lets every host through; otherwise loopback, the hosts
 * listed (`host` or `host:port`, case-insensitive) and the hosts of the URLs configured.
 */
export function createCallbackPolicy(callbackHosts: readonly string[] | 'any', configured: readonly (string | undefined)[]): (url: URL) => boolean {
  if (callbackHosts === 'any') return () => true;
  const allowed = new Set<string>();
  for (const host of callbackHosts) allowed.add(host.toLowerCase());
  for (const raw of configured) {
    if (raw === undefined) continue;
    const target = callbackTarget(raw);
    if (target.ok) allowed.add(target.url.host.toLowerCase());
  }
  return (url) => isLoopbackHost(url.hostname) || allowed.has(url.host.toLowerCase()) || allowed.has(url.hostname.toLowerCase());
}

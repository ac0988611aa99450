/** HTTP Basic credentials: account ID and password, case-sensitive, joined by one colon. */
export interface Credentials {
  readonly accountId: string;
  readonly password: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** `Basic <base64 of accountId:password>` (UTF-8 octets), without Node's Buffer. */
export function basicAuthorization({ accountId, password }: Credentials): string {
  if (typeof accountId !== 'string' || typeof password !== 'string') throw new TypeError('accountId and password must be strings');
  if (accountId.includes(':')) throw new TypeError('an account ID cannot contain a colon (Basic authentication joins it to the password with one)');
  const bytes = encoder.encode(`${accountId}:${password}`);
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i] as number);
  return `Basic ${btoa(binary)}`;
}

/**
 * Reads an `Authorization` header of the Basic scheme (scheme name not case-sensitive); `undefined`
 * when absent, of another scheme, not base64, not UTF-8 or without a colon.
 */
export function parseBasicAuthorization(header: string | null | undefined): Credentials | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match) return undefined;
  let binary: string;
  try {
    binary = atob(match[1] as string);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon === -1) return undefined;
  return { accountId: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * Compares two secrets in time that depends only on their lengths, never on where they first differ
 * (for credential checks in receivers and the sandbox). Strings are compared as UTF-8 octets.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const length = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Checks presented credentials against expected ones in constant time (both members always compared). */
export function credentialsMatch(presented: Credentials | undefined, expected: Credentials): boolean {
  const accountOk = timingSafeEqual(presented?.accountId ?? '', expected.accountId);
  const passwordOk = timingSafeEqual(presented?.password ?? '', expected.password);
  return presented !== undefined && accountOk && passwordOk;
}

/**
 * The `WWW-Authenticate` challenge of the Basic scheme for a realm (RFC 7617), announcing UTF-8
 * credentials. Quotes and backslashes are dropped from the realm so the header stays well-formed.
 */
export function basicChallenge(realm: string): string {
  return `Basic realm="${String(realm).replace(/["\\]/g, '')}", charset="UTF-8"`;
}

/**
 * Account checks of the SMS and Invoke Service operations: credentials (constant time, every
 * account compared with both members, whether the account exists or not), client certificates,
 * provisioning, and the limits of a send.
 *
 * Order of the checks of a send: credentials (420) → provisioning (431, 432) → Content-Type (415)
 * → body (540) → account limits, in this order: demo short code (577), demo time limit (578),
 * demo whitelist (579), demo request cap (580), monthly cap (591), reachable regions (592).
 */
import { credentialsMatch, parseBasicAuthorization, type MtRequest, type SmsErrorCode } from '@smsv4/core';
import { demoExpiry, type SandboxAccount } from '../state/accounts.js';
import type { NumberRoute } from '../state/operators.js';

/** TLS facts of the connection a request came on (Node listener with `tls`). */
export interface SandboxTlsInfo {
  /** The client certificate, when the client presented one. */
  readonly clientCertificate?: {
    /** Subject common name (CN). */
    readonly commonName?: string;
    /** Whether the certificate was verified against the listener's `ca`. */
    readonly authorized: boolean;
    /** Why it was not verified. */
    readonly authorizationError?: string;
  };
}

/** Facts about a request the Web `Request` cannot carry, passed by the listener. */
export interface SandboxRequestContext {
  /** Present when the request came over TLS. */
  readonly tls?: SandboxTlsInfo;
}

/** The account whose credentials an `Authorization` header carries, or `undefined`. */
export function authenticate(accounts: readonly SandboxAccount[], header: string | null): SandboxAccount | undefined {
  const presented = parseBasicAuthorization(header);
  let found: SandboxAccount | undefined;
  // Every account is compared, so the time taken does not tell which account IDs exist.
  for (const account of accounts) {
    const match = credentialsMatch(presented, account);
    if (match && found === undefined) found = account;
  }
  return found;
}

/** The account a verified client certificate stands for, or `undefined` (→ 12010). */
export function authenticateCertificate(accounts: readonly SandboxAccount[], tls: SandboxTlsInfo): SandboxAccount | undefined {
  const certificate = tls.clientCertificate;
  if (certificate === undefined || !certificate.authorized || certificate.commonName === undefined) return undefined;
  const name = certificate.commonName;
  return accounts.find((a) => a.approvedCertificateNames?.includes(name));
}

/** 431 or 432 for an account that may not use SMS. */
export function provisioningError(account: SandboxAccount): SmsErrorCode | undefined {
  if (account.kind === 'blocked') return '432';
  if (account.kind === 'not-provisioned') return '431';
  return undefined;
}

/** What the limit checks read. */
export interface LimitContext {
  readonly now: number;
  readonly demoShortCode: string;
  /** When demo accounts without `expiresAt` end. */
  readonly defaultDemoExpiry: number;
  readonly demoSends: number;
  readonly monthSends: number;
  readonly route: NumberRoute;
}

/** The key of the calendar month (UTC) of a time: `YYYY-MM`. */
export function monthKey(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** The first account limit a valid send breaks (577 to 592), in the documented order. */
export function limitError(account: SandboxAccount, request: MtRequest, context: LimitContext): SmsErrorCode | undefined {
  const demo = account.kind === 'demo';
  const source = request.source;
  if (source !== undefined && source.address === context.demoShortCode && (source.ton === undefined || source.ton === 3) && account.demoShortCode !== true) return '577';
  if (demo) {
    const expiry = demoExpiry(account.demo) ?? context.defaultDemoExpiry;
    if (context.now >= expiry) return '578';
    const whitelist = account.demo?.whitelist;
    if (whitelist !== undefined && !whitelist.includes(request.destination.address)) return '579';
    const max = account.demo?.maxRequests;
    if (max !== undefined && context.demoSends >= max) return '580';
  }
  if (account.monthlyLimit !== undefined && context.monthSends >= account.monthlyLimit) return '591';
  const regions = account.regions;
  if (regions !== undefined) {
    const { countryCode, alpha2Code } = context.route;
    const reachable = regions.some((r) => (countryCode !== undefined && r === String(countryCode)) || (alpha2Code !== undefined && r.toUpperCase() === alpha2Code));
    if (!reachable) return '592';
  }
  return undefined;
}

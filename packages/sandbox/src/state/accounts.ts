/**
 * Sandbox accounts: credentials and everything the service provisions per account (SMS, the Invoke
 * Service role, demo limits, monthly cap, reachable regions, callback URLs, approved client
 * certificate names).
 */
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** What an account is, as the dashboard shows it. */
export type AccountKind = 'standard' | 'demo' | 'blocked' | 'not-provisioned';

/** Limits of a demo account (codes 577 to 580). */
export interface DemoLimits {
  /**
   * When the demo ends (578 after it), as epoch milliseconds or an ISO 8601 string of the
   * simulated clock. Defaults to 30 simulated days after the sandbox starts.
   */
  readonly expiresAt?: number | string;
  /** Destination addresses the demo may send to (579 for others); absent → any. */
  readonly whitelist?: readonly string[];
  /** Most sends accepted from this demo account (580 beyond); absent → no cap. */
  readonly maxRequests?: number;
}

/**
 * HTTP Basic credentials the service sends on an account's callbacks (it does not sign them; on
 * request, it authenticates to the customer's URL this way).
 */
export interface CallbackCredentials {
  /** User name (non-empty, without a colon: Basic authentication cannot carry one). */
  readonly username: string;
  /** Password (non-empty). Never shown back: the admin API and the dashboard write `***`. */
  readonly password: string;
}

/**
 * Checks callback credentials; answers why they are not usable, or `undefined` when they are.
 * Never throws.
 */
export function callbackCredentialsProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'callback credentials must be an object { username, password }';
  const { username, password, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return `unknown member ${JSON.stringify(unknown[0])} (username and password only)`;
  if (typeof username !== 'string' || username === '') return 'username must be a non-empty string';
  if (username.includes(':')) return 'username must not contain a colon (Basic authentication cannot carry one)';
  if (typeof password !== 'string' || password === '') return 'password must be a non-empty string';
  if (username.length > 256 || password.length > 256) return 'username and password are at most 256 characters each';
  return undefined;
}

/** One account of the sandbox. */
export interface SandboxAccount {
  /** Account ID (case-sensitive). Must not contain a colon. */
  readonly accountId: string;
  /** Password (case-sensitive). */
  readonly password: string;
  /** A name shown on the dashboard. */
  readonly label?: string;
  /**
   * `standard` (default); `demo` (the limits of {@link SandboxAccount.demo} apply); `blocked`
   * (432 on every SMS operation); `not-provisioned` (431 on every SMS operation).
   */
  readonly kind?: AccountKind;
  /** Whether the account has the Invoke Service API role (default `false`: 12001). */
  readonly invokeService?: boolean;
  /** Whether the service blocks this account's Invoke Service requests (12008, "contact support"; default `false`). */
  readonly invokeServiceBlocked?: boolean;
  /** Subject common names of client certificates that authenticate this account to Invoke Service (mutual TLS). */
  readonly approvedCertificateNames?: readonly string[];
  /**
   * Receipt URL set at provisioning, used when a send's `delivery` has no `url`. Credentials in its
   * userinfo (`https://user:pass@host/path`) are sent as `Authorization: Basic`, never shown back.
   */
  readonly receiptUrl?: string;
  /** Inbound (MO) URL set at provisioning (credentials in its userinfo as for {@link SandboxAccount.receiptUrl}). */
  readonly inboundUrl?: string;
  /** Format of inbound messages posted to {@link SandboxAccount.inboundUrl} (default `xml`). */
  readonly inboundFormat?: 'json' | 'xml';
  /**
   * Basic credentials sent as `Authorization: Basic` on every attempt of this account's callbacks
   * (receipts of its sends, inbound messages to it) whose URL carries none in its userinfo, as the
   * service does for an account that asked for them. Changeable while running
   * (`sandbox.setCallbackCredentials`, the admin API, the dashboard); never shown back.
   */
  readonly callbackCredentials?: CallbackCredentials;
  /** Most sends accepted per calendar month (UTC, simulated clock) before 591; absent → no cap. */
  readonly monthlyLimit?: number;
  /**
   * Regions the account reaches: country calling codes (`'1'`, `'44'`) or ISO 3166 alpha-2 codes
   * (`'GB'`). A destination outside them is 592. Absent → every region.
   */
  readonly regions?: readonly string[];
  /** Whether the account may use the demo short code (577 otherwise). */
  readonly demoShortCode?: boolean;
  /** Demo limits; used when `kind` is `demo`. */
  readonly demo?: DemoLimits;
}

/** The demo short code of the default configuration (a US short code; sandbox data). */
export const DEFAULT_DEMO_SHORT_CODE = '55555';

/**
 * The default accounts: one for each condition a client may want to exercise. Every password is
 * the account ID followed by `-password`.
 *
 * | accountId | what it does |
 * |---|---|
 * | `sandbox` | standard, Invoke Service role, client certificate `sandbox-client` approved |
 * | `demo` | demo: whitelist `14155550100`, `14155550101`, `447700900123`; 50 sends; 30 days; may use the demo short code |
 * | `demo-expired` | demo whose time is up (578) |
 * | `blocked` | blocked for SMS (432) |
 * | `not-provisioned` | not provisioned for SMS (431) |
 * | `capped` | monthly cap of 3 sends (591) |
 * | `north-america` | reaches only calling code 1 (592 elsewhere) |
 * | `sms-only` | standard without the Invoke Service role (12001) |
 * | `invoke-blocked` | Invoke Service role, but its requests are blocked (12008) |
 */
export const DEFAULT_ACCOUNTS: readonly SandboxAccount[] = Object.freeze([
  { accountId: 'sandbox', password: 'sandbox-password', label: 'Standard account', invokeService: true, approvedCertificateNames: ['sandbox-client'] },
  {
    accountId: 'demo',
    password: 'demo-password',
    label: 'Demo account',
    kind: 'demo',
    demoShortCode: true,
    demo: { whitelist: ['14155550100', '14155550101', '447700900123'], maxRequests: 50 },
  },
  { accountId: 'demo-expired', password: 'demo-expired-password', label: 'Demo account past its time limit', kind: 'demo', demo: { expiresAt: 0 } },
  { accountId: 'blocked', password: 'blocked-password', label: 'Blocked for SMS', kind: 'blocked' },
  { accountId: 'not-provisioned', password: 'not-provisioned-password', label: 'Not provisioned for SMS', kind: 'not-provisioned' },
  { accountId: 'capped', password: 'capped-password', label: 'Monthly cap of 3', monthlyLimit: 3 },
  { accountId: 'north-america', password: 'north-america-password', label: 'Reaches calling code 1 only', regions: ['1'] },
  { accountId: 'sms-only', password: 'sms-only-password', label: 'No Invoke Service role' },
  { accountId: 'invoke-blocked', password: 'invoke-blocked-password', label: 'Invoke Service requests blocked', invokeService: true, invokeServiceBlocked: true },
] satisfies SandboxAccount[]);

/** A demo time limit as epoch milliseconds (`undefined` → none given). */
export function demoExpiry(demo: DemoLimits | undefined): number | undefined {
  const at = demo?.expiresAt;
  if (at === undefined) return undefined;
  return typeof at === 'number' ? at : Date.parse(at);
}

/**
 * Checks a list of accounts (a programmer error is a `TypeError`): IDs non-empty, without a colon,
 * unique; passwords strings; numbers non-negative integers.
 */
export function checkAccounts(accounts: readonly SandboxAccount[]): void {
  if (!Array.isArray(accounts)) throw new TypeError('accounts must be an array');
  const seen = new Set<string>();
  for (const account of accounts) {
    if (typeof account !== 'object' || account === null) throw new TypeError('each account must be an object');
    const { accountId, password, kind, monthlyLimit, regions, demo } = account;
    if (typeof accountId !== 'string' || accountId === '' || accountId.includes(':')) {
      throw new TypeError(`accountId must be a non-empty string without a colon, got ${JSON.stringify(accountId)}`);
    }
    if (seen.has(accountId)) throw new TypeError(`accountId ${JSON.stringify(accountId)} appears twice`);
    seen.add(accountId);
    if (typeof password !== 'string') throw new TypeError(`password of ${accountId} must be a string`);
    if (kind !== undefined && !['standard', 'demo', 'blocked', 'not-provisioned'].includes(kind)) {
      throw new TypeError(`kind of ${accountId} must be standard, demo, blocked or not-provisioned`);
    }
    if (monthlyLimit !== undefined && !(Number.isSafeInteger(monthlyLimit) && monthlyLimit >= 0)) {
      throw new TypeError(`monthlyLimit of ${accountId} must be a non-negative integer`);
    }
    if (regions !== undefined && !(Array.isArray(regions) && regions.every((r) => typeof r === 'string'))) {
      throw new TypeError(`regions of ${accountId} must be an array of strings`);
    }
    if (demo?.maxRequests !== undefined && !(Number.isSafeInteger(demo.maxRequests) && demo.maxRequests >= 0)) {
      throw new TypeError(`demo.maxRequests of ${accountId} must be a non-negative integer`);
    }
    if (demo?.expiresAt !== undefined && Number.isNaN(demoExpiry(demo))) throw new TypeError(`demo.expiresAt of ${accountId} is not a date`);
    if (account.callbackCredentials !== undefined) {
      const problem = callbackCredentialsProblem(account.callbackCredentials);
      if (problem !== undefined) throw new TypeError(`callbackCredentials of ${accountId}: ${problem}`);
    }
  }
}

const Url = Type.String({ pattern: '^https?://', maxLength: 2048 });

/** TypeBox schema of one {@link SandboxAccount} (as an accounts file holds it). */
export const SandboxAccountSchema = Type.Object(
  {
    accountId: Type.String({ minLength: 1, pattern: '^[^:]*$' }),
    password: Type.String(),
    label: Type.Optional(Type.String()),
    kind: Type.Optional(Type.Union([Type.Literal('standard'), Type.Literal('demo'), Type.Literal('blocked'), Type.Literal('not-provisioned')])),
    invokeService: Type.Optional(Type.Boolean()),
    invokeServiceBlocked: Type.Optional(Type.Boolean()),
    approvedCertificateNames: Type.Optional(Type.Array(Type.String())),
    receiptUrl: Type.Optional(Url),
    inboundUrl: Type.Optional(Url),
    inboundFormat: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('xml')])),
    callbackCredentials: Type.Optional(
      Type.Object({ username: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^:]*$' }), password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
    ),
    monthlyLimit: Type.Optional(Type.Integer({ minimum: 0 })),
    regions: Type.Optional(Type.Array(Type.String({ pattern: '^(?:[0-9]{1,3}|[A-Za-z]{2})$' }))),
    demoShortCode: Type.Optional(Type.Boolean()),
    demo: Type.Optional(
      Type.Object(
        {
          expiresAt: Type.Optional(Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}' })])),
          whitelist: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{5,20}$' }))),
          maxRequests: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** TypeBox schema of an accounts file: a list of accounts, or `{ "accounts": [...] }`. */
export const SandboxAccountsFileSchema = Type.Union([
  Type.Array(SandboxAccountSchema, { minItems: 1 }),
  Type.Object({ accounts: Type.Array(SandboxAccountSchema, { minItems: 1 }) }, { additionalProperties: false }),
]);

const checkAccountsFile = TypeCompiler.Compile(Type.Array(SandboxAccountSchema, { minItems: 1 }));

/**
 * Validates an accounts file (JSON text or a parsed value): a non-empty list of accounts, or
 * `{ "accounts": [...] }`; IDs unique. Never throws.
 */
export function parseAccounts(input: unknown): { ok: true; value: SandboxAccount[] } | { ok: false; error: { description: string } } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, error: { description: `not JSON: ${(e as Error).message}` } };
    }
  }
  const list = typeof value === 'object' && value !== null && !Array.isArray(value) && 'accounts' in value ? (value as { accounts: unknown }).accounts : value;
  if (!checkAccountsFile.Check(list)) {
    const first = checkAccountsFile.Errors(list).First();
    return { ok: false, error: { description: first === undefined ? 'not a list of accounts' : `${first.path || '/'}: ${first.message}` } };
  }
  try {
    checkAccounts(list);
  } catch (e) {
    return { ok: false, error: { description: (e as Error).message } };
  }
  return { ok: true, value: list };
}

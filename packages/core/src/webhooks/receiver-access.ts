/**
 * Who may post to a receiver, checked once when it is created: Basic credentials that are not
 * empty, and a receiver that refuses strangers unless told otherwise. The service does not sign
 * callbacks, so without Basic auth or an address allow-list anyone who learns the URL can post a
 * forged delivery receipt, a forged inbound message (a "STOP" that unsubscribes a customer), or a
 * real ticket ID before the service does, so that the genuine receipt is answered 200 as a duplicate
 * and never handled.
 */

/** HTTP Basic credentials the receiving URL requires. */
export interface BasicAuthCredentials {
  readonly username: string;
  readonly password: string;
}

/** The options {@link receiverAccess} reads. */
export interface ReceiverAccessOptions {
  readonly basicAuth?: BasicAuthCredentials | readonly BasicAuthCredentials[] | undefined;
  readonly allowRemoteAddress?: unknown;
  readonly allowUnauthenticated?: boolean | undefined;
}

/** Why a receiver without credentials or an allow-list refuses to start, and what to set. */
export const UNAUTHENTICATED_RECEIVER_MESSAGE =
  'a receiver needs basicAuth or allowRemoteAddress: without them anyone who learns its URL can post forged delivery receipts, ' +
  'forged inbound messages (a "STOP"), or a real ticket ID before the service so that the genuine receipt is answered 200 as a duplicate. ' +
  'Set basicAuth (and give the same credentials to the service), or allowRemoteAddress (createAddressAllowList), ' +
  'or allowUnauthenticated: true to accept anyone (another layer in front checks the callers)';

/**
 * Checks who may post: the Basic credentials (each pair a non-empty username without a colon and a
 * non-empty password), and that a receiver has credentials, an allow-list, or
 * `allowUnauthenticated: true`. Returns the credentials as a list (`undefined` without them).
 *
 * @throws TypeError naming the option and the threat.
 */
export function receiverAccess({ basicAuth, allowRemoteAddress, allowUnauthenticated }: ReceiverAccessOptions): BasicAuthCredentials[] | undefined {
  if (allowUnauthenticated !== undefined && typeof allowUnauthenticated !== 'boolean') {
    throw new TypeError(`allowUnauthenticated must be a boolean, got ${typeof allowUnauthenticated}`);
  }
  const pairs = basicAuth === undefined ? undefined : Array.isArray(basicAuth) ? [...(basicAuth as readonly BasicAuthCredentials[])] : [basicAuth as BasicAuthCredentials];
  if (pairs !== undefined) {
    if (pairs.length === 0) throw new TypeError('basicAuth needs at least one pair of credentials');
    for (const c of pairs) {
      if (typeof c?.username !== 'string' || typeof c.password !== 'string' || c.username.includes(':')) {
        throw new TypeError('basicAuth credentials need a username without a colon and a password, both strings');
      }
      if (c.username === '' || c.password === '') {
        throw new TypeError('basicAuth credentials need a non-empty username and a non-empty password (empty ones are guessed at once)');
      }
    }
  }
  if (pairs === undefined && allowRemoteAddress === undefined && allowUnauthenticated !== true) throw new TypeError(UNAUTHENTICATED_RECEIVER_MESSAGE);
  return pairs;
}

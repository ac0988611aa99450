/**
 * Shared helpers of the end-to-end tests: credentials, and the testing kit's scripted callback
 * receiver and polling. The kit depends on this package, so the tests read it from its source
 * (aliases in vitest.config.ts and tsconfig.test.json) instead of a package dependency.
 */
import { basicAuthorization } from '@smsv4/core';
import { eventually, startCallbackReceiver, type CallbackReceiver } from '@smsv4/testing';

/** `Authorization` header of an account whose password is `<id>-password` (the default accounts). */
export const auth = (accountId = 'sandbox', password = `${accountId}-password`): string => basicAuthorization({ accountId, password });

/** A local receiver of receipts and inbound messages: the testing kit's, closed by each suite. */
export type Receiver = CallbackReceiver;

/** Starts a receiver on 127.0.0.1 (any free port). */
export const startReceiver = (): Promise<Receiver> => startCallbackReceiver({ teardown: 'manual' });

export { eventually };

/** A JSON send body. */
export function jsonSend(mt: Record<string, unknown>): string {
  return JSON.stringify({ mobileTerminate: mt });
}

/**
 * `fetch` for a sandbox's admin API: its Bearer token, and `Content-Type: application/json` on
 * writes (both required), unless the call sets its own.
 */
export function adminFetch(sandbox: { readonly adminToken: string | undefined }): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization') && sandbox.adminToken !== undefined) headers.set('authorization', `Bearer ${sandbox.adminToken}`);
    const method = (init.method ?? 'GET').toUpperCase();
    if ((method === 'POST' || method === 'PUT') && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(input, { ...init, headers });
  };
}

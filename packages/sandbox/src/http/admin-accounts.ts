/**
 * The accounts of the admin API: `GET /__sandbox/api/accounts` lists them (no password), and
 * `PUT` / `DELETE /__sandbox/api/accounts/<accountId>/callback-credentials` set or remove the Basic
 * credentials of an account's callbacks (the password is never answered back: `***`).
 */
import { readRequestBody } from '@smsv4/core';
import type { SandboxInternals } from '../internals.js';
import { adminError, empty, json } from './responses.js';

const MAX_BODY = 4 * 1024;

const notAllowed = (allow: string, requestId: string): Response => {
  const response = adminError(405, 'method-not-allowed', `use ${allow}`, requestId);
  response.headers.set('allow', allow);
  return response;
};

/** Answers `/accounts` and `/accounts/…` (the path after `/__sandbox/api`), or `undefined` for another path. */
export async function handleAdminAccounts(sandbox: SandboxInternals, request: Request, api: string, requestId: string): Promise<Response | undefined> {
  const method = request.method;
  if (api === '/accounts') {
    if (method !== 'GET') return notAllowed('GET', requestId);
    return json(sandbox.accountViews(), 200, requestId);
  }
  const match = /^\/accounts\/([^/]+)\/callback-credentials$/.exec(api);
  if (match === null) return undefined;
  let accountId: string;
  try {
    accountId = decodeURIComponent(match[1] as string);
  } catch {
    return adminError(400, 'invalid-credentials', 'the account ID is not URL-encoded correctly', requestId);
  }
  if (!sandbox.accounts.some((a) => a.accountId === accountId)) return adminError(404, 'no-account', `no account ${JSON.stringify(accountId)}`, requestId);
  if (method === 'DELETE') {
    sandbox.setCallbackCredentials(accountId, null);
    return empty(204, requestId);
  }
  if (method !== 'PUT') return notAllowed('PUT, DELETE', requestId);
  const body = await readRequestBody(request, { maxBytes: MAX_BODY });
  if (!body.ok) {
    return body.error.code === 'too-large' ? adminError(413, 'invalid-credentials', `the body exceeds ${MAX_BODY} bytes`, requestId) : adminError(400, 'invalid-credentials', body.error.message, requestId);
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.value));
  } catch {
    return adminError(400, 'invalid-credentials', 'the body is not JSON', requestId);
  }
  // `null` would remove them: that is DELETE's job, so a PUT needs credentials.
  if (value === null) return adminError(400, 'invalid-credentials', 'callback credentials must be an object { username, password }', requestId);
  const result = sandbox.setCallbackCredentials(accountId, value);
  if (!result.ok) return adminError(result.error.code === 'no-account' ? 404 : 400, result.error.code, result.error.description, requestId);
  return json(result.value, 200, requestId);
}

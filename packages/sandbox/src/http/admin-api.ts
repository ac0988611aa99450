/**
 * The admin API under `/__sandbox`: the dashboard page, the state, the change stream, inbound
 * injection, settings, scenarios, faults and reset. JSON in and out; with an `adminToken` (the
 * default), every `/__sandbox/api/*` request needs `Authorization: Bearer <token>` (compared in
 * constant time); writes need a same-origin `Origin` (when sent) and `Content-Type: application/json`.
 */
import { basicAuthorization, decodeErrorRecord, readRequestBody, timingSafeEqual } from '@smsv4/core';
import { ConnectionDroppedError, parseFault } from '../engine/faults.js';
import { smsRequestId } from '../engine/ids.js';
import type { SandboxInternals } from '../internals.js';
import { PROMETHEUS_CONTENT_TYPE } from '../state/metrics.js';
import { parseScenario } from '../engine/scenarios.js';
import { adminError, empty, json } from './responses.js';
import { createEventStream } from './event-stream.js';
import { PAGE_SECURITY_HEADERS, pageContentSecurityPolicy } from './page-policy.js';
import { adminWriteRefusal } from './request-guard.js';
import { handleAdminAccounts } from './admin-accounts.js';
import { handleSend } from './sms-routes.js';

/** The admin API prefix. */
export const ADMIN_PREFIX = '/__sandbox';

const MAX_ADMIN_BODY = 64 * 1024;

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; status: number; description: string }> {
  const body = await readRequestBody(request, { maxBytes: MAX_ADMIN_BODY });
  if (!body.ok) {
    if (body.error.code === 'too-large') return { ok: false, status: 413, description: `the body exceeds ${MAX_ADMIN_BODY} bytes` };
    return { ok: false, status: 400, description: body.error.message };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.value)) };
  } catch {
    return { ok: false, status: 400, description: 'the body is not JSON' };
  }
}

const notAllowed = (allow: string, requestId: string): Response => {
  const response = adminError(405, 'method-not-allowed', `use ${allow}`, requestId);
  response.headers.set('allow', allow);
  return response;
};

/**
 * `POST /__sandbox/api/messages` (the dashboard's compose form): `{ accountId?, mobileTerminate }`
 * is sent as that account (default: the first) would post it to `/sms/v4/mt`, as JSON, and the
 * service's answer is told back: `{ status, ticketId }` or `{ status, error: { code, description } }`.
 */
async function sendAsAccount(sandbox: SandboxInternals, request: Request, requestId: string): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok) return adminError(body.status, 'invalid-message', body.description, requestId);
  const value = body.value as { accountId?: unknown; mobileTerminate?: unknown } | null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return adminError(400, 'invalid-message', 'the body must be a JSON object', requestId);
  const account = value.accountId === undefined || value.accountId === '' ? sandbox.accounts[0] : sandbox.accounts.find((a) => a.accountId === value.accountId);
  if (account === undefined) return adminError(400, 'invalid-message', `no account ${String(value.accountId)}`, requestId);
  const send = new Request(new URL('/sms/v4/mt', request.url), {
    method: 'POST',
    headers: { authorization: basicAuthorization({ accountId: account.accountId, password: account.password }), 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ mobileTerminate: value.mobileTerminate }),
  });
  let answer: Response;
  try {
    answer = await handleSend(sandbox, send);
  } catch (error) {
    if (!(error instanceof ConnectionDroppedError)) throw error;
    return json({ status: 0, ticketId: error.ticketId, error: { code: 'dropped', description: 'The connection was dropped after the message was accepted (fault injection)' } }, 200, requestId);
  }
  if (answer.status === 202) return json({ status: 202, ticketId: answer.headers.get('location')?.split('/').pop() }, 200, requestId);
  const record = decodeErrorRecord(await answer.text(), 'json');
  return json({ status: answer.status, error: record.ok ? record.value : { code: String(answer.status), description: 'The sandbox refused the message' } }, 200, requestId);
}

/** Any request under `/__sandbox`. */
export async function handleAdmin(sandbox: SandboxInternals, request: Request, path: string): Promise<Response> {
  const requestId = smsRequestId();
  const method = request.method;
  const rest = path.slice(ADMIN_PREFIX.length);

  if (rest === '' || rest === '/') {
    if (method !== 'GET' && method !== 'HEAD') return notAllowed('GET', requestId);
    if (sandbox.dashboardPage === undefined) return adminError(404, 'no-dashboard', 'this sandbox has no dashboard page', requestId);
    const page = sandbox.dashboardPage();
    const policy = await pageContentSecurityPolicy(page);
    return new Response(method === 'HEAD' ? null : page, {
      status: 200,
      headers: {
        'content-security-policy': policy,
        ...PAGE_SECURITY_HEADERS,
        ...sandbox.dashboardHeaders,
        'content-type': 'text/html; charset=UTF-8',
        'x-request-id': requestId,
        'cache-control': 'no-store',
      },
    });
  }
  if (!rest.startsWith('/api/') && rest !== '/metrics') return adminError(404, 'not-found', `no admin resource ${rest}`, requestId);

  if (sandbox.adminToken !== undefined) {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!timingSafeEqual(match?.[1] ?? '', sandbox.adminToken) || match === null) {
      await request.body?.cancel().catch(() => undefined);
      const response = adminError(401, 'unauthorized', 'Authorization: Bearer <adminToken> is required', requestId);
      response.headers.set('www-authenticate', 'Bearer realm="sandbox"');
      return response;
    }
  }
  const refusal = rest === '/metrics' ? undefined : adminWriteRefusal(request);
  if (refusal !== undefined) {
    await request.body?.cancel().catch(() => undefined);
    return adminError(refusal.status, refusal.code, refusal.description, requestId);
  }

  if (rest === '/metrics') {
    if (method !== 'GET' && method !== 'HEAD') return notAllowed('GET', requestId);
    const body = sandbox.metrics.prometheus({ messagesStored: sandbox.store.messages.size, inboundStored: sandbox.store.inbound.size });
    return new Response(method === 'HEAD' ? null : body, {
      status: 200,
      headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'x-request-id': requestId, 'cache-control': 'no-store' },
    });
  }
  const api = rest.slice('/api'.length);
  if (api === '/state') {
    if (method !== 'GET') return notAllowed('GET', requestId);
    return json(sandbox.snapshot(), 200, requestId);
  }
  if (api === '/messages') {
    if (method === 'POST') return sendAsAccount(sandbox, request, requestId);
    if (method !== 'GET') return notAllowed('GET, POST', requestId);
    const query = new URL(request.url).searchParams;
    const number = (name: string): number | undefined => {
      const value = query.get(name);
      return value === null ? undefined : /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
    };
    try {
      return json(sandbox.listMessages({ offset: number('offset'), limit: number('limit') }), 200, requestId);
    } catch (error) {
      return adminError(400, 'invalid-page', (error as Error).message, requestId);
    }
  }
  if (api === '/events') {
    if (method !== 'GET') return notAllowed('GET', requestId);
    return new Response(createEventStream(sandbox, request.signal), {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=UTF-8', 'cache-control': 'no-store', 'x-request-id': requestId, 'x-accel-buffering': 'no' },
    });
  }
  if (api === '/inbound') {
    if (method !== 'POST') return notAllowed('POST', requestId);
    const body = await readJson(request);
    if (!body.ok) return adminError(body.status, 'invalid-inbound', body.description, requestId);
    const result = sandbox.injectInbound(body.value as never);
    if (!result.ok) return json({ error: result.error }, 400, requestId);
    return json(result.value, 202, requestId);
  }
  const accounts = await handleAdminAccounts(sandbox, request, api, requestId);
  if (accounts !== undefined) return accounts;
  if (api === '/settings') {
    if (method === 'GET') return json(sandbox.settings(), 200, requestId);
    if (method !== 'PUT') return notAllowed('GET, PUT', requestId);
    const body = await readJson(request);
    if (!body.ok) return adminError(body.status, 'invalid-settings', body.description, requestId);
    const result = sandbox.updateSettings(body.value);
    if (!result.ok) return adminError(400, 'invalid-settings', result.error.description, requestId);
    return json(result.value, 200, requestId);
  }
  if (api === '/scenarios') {
    if (method !== 'GET') return notAllowed('GET', requestId);
    return json(Object.fromEntries(sandbox.scenarios), 200, requestId);
  }
  if (api.startsWith('/scenarios/')) {
    let destination: string;
    try {
      destination = decodeURIComponent(api.slice('/scenarios/'.length));
    } catch {
      return adminError(400, 'invalid-scenario', 'the destination is not URL-encoded correctly', requestId);
    }
    if (destination !== '*' && !/^[0-9]{5,20}$/.test(destination)) {
      return adminError(400, 'invalid-scenario', 'the destination must be 5 to 20 digits, or * for every destination', requestId);
    }
    if (method === 'DELETE') {
      if (sandbox.scenarios.delete(destination)) sandbox.feed.emit('message');
      return empty(204, requestId);
    }
    if (method !== 'PUT') return notAllowed('PUT, DELETE', requestId);
    const body = await readJson(request);
    if (!body.ok) return adminError(body.status, 'invalid-scenario', body.description, requestId);
    const scenario = parseScenario(body.value);
    if (!scenario.ok) return adminError(400, 'invalid-scenario', scenario.error.description, requestId);
    sandbox.scenarios.set(destination, scenario.value);
    sandbox.feed.emit('message');
    return empty(204, requestId);
  }
  if (api === '/faults') {
    if (method === 'DELETE') {
      sandbox.faults.clear();
      return empty(204, requestId);
    }
    if (method === 'GET') return json(sandbox.faults.list(), 200, requestId);
    if (method !== 'POST') return notAllowed('GET, POST, DELETE', requestId);
    const body = await readJson(request);
    if (!body.ok) return adminError(body.status, 'invalid-fault', body.description, requestId);
    const fault = parseFault(body.value);
    if (!fault.ok) return adminError(400, 'invalid-fault', fault.error.description, requestId);
    sandbox.faults.add(fault.value);
    return empty(204, requestId);
  }
  if (api === '/reset') {
    if (method !== 'POST') return notAllowed('POST', requestId);
    sandbox.reset();
    return empty(204, requestId);
  }
  return adminError(404, 'not-found', `no admin resource ${rest}`, requestId);
}

/**
 * Invoke Service: `POST /service/v1/invokeService/<serviceId>`. Checks in order: the request line
 * (12003 to 12006, core's check), faults, authentication (Basic: 12009; without Basic over TLS, the
 * client certificate: 12010), the Invoke Service role (12001), a block on the account (12008), Content-Type (415), the body (12002,
 * 12007). Accepted for any well-formed service ID: 202, empty body.
 */
import {
  checkInvokeServiceRequestLine,
  decodeInvokeServiceRequest,
  formatOfContentType,
  INVOKE_ERRORS,
  INVOKE_MAX_BODY_BYTES,
  invokeInvalidError,
  parseBasicAuthorization,
  readRequestBody,
  type InvokeErrorCode,
} from '@smsv4/core';
import { authenticate, authenticateCertificate, type SandboxRequestContext } from './account-checks.js';
import type { SandboxAccount } from '../state/accounts.js';
import { ConnectionDroppedError } from '../engine/faults.js';
import { invokeRequestId } from '../engine/ids.js';
import type { SandboxInternals } from '../internals.js';
import { empty, invokeError, unsupportedMediaType } from './responses.js';
import type { InvocationView } from '../state/views.js';

/** Any request under `/service/`. */
export async function handleInvokeService(sandbox: SandboxInternals, request: Request, context: SandboxRequestContext): Promise<Response> {
  const requestId = invokeRequestId();
  const line = checkInvokeServiceRequestLine({ method: request.method, url: request.url });
  if (!line.ok) {
    await request.body?.cancel().catch(() => undefined);
    const response = invokeError(line.error, requestId);
    // A 405 names the method the resource takes (RFC 9110), as the SMS paths' do.
    if (line.error.code === 12003) response.headers.set('allow', 'POST');
    return response;
  }
  const { serviceId } = line.value;
  const at = sandbox.clock.now();
  const record = (account: string, outcome: InvocationView['outcome'], extra: Partial<InvocationView> = {}): void => {
    sandbox.store.addInvocation({ requestId, accountId: account, at: new Date(at).toISOString(), serviceId, phoneNumber: '', outcome, ...extra });
    sandbox.feed.emit('invocation');
  };
  const reject = async (account: string, code: InvokeErrorCode, description?: string): Promise<Response> => {
    await request.body?.cancel().catch(() => undefined);
    const entry = INVOKE_ERRORS[code];
    record(account, 'rejected', { code, description: description ?? entry.description });
    return invokeError({ code, ...(description === undefined ? {} : { description }) }, requestId);
  };

  const fault = await sandbox.faultBefore('invokeService');
  const presented = parseBasicAuthorization(request.headers.get('authorization'));
  if (fault !== undefined) return reject(presented?.accountId ?? '', Number(fault) as 1000 | 1010);

  let account: SandboxAccount | undefined;
  if (request.headers.get('authorization') === null && context.tls !== undefined) {
    account = authenticateCertificate(sandbox.accounts, context.tls);
    if (account === undefined) return reject(context.tls.clientCertificate?.commonName ?? '', 12010);
  } else {
    account = authenticate(sandbox.accounts, request.headers.get('authorization'));
    if (account === undefined) return reject(presented?.accountId ?? '', 12009);
  }
  if (account.invokeService !== true) return reject(account.accountId, 12001);
  if (account.invokeServiceBlocked === true) return reject(account.accountId, 12008);
  if (formatOfContentType(request.headers.get('content-type')) !== 'json') {
    await request.body?.cancel().catch(() => undefined);
    record(account.accountId, 'rejected', { description: 'HTTP 415: missing or unsupported Content-Type' });
    return unsupportedMediaType(requestId);
  }
  const body = await readRequestBody(request, { maxBytes: INVOKE_MAX_BODY_BYTES });
  if (!body.ok && body.error.code === 'too-large') return reject(account.accountId, 12007);
  // A body that broke off is not JSON the service can read: 12002, as for a syntax error.
  const decoded = body.ok ? decodeInvokeServiceRequest(body.value, sandbox.invokeValidation) : { ok: false as const, error: invokeInvalidError('syntax') };
  if (!decoded.ok) return reject(account.accountId, decoded.error.code, decoded.error.description);
  const { endUser, variables } = decoded.value;
  record(account.accountId, 'accepted', { phoneNumber: endUser.phoneNumber, ...(variables === undefined ? {} : { variables }) });
  if (sandbox.faults.takeDrop('invokeService')) throw new ConnectionDroppedError('invokeService');
  return empty(202, requestId);
}

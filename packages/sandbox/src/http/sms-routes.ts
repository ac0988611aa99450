/**
 * The SMS API operations: send (`POST /sms/v4/mt`), status (`GET /sms/v4/mt/<ticket>/status`) and
 * lookup (`GET /sms/v4/preview/<phone>`), each answered as the service does.
 */
import {
  MT_LIMITS,
  decodeMtRequest,
  DEFAULT_MAX_BODY_BYTES,
  encodeMtStatus,
  encodePreview,
  formatForAccept,
  formatOfContentType,
  isTicketId,
  LOOKUP_CREDENTIALS_DESCRIPTION,
  MT_INVALID,
  mtRequestError,
  readRequestBody,
  STATUS_RETENTION_MS,
  type WireFormat,
} from '@smsv4/core';
import { authenticate, limitError, monthKey, provisioningError } from './account-checks.js';
import { ConnectionDroppedError } from '../engine/faults.js';
import { smsRequestId } from '../engine/ids.js';
import type { SandboxInternals } from '../internals.js';
import { mtStatusOf } from '../engine/message-documents.js';
import { planMessage, routeOf } from '../engine/plan-message.js';
import { document, empty, smsError, unsupportedMediaType } from './responses.js';
import { addTimeline, type MessageRecord } from '../state/store.js';


/** `POST /sms/v4/mt`. */
export async function handleSend(sandbox: SandboxInternals, request: Request): Promise<Response> {
  const requestId = smsRequestId();
  const declared = formatOfContentType(request.headers.get('content-type'));
  // Before the body is read, rejections answer in the format the request announces.
  const answerFormat: WireFormat = declared ?? formatForAccept(request.headers.get('accept'));
  const fault = await sandbox.faultBefore('send');
  if (fault === '1010') {
    await request.body?.cancel().catch(() => undefined);
    return smsError('1010', answerFormat, requestId);
  }
  const outcome = await processSend(sandbox, request, requestId, declared, answerFormat);
  if (fault === '1000') {
    // As the spec warns for 1000, the message may have gone to the operator all the same.
    if (outcome.record !== undefined) addTimeline(outcome.record, outcome.record.submittedAt, 'answered 1000', 'fault injection: accepted, but the client was told 1000');
    return smsError('1000', answerFormat, requestId);
  }
  if (outcome.record !== undefined && sandbox.faults.takeDrop('send')) {
    addTimeline(outcome.record, outcome.record.submittedAt, 'connection dropped', 'fault injection: the 202 answer was never sent');
    sandbox.feed.emit('message');
    throw new ConnectionDroppedError('send', outcome.record.ticketId);
  }
  return outcome.response;
}

/** Checks, stores and starts a send: the answer, and the message when accepted. */
async function processSend(
  sandbox: SandboxInternals,
  request: Request,
  requestId: string,
  declared: WireFormat | undefined,
  answerFormat: WireFormat,
): Promise<{ response: Response; record?: MessageRecord }> {
  const account = authenticate(sandbox.accounts, request.headers.get('authorization'));
  const provisioning = account === undefined ? undefined : provisioningError(account);
  if (account === undefined || provisioning !== undefined || declared === undefined) {
    await request.body?.cancel().catch(() => undefined);
    if (account === undefined) return { response: smsError('420', answerFormat, requestId) };
    if (provisioning !== undefined) return { response: smsError(provisioning, answerFormat, requestId) };
    return { response: unsupportedMediaType(requestId) };
  }
  const body = await readRequestBody(request, { maxBytes: DEFAULT_MAX_BODY_BYTES });
  // A body too large or broken off is one the decoder cannot read: the spec's 540 for an invalid body.
  const decoded = body.ok ? decodeMtRequest(body.value, declared) : { ok: false as const, error: mtRequestError(declared === 'json' ? 'invalidJson' : 'invalidXml') };
  if (!decoded.ok) return { response: smsError('540', declared, requestId, decoded.error.description) };
  const mt = decoded.value;

  const now = sandbox.clock.now();
  const route = routeOf(mt, sandbox.operators);
  const month = `${account.accountId}|${monthKey(now)}`;
  const limit = limitError(account, mt, {
    now,
    demoShortCode: sandbox.demoShortCode,
    defaultDemoExpiry: sandbox.defaultDemoExpiry,
    demoSends: sandbox.store.demoSends.get(account.accountId) ?? 0,
    monthSends: sandbox.store.monthlySends.get(month) ?? 0,
    route,
  });
  if (limit !== undefined) return { response: smsError(limit, declared, requestId) };

  const plan = planMessage(mt, route, sandbox);
  const receiptUrl = mt.delivery === undefined ? undefined : (mt.delivery.url ?? account.receiptUrl);
  const record: MessageRecord = {
    ticketId: sandbox.newTicketId(),
    accountId: account.accountId,
    submittedAt: now,
    format: declared,
    request: mt,
    encoding: plan.encoding,
    route,
    ...(receiptUrl === undefined ? {} : { receiptUrl }),
    parts: [],
    timeline: [],
    timers: new Set(),
  };
  sandbox.store.addMessage(record);
  sandbox.store.monthlySends.set(month, (sandbox.store.monthlySends.get(month) ?? 0) + 1);
  if (account.kind === 'demo') sandbox.store.demoSends.set(account.accountId, (sandbox.store.demoSends.get(account.accountId) ?? 0) + 1);
  sandbox.simulator.start(record, plan, sandbox.scenarioFor(mt.destination.address));
  sandbox.feed.emit('message');
  const location = `${new URL(request.url).origin}/sms/v4/mt/${record.ticketId}`;
  return { response: empty(202, requestId, { location }), record };
}

/** Authentication and provisioning of status and lookup; a rejection, or the account. */
function checkAccount(sandbox: SandboxInternals, request: Request, format: WireFormat, requestId: string, credentialsDescription?: string) {
  const account = authenticate(sandbox.accounts, request.headers.get('authorization'));
  if (account === undefined) return { response: smsError('420', format, requestId, credentialsDescription) };
  const provisioning = provisioningError(account);
  if (provisioning !== undefined) return { response: smsError(provisioning, format, requestId) };
  return { account };
}

/** `GET /sms/v4/mt/<ticketId>/status`. */
export async function handleStatus(sandbox: SandboxInternals, request: Request, ticketId: string): Promise<Response> {
  const requestId = smsRequestId();
  const format = formatForAccept(request.headers.get('accept'));
  const fault = await sandbox.faultBefore('status');
  if (fault !== undefined) return smsError(fault, format, requestId);
  const checked = checkAccount(sandbox, request, format, requestId);
  if (checked.account === undefined) return checked.response;
  const record = isTicketId(ticketId) ? sandbox.store.messages.get(ticketId) : undefined;
  if (record === undefined || record.accountId !== checked.account.accountId || sandbox.clock.now() - record.submittedAt > STATUS_RETENTION_MS) {
    return smsError('711', format, requestId);
  }
  const response = document(encodeMtStatus(mtStatusOf(record), format), format, requestId);
  if (sandbox.faults.takeDrop('status')) throw new ConnectionDroppedError('status', ticketId);
  return response;
}

/** `GET /sms/v4/preview/<phoneNumber>`. */
export async function handleLookup(sandbox: SandboxInternals, request: Request, phoneNumber: string): Promise<Response> {
  const requestId = smsRequestId();
  const format = formatForAccept(request.headers.get('accept'));
  const fault = await sandbox.faultBefore('lookup');
  if (fault !== undefined) return smsError(fault, format, requestId);
  const checked = checkAccount(sandbox, request, format, requestId, LOOKUP_CREDENTIALS_DESCRIPTION);
  if (checked.account === undefined) return checked.response;
  const digits = /^[0-9]+$/.test(phoneNumber) ? phoneNumber.length : 0;
  if (digits < MT_LIMITS.destinationAddressMinDigits || digits > MT_LIMITS.destinationAddressMaxDigits) return smsError('540', format, requestId, MT_INVALID.destinationAddress);
  const { operator, countryCode, alpha2Code } = sandbox.operators.route(phoneNumber);
  if (operator === undefined) return smsError('345', format, requestId);
  const body = encodePreview(
    {
      destination: {
        ...(countryCode === undefined ? {} : { countryCode }),
        ...(alpha2Code === undefined ? {} : { alpha2Code }),
        phoneNumber,
        wireless: operator.wireless ?? true,
      },
      mobileOperator: {
        mobileOperatorId: operator.mobileOperatorId,
        mobileOperatorName: operator.mobileOperatorName,
        textLength: operator.textLength,
        binaryLength: operator.binaryLength,
        unicodeLength: operator.unicodeLength,
        wapPush: operator.wapPush,
      },
    },
    format,
  );
  if (sandbox.faults.takeDrop('lookup')) throw new ConnectionDroppedError('lookup');
  return document(body, format, requestId);
}

/**
 * `createClient`: the four operations of the service over `fetch`. Requests are built and answers
 * interpreted by core's sans-I/O helpers; this file checks options, validates requests before they
 * leave and hands the prepared request to the retry loop.
 */
import {
  buildInvokeServiceRequest,
  createTelemetry,
  buildLookupRequest,
  buildSendRequest,
  buildStatusRequest,
  DEFAULT_MAX_BODY_BYTES,
  decodeInvokeServiceRequest,
  invokeServicePath,
  parseInvokeServiceResponse,
  parseLookupResponse,
  parseSendResponse,
  parseStatusResponse,
  prepareRequestContext,
  validateInvokeServiceRequest,
  validateMtRequest,
  type ApiFailure,
  type ApiOperation,
  type HttpRequestData,
  type HttpResponseData,
  type Endpoints,
  type InvokeServiceRequest,
  type InvokeValidationOptions,
  type MtRequest,
  type Result,
  type CallContent,
  type SmsTelemetry,
  type TelemetryLogger,
  type WireFormat,
} from '@smsv4/core';
import type { AttemptHook } from './attempt-event.js';
import { observeCall, sendContent } from './call-telemetry.js';
import { SmsApiError } from './errors.js';
import { execute, type CallSettings } from './execute.js';
import type { FetchFunction } from './exchange.js';
import type { GetStatusResult, InvokeServiceResult, LookupResult, ResponseInfo, SendResult } from './results.js';
import { resolveRetryPolicies, type RetryOptions } from './retry-policy.js';
import { checkTimeout, resolveTimeouts, type OperationTimeouts } from './timeouts.js';

/** How Invoke Service requests authenticate: HTTP Basic (default) or the TLS client certificate (mutual TLS). */
export type InvokeServiceAuthentication = 'basic' | 'client-certificate';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * Base URL of every operation without its own entry in `urls` (e.g. a sandbox,
   * `http://127.0.0.1:4010`). Required unless `urls` names all four operations.
   */
  readonly baseUrl?: string;
  /** Per-operation base URLs: the real service has a host per operation (`PRODUCTION_URLS`, `TEST_ENVIRONMENT_URLS`). */
  readonly urls?: Partial<Readonly<Record<ApiOperation, string>>>;
  /** Account ID (case-sensitive; no colon). */
  readonly accountId: string;
  /** Password (case-sensitive). */
  readonly password: string;
  /** Body format of sends: `'json'` (default) or `'xml'`. */
  readonly format?: WireFormat;
  /** Format asked for (`Accept`) from status and lookup: `'xml'` (default, as the spec documents) or `'json'`. */
  readonly accept?: WireFormat;
  /** The `fetch` to call (default `globalThis.fetch`, looked up at each call). */
  readonly fetch?: FetchFunction;
  /**
   * Extra members of every `RequestInit`, e.g. `{ dispatcher }` with an undici `Agent` on Node (mutual
   * TLS, proxies, connection pools). The members the client sets itself win: `method`, `headers`,
   * `body` and `signal` (pass a signal in the call options).
   */
  readonly requestInit?: Readonly<Record<string, unknown>>;
  /**
   * Longest wait for a complete answer to one attempt, ms: one number for every operation, or one per
   * operation. Default {@link DEFAULT_TIMEOUTS}: 10 s for status and lookup (retried), none for send and
   * Invoke Service, which wait for the service's answer: a timeout there leaves the outcome unknown.
   */
  readonly timeoutMs?: number | OperationTimeouts;
  /** Retry policy per operation; `false` never retries. See {@link RetryOptions}. */
  readonly retry?: RetryOptions | false;
  /** Validate requests with core before they leave (default `true`); a call may override it. */
  readonly validate?: boolean;
  /** Reserved words and built-in variables for Invoke Service validation (core's defaults otherwise). */
  readonly invokeValidation?: InvokeValidationOptions;
  /** How Invoke Service requests authenticate (default `'basic'`). */
  readonly invokeServiceAuthentication?: InvokeServiceAuthentication;
  /** Largest response body read, bytes (default 65 536); a larger one is an `unexpected-response`. */
  readonly maxResponseBytes?: number;
  /** Called after every HTTP attempt (logging, metrics). */
  readonly onAttempt?: AttemptHook;
  /**
   * Traces, metrics and structured logs of every call and attempt (core's `createTelemetry`); none
   * by default. Pass the same object to the receivers so receipts link to the sends they report on.
   */
  readonly telemetry?: SmsTelemetry;
  /** Structured logs only (pino-style `info/warn/error(fields, message)`), when `telemetry` is not given. */
  readonly logger?: TelemetryLogger;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call: the attempt in flight and any wait before a retry. */
  readonly signal?: AbortSignal;
  /** Timeout of each attempt of this call, ms (the client's `timeoutMs` otherwise). */
  readonly timeoutMs?: number;
}

/** Options of a call that carries a request body. */
export interface ValidatedCallOptions extends CallOptions {
  /** Validate the request before it leaves (the client's `validate` otherwise). */
  readonly validate?: boolean;
}

/** A client of the service. Every method rejects with an `SmsApiError`, or a `TypeError` on misuse. */
export interface SmsClient {
  /**
   * Sends a message (`POST /sms/v4/mt`). Accepted: 202 and the ticket ID from `Location`. Retried only
   * after a 1010 (at least 10 s apart) or when the request certainly did not leave: never after a
   * timeout, a dropped connection or 1000, which may have delivered it.
   */
  send(request: MtRequest, options?: ValidatedCallOptions): Promise<SendResult>;
  /** The status of a message (`GET /sms/v4/mt/<ticketId>/status`); a malformed ticket ID is a `TypeError`. */
  getStatus(ticketId: string, options?: CallOptions): Promise<GetStatusResult>;
  /** The operator and limits of a number (`GET /sms/v4/preview/<phoneNumber>`); digits only, else a `TypeError`. */
  lookup(phoneNumber: string, options?: CallOptions): Promise<LookupResult>;
  /** Triggers a service (`POST /service/v1/invokeService/<serviceId>`); a non-hexadecimal service ID is a `TypeError`. */
  invokeService(serviceId: string, request: InvokeServiceRequest, options?: ValidatedCallOptions): Promise<InvokeServiceResult>;
}

const OPERATIONS: readonly ApiOperation[] = ['send', 'status', 'lookup', 'invokeService'];

function checkFormat(name: string, value: unknown): WireFormat {
  if (value !== 'json' && value !== 'xml') throw new TypeError(`${name} must be 'json' or 'xml', got ${String(value)}`);
  return value;
}


function checkEndpoints(baseUrl: string | undefined, urls: ClientOptions['urls']): Endpoints {
  if (urls !== undefined && (urls === null || typeof urls !== 'object')) throw new TypeError('urls must be an object');
  for (const operation of OPERATIONS) {
    const url = urls?.[operation] ?? baseUrl;
    if (url === undefined) throw new TypeError(`no URL for ${operation}: give baseUrl, or urls.${operation}`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TypeError(`invalid URL for ${operation}: ${String(url)}`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new TypeError(`the URL for ${operation} must be http(s): ${url}`);
  }
  // Endpoints needs a baseUrl; when every operation has its own, it is never read.
  return { baseUrl: baseUrl ?? (urls?.send as string), ...(urls === undefined ? {} : { urls }) };
}

/** The decoded request in its wire shape (the phone number as a JSON integer), for core's validator. */
function invokeWireShape(request: InvokeServiceRequest): unknown {
  if (request === null || typeof request !== 'object' || request.endUser === null || typeof request.endUser !== 'object') return request;
  const phone = request.endUser.phoneNumber;
  return { ...request, endUser: { ...request.endUser, phoneNumber: typeof phone === 'string' && /^[0-9]{1,32}$/.test(phone) ? BigInt(phone) : phone } };
}

function invalidRequest(operation: ApiOperation, code: string | number, description: string): SmsApiError {
  return new SmsApiError({ kind: 'invalid-request', operation, code, description, retryable: false, reachedService: 'no', attempts: 0 });
}

/**
 * Creates a client. Options are checked at once: a missing URL, a bad format, timeout or retry
 * setting, or credentials Basic authentication cannot carry are a `TypeError`.
 *
 * @example
 * import { createClient } from '@smsv4/transport-fetch';
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4010', accountId: 'sandbox', password: 'sandbox-password' });
 * const { ticketId } = await client.send({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hello' } });
 * const { status } = await client.getStatus(ticketId);
 */
export function createClient({
  baseUrl,
  urls,
  accountId,
  password,
  format = 'json',
  accept = 'xml',
  fetch: fetchOption,
  requestInit,
  timeoutMs,
  retry,
  validate = true,
  invokeValidation = {},
  invokeServiceAuthentication = 'basic',
  maxResponseBytes = DEFAULT_MAX_BODY_BYTES,
  onAttempt,
  telemetry: telemetryOption,
  logger,
}: ClientOptions): SmsClient {
  const telemetry = telemetryOption ?? (logger === undefined ? undefined : createTelemetry({ logger }));
  // Credentials and URLs are encoded and parsed once, not on every request.
  const context = prepareRequestContext({ endpoints: checkEndpoints(baseUrl, urls), credentials: { accountId, password } });
  const sendFormat = checkFormat('format', format);
  const answerFormat = checkFormat('accept', accept);
  const timeouts = resolveTimeouts(timeoutMs);
  if (typeof validate !== 'boolean') throw new TypeError('validate must be a Boolean');
  if (invokeServiceAuthentication !== 'basic' && invokeServiceAuthentication !== 'client-certificate') {
    throw new TypeError(`invokeServiceAuthentication must be 'basic' or 'client-certificate', got ${String(invokeServiceAuthentication)}`);
  }
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 0) throw new TypeError('maxResponseBytes must be a non-negative integer');
  if (fetchOption !== undefined && typeof fetchOption !== 'function') throw new TypeError('fetch must be a function');
  if (fetchOption === undefined && typeof globalThis.fetch !== 'function') throw new TypeError('no global fetch in this runtime: pass the fetch option');
  if (onAttempt !== undefined && typeof onAttempt !== 'function') throw new TypeError('onAttempt must be a function');
  if (telemetry !== undefined && (telemetry === null || typeof telemetry !== 'object' || typeof telemetry.clientCall !== 'function')) {
    throw new TypeError("telemetry must be the result of core's createTelemetry");
  }
  if (requestInit !== undefined && (requestInit === null || typeof requestInit !== 'object')) throw new TypeError('requestInit must be an object');
  const policies = resolveRetryPolicies(retry);
  const random = (retry === false ? undefined : retry?.random) ?? Math.random;
  if (typeof random !== 'function') throw new TypeError('retry.random must be a function');
  // Called as a plain function: a browser's fetch refuses any other `this` than the global object.
  const doFetch: FetchFunction = fetchOption ?? ((url, init) => globalThis.fetch(url, init));

  const defaults = (operation: ApiOperation): CallSettings => ({
    fetch: doFetch,
    timeoutMs: timeouts[operation],
    signal: undefined,
    maxResponseBytes,
    requestInit,
    policy: policies[operation],
    random,
    onAttempt,
  });
  const byOperation: Readonly<Record<ApiOperation, CallSettings>> = {
    send: defaults('send'),
    status: defaults('status'),
    lookup: defaults('lookup'),
    invokeService: defaults('invokeService'),
  };
  const settings = (operation: ApiOperation, options: CallOptions | undefined): CallSettings => {
    if (options === undefined || (options.timeoutMs === undefined && options.signal === undefined)) return byOperation[operation];
    return {
      ...byOperation[operation],
      timeoutMs: options.timeoutMs === undefined ? timeouts[operation] : checkTimeout(options.timeoutMs, 'timeoutMs'),
      signal: options.signal,
    };
  };
  const shouldValidate = (options: ValidatedCallOptions | undefined): boolean => {
    const value = options?.validate ?? validate;
    if (typeof value !== 'boolean') throw new TypeError('validate must be a Boolean');
    return value;
  };

  /** Prepares and makes a call; misuse and refusals reject rather than throw, as from any async function. */
  const call = <T extends object>(
    operation: ApiOperation,
    options: CallOptions | undefined,
    prepare: () => HttpRequestData,
    interpret: (response: HttpResponseData) => Result<T, ApiFailure>,
    content?: () => CallContent,
  ): Promise<T & ResponseInfo> => {
    if (telemetry !== undefined) {
      // Personal data is read only when the telemetry may record it.
      const shown = content !== undefined && telemetry.logContent ? content() : undefined;
      return observeCall(telemetry, operation, onAttempt, (hook) => prepareAndExecute(operation, options, prepare, interpret, hook), shown);
    }
    return prepareAndExecute(operation, options, prepare, interpret);
  };

  const prepareAndExecute = <T extends object>(
    operation: ApiOperation,
    options: CallOptions | undefined,
    prepare: () => HttpRequestData,
    interpret: (response: HttpResponseData) => Result<T, ApiFailure>,
    onAttemptOverride?: AttemptHook,
  ): Promise<T & ResponseInfo> => {
    let request: HttpRequestData;
    let callSettings: CallSettings;
    try {
      request = prepare();
      callSettings = settings(operation, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return execute(request, interpret, onAttemptOverride === undefined ? callSettings : { ...callSettings, onAttempt: onAttemptOverride });
  };

  return {
    send(request, options) {
      return call('send', options, () => {
        let value = request;
        if (shouldValidate(options)) {
          const checked = validateMtRequest(request);
          if (!checked.ok) throw invalidRequest('send', checked.error.code, checked.error.description);
          value = checked.value;
        }
        return buildSendRequest(context, value, sendFormat);
      }, parseSendResponse, () => sendContent(request));
    },

    getStatus(ticketId, options) {
      return call('status', options, () => buildStatusRequest(context, ticketId, answerFormat), parseStatusResponse);
    },

    lookup(phoneNumber, options) {
      return call('lookup', options, () => buildLookupRequest(context, phoneNumber, answerFormat), parseLookupResponse);
    },

    invokeService(serviceId, request, options) {
      return call('invokeService', options, () => {
        const checking = shouldValidate(options);
        invokeServicePath(serviceId); // a malformed service ID is a TypeError, whatever the body
        let prepared: HttpRequestData;
        try {
          prepared = buildInvokeServiceRequest(context, serviceId, request, { authentication: invokeServiceAuthentication });
        } catch (error) {
          // The encoder refuses a value outside its type; the validator names the rule it breaks.
          if (checking && error instanceof TypeError) {
            const checked = validateInvokeServiceRequest(invokeWireShape(request), invokeValidation);
            if (!checked.ok) throw invalidRequest('invokeService', checked.error.code, checked.error.description);
          }
          throw error;
        }
        if (checking) {
          // What the service itself does with the body: size (12007), then every rule (12002).
          const checked = decodeInvokeServiceRequest(prepared.body ?? '', invokeValidation);
          if (!checked.ok) throw invalidRequest('invokeService', checked.error.code, checked.error.description);
        }
        return prepared;
      }, parseInvokeServiceResponse);
    },
  };
}

import type { WireFormat } from '../codec/wire-format.js';
import { invokeServicePath } from '../invoke-service/request-line.js';
import { encodeInvokeServiceRequest } from '../invoke-service/codec.js';
import type { InvokeServiceRequest } from '../invoke-service/schema.js';
import { encodeMtRequest } from '../mt-request/codec.js';
import type { MtRequest } from '../mt-request/schema.js';
import { basicAuthorization, type Credentials } from './basic-auth.js';
import { operationUrl, type ApiOperation, type Endpoints } from './endpoints.js';
import { contentTypeFor, JSON_CONTENT_TYPE } from './media-type.js';
import { isTicketId } from './ticket-id.js';

/** An HTTP request to make, as plain data: any HTTP client can send it. */
export interface HttpRequestData {
  readonly operation: ApiOperation;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What every request builder needs. */
export interface RequestContext {
  readonly endpoints: Endpoints;
  readonly credentials: Credentials;
}

/**
 * A {@link RequestContext} whose invariant parts are computed once, by {@link prepareRequestContext}:
 * the `Authorization` header and the URL prefix of each operation. The builders use them instead of
 * encoding the credentials and parsing the base URL on every request (a client's hot path).
 */
export interface PreparedRequestContext extends RequestContext {
  /** `Basic <base64 of accountId:password>`. */
  readonly authorization: string;
  /** Per operation, the base URL without query, fragment or trailing slash: the path is appended to it. */
  readonly urlPrefixes: Readonly<Record<ApiOperation, string>>;
}

const OPERATIONS: readonly ApiOperation[] = ['send', 'status', 'lookup', 'invokeService'];

/**
 * Computes the invariant parts of a context once. Every builder returns the same request for the
 * prepared context as for the context itself. Invalid credentials or base URLs are a `TypeError`
 * here rather than at the first request.
 */
export function prepareRequestContext(context: RequestContext): PreparedRequestContext {
  const prefixes = {} as Record<ApiOperation, string>;
  for (const operation of OPERATIONS) {
    // operationUrl with an empty path, minus the `/` the URL keeps for an empty path.
    const url = operationUrl(context.endpoints, operation, '/');
    prefixes[operation] = url.slice(0, -1);
  }
  return { endpoints: context.endpoints, credentials: context.credentials, authorization: basicAuthorization(context.credentials), urlPrefixes: prefixes };
}

const isPrepared = (context: RequestContext): context is PreparedRequestContext =>
  typeof (context as Partial<PreparedRequestContext>).authorization === 'string' && (context as Partial<PreparedRequestContext>).urlPrefixes !== undefined;

/** The `Authorization` header of a context. */
const authorizationOf = (context: RequestContext): string => (isPrepared(context) ? context.authorization : basicAuthorization(context.credentials));

/** The absolute URL of an operation's path (`path` holds only characters a URL path keeps as they are). */
const urlOf = (context: RequestContext, operation: ApiOperation, path: string): string =>
  isPrepared(context) ? `${context.urlPrefixes[operation]}${path}` : operationUrl(context.endpoints, operation, path);

const acceptFor = (format: WireFormat): string => (format === 'json' ? 'application/json' : 'application/xml');

/** `POST /sms/v4/mt` with the request encoded in `format` (default JSON). The body is not validated here. */
export function buildSendRequest(context: RequestContext, request: MtRequest, format: WireFormat = 'json'): HttpRequestData {
  return {
    operation: 'send',
    method: 'POST',
    url: urlOf(context, 'send', '/sms/v4/mt'),
    headers: { authorization: authorizationOf(context), 'content-type': contentTypeFor(format), accept: acceptFor(format) },
    body: encodeMtRequest(request, format),
  };
}

/** `GET /sms/v4/mt/<ticketId>/status`, answered in XML unless `accept` is `'json'`. */
export function buildStatusRequest(context: RequestContext, ticketId: string, accept: WireFormat = 'xml'): HttpRequestData {
  if (!isTicketId(ticketId)) throw new TypeError(`not a ticket ID: ${JSON.stringify(ticketId)}`);
  return {
    operation: 'status',
    method: 'GET',
    url: urlOf(context, 'status', `/sms/v4/mt/${ticketId}/status`),
    headers: { authorization: authorizationOf(context), accept: acceptFor(accept) },
  };
}

/** `GET /sms/v4/preview/<phoneNumber>` (digits only, country code first, no `+`). */
export function buildLookupRequest(context: RequestContext, phoneNumber: string, accept: WireFormat = 'xml'): HttpRequestData {
  if (typeof phoneNumber !== 'string' || !/^[0-9]{1,20}$/.test(phoneNumber)) {
    throw new TypeError(`a phone number is 1 to 20 digits with its country code and no '+': ${JSON.stringify(phoneNumber)}`);
  }
  return {
    operation: 'lookup',
    method: 'GET',
    url: urlOf(context, 'lookup', `/sms/v4/preview/${phoneNumber}`),
    headers: { authorization: authorizationOf(context), accept: acceptFor(accept) },
  };
}

/** Options of {@link buildInvokeServiceRequest}. */
export interface InvokeServiceRequestOptions {
  /**
   * `basic` (default): HTTP Basic with the context's credentials. `client-certificate`: no
   * `Authorization` header; the TLS client certificate authenticates the request (mutual TLS, the
   * spec's alternative for Invoke Service; refused with 12010 when the certificate is not approved).
   */
  readonly authentication?: 'basic' | 'client-certificate';
}

/** `POST /service/v1/invokeService/<serviceId>` with the JSON request. */
export function buildInvokeServiceRequest(
  context: RequestContext,
  serviceId: string,
  request: InvokeServiceRequest,
  { authentication = 'basic' }: InvokeServiceRequestOptions = {},
): HttpRequestData {
  if (authentication !== 'basic' && authentication !== 'client-certificate') throw new TypeError(`authentication must be 'basic' or 'client-certificate', got ${String(authentication)}`);
  const url = urlOf(context, 'invokeService', invokeServicePath(serviceId));
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, accept: 'application/json' };
  if (authentication === 'basic') headers.authorization = authorizationOf(context);
  return { operation: 'invokeService', method: 'POST', url, headers, body: encodeInvokeServiceRequest(request) };
}

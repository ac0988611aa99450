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

const acceptFor = (format: WireFormat): string => (format === 'json' ? 'application/json' : 'application/xml');

/** `POST /sms/v4/mt` with the request encoded in `format` (default JSON). The body is not validated here. */
export function buildSendRequest({ endpoints, credentials }: RequestContext, request: MtRequest, format: WireFormat = 'json'): HttpRequestData {
  return {
    operation: 'send',
    method: 'POST',
    url: operationUrl(endpoints, 'send', '/sms/v4/mt'),
    headers: { authorization: basicAuthorization(credentials), 'content-type': contentTypeFor(format), accept: acceptFor(format) },
    body: encodeMtRequest(request, format),
  };
}

/** `GET /sms/v4/mt/<ticketId>/status`, answered in XML unless `accept` is `'json'`. */
export function buildStatusRequest({ endpoints, credentials }: RequestContext, ticketId: string, accept: WireFormat = 'xml'): HttpRequestData {
  if (!isTicketId(ticketId)) throw new TypeError(`not a ticket ID: ${JSON.stringify(ticketId)}`);
  return {
    operation: 'status',
    method: 'GET',
    url: operationUrl(endpoints, 'status', `/sms/v4/mt/${ticketId}/status`),
    headers: { authorization: basicAuthorization(credentials), accept: acceptFor(accept) },
  };
}

/** `GET /sms/v4/preview/<phoneNumber>` (digits only, country code first, no `+`). */
export function buildLookupRequest({ endpoints, credentials }: RequestContext, phoneNumber: string, accept: WireFormat = 'xml'): HttpRequestData {
  if (typeof phoneNumber !== 'string' || !/^[0-9]{1,20}$/.test(phoneNumber)) {
    throw new TypeError(`a phone number is 1 to 20 digits with its country code and no '+': ${JSON.stringify(phoneNumber)}`);
  }
  return {
    operation: 'lookup',
    method: 'GET',
    url: operationUrl(endpoints, 'lookup', `/sms/v4/preview/${phoneNumber}`),
    headers: { authorization: basicAuthorization(credentials), accept: acceptFor(accept) },
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
  { endpoints, credentials }: RequestContext,
  serviceId: string,
  request: InvokeServiceRequest,
  { authentication = 'basic' }: InvokeServiceRequestOptions = {},
): HttpRequestData {
  if (authentication !== 'basic' && authentication !== 'client-certificate') throw new TypeError(`authentication must be 'basic' or 'client-certificate', got ${String(authentication)}`);
  const url = operationUrl(endpoints, 'invokeService', invokeServicePath(serviceId));
  const headers: Record<string, string> = { 'content-type': JSON_CONTENT_TYPE, accept: 'application/json' };
  if (authentication === 'basic') headers.authorization = basicAuthorization(credentials);
  return { operation: 'invokeService', method: 'POST', url, headers, body: encodeInvokeServiceRequest(request) };
}

/**
 * The OpenAPI 3.1 document of the whole interface: the four operations in both formats (JSON and
 * XML, the XML layout as `xml` hints), every error of core's catalogue, and the delivery receipts
 * and inbound messages as `webhooks`. Schemas, codes, descriptions, statuses, limits, hosts and
 * examples, and the callbacks' retry windows, all come from `@smsv4/core`; nothing here restates them.
 */
import {
  encodeMtRequest,
  INVOKE_SERVICE_VERSION,
  MT_LIMITS,
  PRODUCTION_URLS,
  TEST_ENVIRONMENT_URLS,
  TICKET_ID_MAX_LENGTH,
  TICKET_ID_PATTERN,
  encodeInvokeServiceRequest,
  type ApiOperation,
  type MtRequest,
  INBOUND_RETRY_WINDOW_MS,
  RECEIPT_RETRY_WINDOW_MS,
} from '@smsv4/core';
import { DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';
import { RESOURCES, resourceByName } from '../resources.js';
import { invokeErrorResponses, smsErrorResponses } from './error-responses.js';
import { jsonBodySchema, resourceSchema } from './json-schemas.js';
import type { JsonSchema } from './wire-json-schema.js';

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The sandbox's base URL, listed as a server beside the real hosts (default `http://127.0.0.1:4010`). */
  readonly sandboxUrl?: string;
}

/** The default base URL of the sandbox, and of the CLI's API commands. */


const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SAMPLE_MT: MtRequest = {
  destination: { address: '14155550100' },
  message: { type: 'text', content: 'Hello from smsv4' },
  delivery: { receiptRequested: 'final', url: 'https://example.com/receipts' },
};

function servers(operation: ApiOperation, sandboxUrl: string): JsonSchema[] {
  return [
    { url: PRODUCTION_URLS[operation], description: 'Production' },
    { url: TEST_ENVIRONMENT_URLS[operation], description: 'Test environment' },
    { url: sandboxUrl, description: 'smsv4 sandbox (`smsv4 sandbox`)' },
  ];
}

function components(): JsonSchema {
  const schemas: JsonSchema = {};
  for (const descriptor of RESOURCES) {
    const inner = resourceSchema(descriptor, { xml: true });
    schemas[descriptor.component] = { title: descriptor.title, description: descriptor.description, ...inner };
    if (descriptor.root !== undefined) {
      schemas[`${descriptor.component}Body`] = {
        title: `${descriptor.title}, JSON body`,
        ...jsonBodySchema(descriptor, ref(descriptor.component)),
      };
    }
  }
  return {
    schemas,
    securitySchemes: {
      basicAuth: { type: 'http', scheme: 'basic', description: 'Account ID and password (both case-sensitive) joined by one colon.' },
      mutualTLS: { type: 'mutualTLS', description: 'Invoke Service only: a client certificate whose name is on the approved list (else 12010).' },
    },
    headers: {
      XRequestId: { description: 'Identifier of the request (opaque; always present).', schema: { type: 'string' } },
      Location: { description: 'The message resource; its last path segment is the ticket ID.', schema: { type: 'string' } },
    },
  };
}

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
const UNSUPPORTED_MEDIA_TYPE = { description: 'Content-Type missing or not supported: no body, no error code.' };

function sendOperation(): JsonSchema {
  return {
    operationId: 'sendMessage',
    tags: ['SMS'],
    summary: 'Send a message',
    description: `Sends an MT message. Rejections carry code 540 with the rule broken for any format or syntax problem. The content is 1 to ${MT_LIMITS.contentMaxBytes} bytes.`,
    security: [{ basicAuth: [] }],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: ref(`${resourceByName('mt-request').component}Body`),
          example: JSON.parse(encodeMtRequest(SAMPLE_MT, 'json')) as unknown,
        },
        'application/xml': { schema: ref(resourceByName('mt-request').component), example: encodeMtRequest(SAMPLE_MT, 'xml') },
      },
    },
    responses: {
      '202': {
        description: 'Accepted: empty body. Whether the message is multipart shows in its status and receipts.',
        headers: { Location: { $ref: '#/components/headers/Location' }, ...REQUEST_ID },
      },
      '415': UNSUPPORTED_MEDIA_TYPE,
      ...smsErrorResponses('send'),
    },
  };
}

function documentOperation(operation: 'status' | 'lookup'): JsonSchema {
  const resource = resourceByName(operation === 'status' ? 'mt-status' : 'preview');
  return {
    operationId: operation === 'status' ? 'getMessageStatus' : 'lookUpOperator',
    tags: ['SMS'],
    summary: operation === 'status' ? 'Get the status of a message' : 'Look up the operator of a number',
    security: [{ basicAuth: [] }],
    responses: {
      '200': {
        description: resource.description,
        headers: REQUEST_ID,
        content: {
          'application/xml': { schema: ref(resource.component) },
          'application/json': { schema: ref(`${resource.component}Body`) },
        },
      },
      ...smsErrorResponses(operation),
    },
  };
}

function invokeOperation(): JsonSchema {
  const resource = resourceByName('invoke-service-request');
  return {
    operationId: 'invokeService',
    tags: ['Invoke Service'],
    summary: 'Trigger a service for an end user',
    description:
      'Accepted for any well-formed service ID: services the account cannot reach, disabled or non-existent ones are silently not triggered.',
    security: [{ basicAuth: [] }, { mutualTLS: [] }],
    parameters: [
      {
        name: 'serviceId',
        in: 'path',
        required: true,
        description: 'Identifier of an existing service (hexadecimal); anything else is 12006.',
        schema: { type: 'string', pattern: '^[0-9A-Fa-f]+$' },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: ref(resource.component),
          example: JSON.parse(encodeInvokeServiceRequest({ endUser: { phoneNumber: '14155550100' }, variables: { user: { FAVOURITE_COLOUR: 'blue' } } })) as unknown,
        },
      },
    },
    responses: {
      '202': { description: 'Accepted: no body.', headers: REQUEST_ID },
      '200': { description: 'Accepted (one sample response of the spec shows 200).', headers: REQUEST_ID },
      '415': UNSUPPORTED_MEDIA_TYPE,
      ...invokeErrorResponses(),
    },
  };
}

function callback(kind: 'receipt' | 'inbound'): JsonSchema {
  const resource = resourceByName(kind === 'receipt' ? 'delivery-receipt' : 'mobile-originate');
  const window =
    kind === 'receipt'
      ? `${RECEIPT_RETRY_WINDOW_MS / 3_600_000} hours`
      : `${INBOUND_RETRY_WINDOW_MS / 86_400_000} days`;
  const taken = { description: 'Taken: answer with an empty body.' };
  return {
    post: {
      operationId: kind === 'receipt' ? 'receiveDeliveryReceipt' : 'receiveInboundMessage',
      tags: ['Callbacks'],
      summary: kind === 'receipt' ? 'A delivery receipt, one per message part' : 'An inbound message, one per part',
      description: `Posted by the service to ${kind === 'receipt' ? 'delivery.url, else the receipt URL set at provisioning' : 'the inbound URL set at provisioning'}, in the format of the account. Any other answer, a network error or a timeout makes the service retry for up to ${window}: expect duplicates. The service does not sign callbacks; it can use Basic credentials on your URL.`,
      security: [{}, { basicAuth: [] }],
      parameters: [
        { name: 'X-API-Version', in: 'header', required: true, schema: { type: 'string', const: '4' } },
        { name: 'User-Agent', in: 'header', required: false, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: {
          'application/xml': { schema: ref(resource.component) },
          'application/json': { schema: ref(`${resource.component}Body`) },
        },
      },
      responses: kind === 'receipt' ? { '200': taken } : { '200': taken, '201': taken },
    },
  };
}

/**
 * Builds the OpenAPI 3.1 document.
 *
 * @example
 * const document = buildOpenApiDocument();
 * writeFileSync('smsv4.openapi.json', JSON.stringify(document, null, 2));
 */
export function buildOpenApiDocument({ sandboxUrl = DEFAULT_SANDBOX_URL }: OpenApiOptions = {}): JsonSchema {
  const ticketId = {
    name: 'ticketId',
    in: 'path',
    required: true,
    description: 'The ticket ID of the send (last path segment of its Location).',
    schema: { type: 'string', pattern: TICKET_ID_PATTERN, maxLength: TICKET_ID_MAX_LENGTH },
  };
  const phoneNumber = {
    name: 'phoneNumber',
    in: 'path',
    required: true,
    description: 'International format with the country code, digits only, no `+`.',
    schema: { type: 'string', pattern: `^[0-9]{1,${MT_LIMITS.destinationAddressMaxDigits}}$` },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Global SMS API v4 and Invoke Service',
      version: `sms-v4, invoke-service-${INVOKE_SERVICE_VERSION}`,
      description:
        'Send SMS, read their status, look up operators, receive delivery receipts and inbound messages, and trigger engagement-platform services. Every payload has a JSON and an XML form (except Invoke Service, JSON only); the XML layout is given by `xml` hints: scalars are attributes, objects child elements. Generated by `smsv4 openapi` from @smsv4/core.',
    },
    servers: [{ url: sandboxUrl, description: 'smsv4 sandbox (`smsv4 sandbox`)' }],
    tags: [
      { name: 'SMS', description: 'Global SMS API v4' },
      { name: 'Invoke Service', description: `Engagement platform, version ${INVOKE_SERVICE_VERSION}` },
      { name: 'Callbacks', description: 'Requests the service makes to your URLs' },
    ],
    paths: {
      '/sms/v4/mt': { servers: servers('send', sandboxUrl), post: sendOperation() },
      '/sms/v4/mt/{ticketId}/status': { servers: servers('status', sandboxUrl), parameters: [ticketId], get: documentOperation('status') },
      '/sms/v4/preview/{phoneNumber}': { servers: servers('lookup', sandboxUrl), parameters: [phoneNumber], get: documentOperation('lookup') },
      [`/service/${INVOKE_SERVICE_VERSION}/invokeService/{serviceId}`]: { servers: servers('invokeService', sandboxUrl), post: invokeOperation() },
    },
    webhooks: { deliveryReceipt: callback('receipt'), inboundMessage: callback('inbound') },
    components: components(),
  };
}

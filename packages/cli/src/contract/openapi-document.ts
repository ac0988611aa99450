/**
 * The OpenAPI 3.1 document of the whole interface: the four operations in both formats (JSON and
 * XML, the XML layout as `xml` hints), every error of core's catalogue, and the delivery receipts
 * and inbound messages as `webhooks`. Schemas, codes, descriptions, statuses, limits, hosts and
 * examples, and the callbacks' retry windows, all come from `@smsv4/core`; nothing here restates them.
 */
import {
  encodeDeliveryReceipt,
  encodeMobileOriginate,
  encodeMtRequest,
  encodeMtStatus,
  encodePreview,
  INVOKE_SERVICE_VERSION,
  MT_LIMITS,
  PRODUCTION_URLS,
  TEST_ENVIRONMENT_URLS,
  TICKET_ID_MAX_LENGTH,
  TICKET_ID_PATTERN,
  encodeInvokeServiceRequest,
  type ApiOperation,
  type DeliveryReceipt,
  type MobileOriginate,
  type MtRequest,
  type MtStatus,
  type Preview,
  type WireFormat,
  INBOUND_RETRY_WINDOW_MS,
  RECEIPT_RETRY_WINDOW_MS,
} from '@smsv4/core';
import { CALLBACK_SETTLING_STATUSES, DEFAULT_SANDBOX_URL } from '@smsv4/sandbox';
import { RESOURCES, resourceByName } from '../resources.js';
import { invokeErrorResponses, smsErrorResponses, xmlExample } from './error-responses.js';
import { jsonBodySchema, resourceSchema } from './json-schemas.js';
import type { JsonSchema } from './wire-json-schema.js';

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The sandbox's base URL, listed as a server beside the real hosts (default `http://127.0.0.1:4010`). */
  readonly sandboxUrl?: string;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SAMPLE_MT: MtRequest = {
  destination: { address: '14155550100' },
  message: { type: 'text', content: 'Hello from smsv4' },
  delivery: { receiptRequested: 'final', url: 'https://receiver.example.com/sms/receipts' },
};

const SAMPLE_STATUS: MtStatus = {
  ticketId: '44101-0922I-13413-21GDL',
  code: 4,
  description: 'Message delivered',
  deliveryDate: '2024-03-14T09:26:53.000Z',
  mobileOperatorId: 383,
  destination: { address: '14155550100', mobileOperatorId: 383, alpha2Code: 'US' },
} as MtStatus;

const SAMPLE_PREVIEW: Preview = {
  destination: { countryCode: 1, alpha2Code: 'US', phoneNumber: '14155550100', wireless: true },
  mobileOperator: { mobileOperatorId: 383, mobileOperatorName: 'AT&T Mobility', textLength: 160, binaryLength: 140, unicodeLength: 70, wapPush: true },
} as Preview;

const SAMPLE_RECEIPT: DeliveryReceipt = {
  type: 'final',
  mtStatus: { ticketId: '44101-0922I-13413-21GDL', deliveryDate: '2024-03-14T09:26:53.000Z', code: 4, description: 'Message delivered', mobileOperatorId: 383 },
  destination: { address: '14155550100', mobileOperatorId: 383, alpha2Code: 'US' },
  source: { ton: 3, address: '24273' },
} as DeliveryReceipt;

const SAMPLE_INBOUND: MobileOriginate = {
  submittedDate: '2024-03-14T10:02:11.000Z',
  ticketId: '2213K-0122M-1347B-28U4E',
  source: { ton: 1, address: '14155550100', mobileOperatorId: 383 },
  destination: { ton: 3, address: '24273' },
  message: { type: 'text', udh: false, content: 'STOP' },
} as MobileOriginate;

/** The JSON and XML examples of one document, from core's encoders: the JSON body, the XML element as data (and as text). */
function examples(summary: string, encode: (format: WireFormat) => string): { json: JsonSchema; xml: JsonSchema } {
  const body = JSON.parse(encode('json')) as Record<string, unknown>;
  return {
    json: { [summary.toLowerCase().replace(/[^a-z0-9]+/g, '-')]: { summary, value: body } },
    xml: { [summary.toLowerCase().replace(/[^a-z0-9]+/g, '-')]: xmlExample(summary, Object.values(body)[0], encode('xml')) },
  };
}

/** What readers built on @smsv4/core accept beside the canonical form the schemas give. */
const LENIENT_NOTE =
  ' The schema gives the form the service documents. Readers built on @smsv4/core also accept, because the service has been seen to send them: integers and Booleans written as strings (`"383"`, `"true"`), `alpha2code` for `alpha2Code`, `operator` for `mobileOperator`, a single `segment` for a list, a receipt\'s `destination` and `source` inside `mtStatus`, and any `xs:dateTime` offset (`-05:00`) in timestamps.';

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
    const inner = resourceSchema(descriptor, { xml: true, strict: true });
    const note = descriptor.schemaKind === 'resource' ? LENIENT_NOTE : '';
    schemas[descriptor.component] = { title: descriptor.title, ...inner, description: `${descriptor.description}.${note}`.replace(/\.\./g, '.') };
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
      XRequestId: { description: 'Identifier of the request (opaque; always present).', required: true, schema: { type: 'string', minLength: 1 } },
      Location: {
        description: `The message resource, an absolute URL; its last path segment is the ticket ID (at most ${TICKET_ID_MAX_LENGTH} characters here). The spec's limits table says "at most 23 characters", the length of a ticket ID: no length is declared for the URL.`,
        required: true,
        schema: { type: 'string', format: 'uri' },
      },
    },
  };
}

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
const UNSUPPORTED_MEDIA_TYPE = { description: 'Content-Type missing or not supported: no body, no error code.', headers: REQUEST_ID };

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
        'application/xml': {
          schema: ref(resourceByName('mt-request').component),
          examples: { text: xmlExample('A text message with a receipt', (JSON.parse(encodeMtRequest(SAMPLE_MT, 'json')) as { mobileTerminate: unknown }).mobileTerminate, encodeMtRequest(SAMPLE_MT, 'xml')) },
        },
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
  const sample =
    operation === 'status'
      ? examples('A delivered single-part message', (format) => encodeMtStatus(SAMPLE_STATUS, format))
      : examples('A US mobile number', (format) => encodePreview(SAMPLE_PREVIEW, format));
  return {
    operationId: operation === 'status' ? 'getMessageStatus' : 'lookUpOperator',
    tags: ['SMS'],
    summary: operation === 'status' ? 'Get the status of a message' : 'Look up the operator of a number',
    description:
      operation === 'status'
        ? 'The delivery status of a sent message by its ticket ID: one code for a single-part message; for a multipart message the summary (831 while parts are missing, 830 when one failed) and every part under `segments`. XML unless `Accept: application/json`. Kept five days after the send; then 711.'
        : `The operator, country and limits of a number (international format, digits only). XML unless \`Accept: application/json\`. 345 outside the countries the service answers for; a path segment that is not ${MT_LIMITS.destinationAddressMinDigits} to ${MT_LIMITS.destinationAddressMaxDigits} digits is 540.`,
    security: [{ basicAuth: [] }],
    responses: {
      '200': {
        description: resource.description,
        headers: REQUEST_ID,
        content: {
          'application/xml': { schema: ref(resource.component), examples: sample.xml },
          'application/json': { schema: ref(`${resource.component}Body`), examples: sample.json },
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
  const settling = CALLBACK_SETTLING_STATUSES[kind];
  const sample =
    kind === 'receipt'
      ? examples('A delivered single-part message', (format) => encodeDeliveryReceipt(SAMPLE_RECEIPT, format))
      : examples('A text from a handset', (format) => encodeMobileOriginate(SAMPLE_INBOUND, format));
  return {
    post: {
      operationId: kind === 'receipt' ? 'receiveDeliveryReceipt' : 'receiveInboundMessage',
      tags: ['Callbacks'],
      summary: kind === 'receipt' ? 'A delivery receipt, one per message part' : 'An inbound message, one per part',
      description: `Posted by the service to ${kind === 'receipt' ? 'delivery.url, else the receipt URL set at provisioning' : 'the inbound URL set at provisioning'}, in JSON or XML (the service publishes no rule: the sandbox posts receipts in the format of the send and inbound messages in the account's format; take both). Answer ${settling.join(' or ')} with an empty body; any other answer (another 2xx included), a network error or a timeout makes the service retry for up to ${window}: expect duplicates. The service does not sign callbacks; asked to, it sends HTTP Basic credentials (the sandbox: those in the URL's userinfo, else those set on the account).`,
      security: [{}, { basicAuth: [] }],
      parameters: [
        { name: 'X-API-Version', in: 'header', required: true, schema: { type: 'string', const: '4' } },
        { name: 'User-Agent', in: 'header', required: false, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: {
          'application/xml': { schema: ref(resource.component), examples: sample.xml },
          'application/json': { schema: ref(`${resource.component}Body`), examples: sample.json },
        },
      },
      responses: Object.fromEntries(settling.map((status) => [String(status), taken])),
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
    schema: { type: 'string', pattern: `^[0-9]{${MT_LIMITS.destinationAddressMinDigits},${MT_LIMITS.destinationAddressMaxDigits}}$` },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Global SMS API v4 and Invoke Service',
      version: `sms-v4, invoke-service-${INVOKE_SERVICE_VERSION}`,
      description:
        'Send SMS, read their status, look up operators, receive delivery receipts and inbound messages, and trigger engagement-platform services. Every payload has a JSON and an XML form (except Invoke Service, JSON only); the XML layout is given by `xml` hints: scalars are attributes, objects child elements, the root element in its namespace (`xmlns`). The schemas give the canonical form of each member; the schemas of what the service sends say where readers should be lenient. A method other than the one documented for a path answers 405 with `Allow` and error 12003; an unknown path 404 with 12006 (Invoke Service: a version other than v1 is 12004), in the format `Accept` asks for. Generated by `smsv4 openapi` from @smsv4/core.',
      contact: { name: 'smsv4', url: 'https://www.npmjs.com/package/smsv4' },
      license: { name: 'MIT', identifier: 'MIT' },
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

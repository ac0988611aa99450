/**
 * The resources the CLI knows: each payload of the API with its JSON root member, XML root element,
 * namespace, formats and core's schema. Validation, detection, the JSON Schemas and the OpenAPI
 * document all read this one table; every schema and namespace in it comes from `@smsv4/core`.
 */
import {
  DeliveryReceiptSchema,
  ErrorRecordSchema,
  InvokeErrorBodySchema,
  InvokeServiceRequestWireSchema,
  MobileOriginateSchema,
  MtRequestWireSchema,
  MtStatusSchema,
  PreviewSchema,
  XML_NAMESPACES,
  type WireFormat,
} from '@smsv4/core';

/** The name of a resource, as `--resource` and the schema files spell it. */
export type ResourceName =
  | 'mt-request'
  | 'invoke-service-request'
  | 'mt-status'
  | 'delivery-receipt'
  | 'mobile-originate'
  | 'preview'
  | 'error-record'
  | 'invoke-error';

/** How core's schema of a resource describes it. */
export type SchemaKind =
  /** A wire schema: already every form the service accepts (`MtRequestWireSchema`, `InvokeServiceRequestWireSchema`). */
  | 'wire'
  /**
   * A decoded resource schema with core's wire annotations (`wireAliases`, `xmlItem`, `wireNestedIn`,
   * `wireNumber`): the JSON forms the decoders accept are derived from it.
   */
  | 'resource';

/** One resource. */
export interface ResourceDescriptor {
  readonly name: ResourceName;
  /** Human title. */
  readonly title: string;
  /** What it is and where it travels. */
  readonly description: string;
  /** The one top-level JSON member and the XML root element; absent for the Invoke Service request (a bare JSON object). */
  readonly root?: string;
  /** The formats it has on the wire. */
  readonly formats: readonly WireFormat[];
  /** The namespace URI of its XML root, as the real service writes it. */
  readonly namespace?: string;
  /** Core's TypeBox schema (a JSON Schema) of its inside. */
  readonly schema: object;
  readonly schemaKind: SchemaKind;
  /** Members written as child elements in XML (dotted paths), where all other scalars are attributes. */
  readonly xmlElements?: readonly string[];
  /** Component name in the OpenAPI document. */
  readonly component: string;
}

/** Every resource, in the order documents list them. */
export const RESOURCES: readonly ResourceDescriptor[] = Object.freeze([
  {
    name: 'mt-request',
    title: 'MT request (mobileTerminate)',
    description: 'A message to send: the body of POST /sms/v4/mt, in JSON or XML.',
    root: 'mobileTerminate',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.mt,
    schema: MtRequestWireSchema,
    schemaKind: 'wire',
    // The spec: "scalar members are attributes ..., except the message text, which is a child element content of message".
    xmlElements: ['message.content'],
    component: 'MtRequest',
  },
  {
    name: 'invoke-service-request',
    title: 'Invoke Service request',
    description: 'The body of POST /service/v1/invokeService/{serviceId} (JSON only, at most 8000 bytes).',
    formats: ['json'],
    schema: InvokeServiceRequestWireSchema,
    schemaKind: 'wire',
    component: 'InvokeServiceRequest',
  },
  {
    name: 'mt-status',
    title: 'Message status (mtStatus)',
    description: 'The answer to GET /sms/v4/mt/{ticketId}/status; for a multipart message the code is the summary and segments lists the parts.',
    root: 'mtStatus',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.mt,
    schema: MtStatusSchema,
    schemaKind: 'resource',
    component: 'MtStatus',
  },
  {
    name: 'delivery-receipt',
    title: 'Delivery receipt (deliveryReceipt)',
    description: 'Posted by the service to the receipt URL, one per message part.',
    root: 'deliveryReceipt',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.mt,
    schema: DeliveryReceiptSchema,
    schemaKind: 'resource',
    component: 'DeliveryReceipt',
  },
  {
    name: 'mobile-originate',
    title: 'Inbound message (mobileOriginate)',
    description: 'Posted by the service to the inbound URL, one per part of a multipart message.',
    root: 'mobileOriginate',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.mo,
    schema: MobileOriginateSchema,
    schemaKind: 'resource',
    component: 'MobileOriginate',
  },
  {
    name: 'preview',
    title: 'Operator lookup result (preview)',
    description: 'The answer to GET /sms/v4/preview/{phoneNumber}.',
    root: 'preview',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.preview,
    schema: PreviewSchema,
    schemaKind: 'resource',
    component: 'Preview',
  },
  {
    name: 'error-record',
    title: 'SMS API error record (error)',
    description: 'The body of a rejected send, status or lookup request; the code is a string of digits.',
    root: 'error',
    formats: ['json', 'xml'],
    namespace: XML_NAMESPACES.mt,
    schema: ErrorRecordSchema,
    schemaKind: 'resource',
    component: 'ErrorRecord',
  },
  {
    name: 'invoke-error',
    title: 'Invoke Service error body (error)',
    description: 'The body of a rejected Invoke Service request (JSON only); the code is an integer.',
    root: 'error',
    formats: ['json'],
    schema: InvokeErrorBodySchema,
    schemaKind: 'resource',
    component: 'InvokeErrorBody',
  },
] satisfies ResourceDescriptor[]);

/** Every {@link ResourceName}, in table order. */
export const RESOURCE_NAMES: readonly ResourceName[] = Object.freeze(RESOURCES.map((resource) => resource.name));

/** The descriptor of a resource. */
export function resourceByName(name: ResourceName): ResourceDescriptor {
  const found = RESOURCES.find((resource) => resource.name === name);
  if (found === undefined) throw new TypeError(`unknown resource ${String(name)}`);
  return found;
}

/** `true` for a {@link ResourceName}. */
export function isResourceName(value: string): value is ResourceName {
  return (RESOURCE_NAMES as readonly string[]).includes(value);
}

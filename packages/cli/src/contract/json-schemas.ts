/**
 * One JSON Schema document (draft 2020-12) per resource, generated from core's TypeBox schemas:
 * the JSON body as it travels, the resource wrapped in its root member (`{"mobileTerminate": ...}`)
 * where the wire has one.
 */
import { RESOURCES, resourceByName, type ResourceDescriptor, type ResourceName } from '../resources.js';
import { wireJsonSchema, type JsonSchema } from './wire-json-schema.js';

/** The dialect every generated document declares. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A generated JSON Schema document. */
export interface JsonSchemaDocument {
  readonly resource: ResourceName;
  /** `<resource>.schema.json`, also its `$id`. */
  readonly fileName: string;
  readonly schema: JsonSchema;
}

/**
 * The schema of a resource's inside (what its root member holds), in its JSON wire form; with
 * `xml: true` carrying the OpenAPI `xml` hints, the root element's name and namespace included;
 * with `strict: true` in the canonical form only (see `wireJsonSchema`).
 */
export function resourceSchema(descriptor: ResourceDescriptor, { xml = false, strict = false }: { readonly xml?: boolean; readonly strict?: boolean } = {}): JsonSchema {
  const inner = wireJsonSchema(descriptor.schema, {
    lenient: descriptor.schemaKind === 'resource',
    strict,
    xml: xml && descriptor.formats.includes('xml'),
    ...(descriptor.xmlElements === undefined ? {} : { xmlElements: descriptor.xmlElements }),
  });
  if (xml && descriptor.root !== undefined && descriptor.formats.includes('xml')) {
    inner.xml = { name: descriptor.root, ...(descriptor.namespace === undefined ? {} : { namespace: descriptor.namespace }) };
  }
  return inner;
}

/** The JSON body of a resource: its inside wrapped in the root member, or the inside itself when it has none. */
export function jsonBodySchema(descriptor: ResourceDescriptor, inner: JsonSchema): JsonSchema {
  if (descriptor.root === undefined) return inner;
  return { type: 'object', required: [descriptor.root], properties: { [descriptor.root]: inner } };
}

/** The JSON Schema document of one resource. */
export function buildJsonSchema(name: ResourceName): JsonSchemaDocument {
  const descriptor = resourceByName(name);
  const fileName = `${name}.schema.json`;
  const xmlNote = descriptor.formats.includes('xml') ? ' The XML form carries the same members (scalars as attributes).' : '';
  const schema: JsonSchema = {
    $schema: JSON_SCHEMA_DIALECT,
    $id: fileName,
    title: `${descriptor.title}, JSON form`,
    description: `${descriptor.description}${xmlNote} Generated from the TypeBox schemas of @smsv4/core.`,
    ...jsonBodySchema(descriptor, resourceSchema(descriptor)),
  };
  return { resource: name, fileName, schema };
}

/** The JSON Schema documents of every resource. */
export function buildJsonSchemas(): JsonSchemaDocument[] {
  return RESOURCES.map((descriptor) => buildJsonSchema(descriptor.name));
}

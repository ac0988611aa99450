/**
 * A wire plan: the members of a resource schema flattened once, at module load, into what the
 * readers and writers need (kind, XML attribute key, accepted alternative names). The TypeBox schema
 * stays the one description of each resource; a few annotations on it carry the wire variants:
 *
 * - `wireAliases: string[]`: other names a decoder accepts for the member (`alpha2code`, `operator`).
 * - `xmlItem: string` (arrays): the element name of each item inside the container element
 *   (`<segments><segment/></segments>`); JSON decoders also accept `{ "<xmlItem>": [...] }` and a
 *   single object in place of the list.
 * - `xmlElementText: true` (strings): in XML the value may also be the text of a child element of
 *   the same name (`<content>...</content>`); encoders write the attribute.
 * - `wireNestedIn: string` (objects): when absent, the member is also looked for inside the sibling
 *   object of that name (a receipt's `destination` inside its `mtStatus`).
 * - `wireNumber: true` (strings): a JSON number (a non-negative integer) is accepted and read as its
 *   decimal text (an SMS error `code`).
 * - `wireExpected: string`: how a decoder words what the member must be.
 */
import type { TSchema } from '@sinclair/typebox';

/** A scalar member: read from an XML attribute or a JSON member. */
export interface ScalarMember {
  readonly kind: 'string' | 'integer' | 'boolean';
  readonly key: string;
  /** `@key`: where the XML tree keeps the attribute. */
  readonly xmlKey: string;
  readonly aliases: readonly { readonly key: string; readonly xmlKey: string }[];
  readonly elementText: boolean;
  readonly numberAsText: boolean;
}

/** A child object: an XML element or a JSON object. */
export interface ObjectMember {
  readonly kind: 'object';
  readonly key: string;
  readonly aliases: readonly string[];
  readonly nestedIn: string | undefined;
  readonly plan: WirePlan;
}

/** A list of child objects: a container element of `item` elements, or a JSON array. */
export interface ArrayMember {
  readonly kind: 'array';
  readonly key: string;
  readonly item: string;
  readonly plan: WirePlan;
}

/** One member of a wire plan. */
export type WireMember = ScalarMember | ObjectMember | ArrayMember;

/** The members of an object schema, in the schema's order (which encoders follow). */
export type WirePlan = readonly WireMember[];

/**
 * Every attribute name a plan reads in XML (members, aliases, nested plans), each with its key in
 * the XML tree: handed to the XML reader so that it does not make these keys anew for each document.
 */
export function attributeKeysOf(plan: WirePlan, keys = new Map<string, string>()): Map<string, string> {
  for (const member of plan) {
    if (member.kind === 'object' || member.kind === 'array') attributeKeysOf(member.plan, keys);
    else for (const { key, xmlKey } of [member, ...member.aliases]) keys.set(key, xmlKey);
  }
  return keys;
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Builds the plan of an object schema; throws `TypeError` for a schema the codecs do not support. */
export function planOf(schema: TSchema): WirePlan {
  if (schema.type !== 'object' || typeof schema.properties !== 'object') throw new TypeError('a wire plan needs an object schema');
  const properties = schema.properties as Record<string, TSchema>;
  return Object.keys(properties).map((key): WireMember => {
    const member = properties[key] as TSchema;
    const aliases = stringList(member.wireAliases);
    switch (member.type) {
      case 'string':
      case 'integer':
      case 'boolean':
        return {
          kind: member.type,
          key,
          xmlKey: `@${key}`,
          aliases: aliases.map((alias) => ({ key: alias, xmlKey: `@${alias}` })),
          elementText: member.xmlElementText === true,
          numberAsText: member.wireNumber === true,
        };
      case 'object':
        return { kind: 'object', key, aliases, nestedIn: typeof member.wireNestedIn === 'string' ? member.wireNestedIn : undefined, plan: planOf(member) };
      case 'array':
        if (typeof member.xmlItem !== 'string') throw new TypeError(`array member ${key} needs an xmlItem name`);
        return { kind: 'array', key, item: member.xmlItem, plan: planOf(member.items as TSchema) };
      default:
        throw new TypeError(`member ${key} has a type the wire codecs do not support`);
    }
  });
}


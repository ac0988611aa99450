/**
 * Core's TypeBox schemas are JSON Schema already; this turns one into a plain JSON Schema document
 * of its JSON wire form. TypeBox's symbols are dropped, unions of literals become `enum`s, and for a
 * decoded resource schema (`schemaKind: 'resource'`) core's wire annotations become the JSON forms
 * its decoder accepts:
 *
 * - an integer member may be a JSON integer or a string of digits (`"383"`), a Boolean `true` /
 *   `false` or `"true"` / `"false"`, a member with `wireNumber` (the SMS error code) a string of
 *   digits or a JSON integer;
 * - `wireAliases`: the member may also go by the other names (`alpha2code`, `operator`);
 * - `xmlItem`: a list may be an array, `{ "<item>": [...] }` or a single object (`segments`);
 * - `wireNestedIn`: the member may also sit inside the sibling object named (`destination` inside a
 *   receipt's `mtStatus`).
 *
 * With `strict: true` (the OpenAPI document) only the canonical form of a member is kept: an integer,
 * not its digit string (`ton: 1`, not `"1"`); a Boolean, not `"true"`; the lenient forms are then
 * described in words by the document instead of typed.
 *
 * With `xml: true` the OpenAPI `xml` hints are added: scalars are attributes (except the members
 * listed as elements), objects child elements, lists wrapped elements of their item name.
 */

/** A JSON Schema object. */
export type JsonSchema = { [keyword: string]: unknown };

/** Options of {@link wireJsonSchema}. */
export interface WireJsonSchemaOptions {
  /** Derive the JSON wire forms from core's wire annotations (decoded resource schemas). */
  readonly lenient?: boolean;
  /** Add OpenAPI `xml` hints. */
  readonly xml?: boolean;
  /** Keep only the canonical form of members a wire schema also accepts as strings. */
  readonly strict?: boolean;
  /** Scalar members written as child elements in XML, as dotted paths (`message.content`). */
  readonly xmlElements?: readonly string[];
}

/** Keywords copied as they are. */
const KEYWORDS = [
  'title',
  'description',
  'type',
  'const',
  'enum',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
] as const;

/**
 * Digits a decoder reads as an integer (core's readers take at most 16). With a minimum of 1 the
 * digits must not all be zeros.
 */
const DIGITS_MAX = 16;
const digitsPattern = (minimum: unknown): string =>
  typeof minimum === 'number' && minimum >= 1 ? `^(?=[0-9]{1,${DIGITS_MAX}}$)0*[1-9][0-9]*$` : `^[0-9]{1,${DIGITS_MAX}}$`;

const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'number', 'boolean']);

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

interface Context extends Required<Omit<WireJsonSchemaOptions, 'xmlElements'>> {
  readonly elements: ReadonlySet<string>;
}

/** Converts one TypeBox schema into the JSON Schema of its JSON wire form (see the module comment). */
export function wireJsonSchema(schema: object, { lenient = false, xml = false, strict = false, xmlElements = [] }: WireJsonSchemaOptions = {}): JsonSchema {
  return convert(schema as JsonSchema, { lenient: lenient && !strict, xml, strict, elements: new Set(xmlElements) }, '');
}

function copyKeywords(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const keyword of KEYWORDS) if (Object.hasOwn(node, keyword)) out[keyword] = node[keyword];
  return out;
}

/** A scalar member: its value is an XML attribute. */
function isScalar(node: JsonSchema): boolean {
  if (SCALAR_TYPES.has(node.type)) return true;
  if (Array.isArray(node.type)) return node.type.every((type) => SCALAR_TYPES.has(type));
  return Array.isArray(node.anyOf) && node.anyOf.every((branch) => isObject(branch) && isScalar(branch));
}

function convert(node: JsonSchema, context: Context, path: string): JsonSchema {
  if (node.type === 'object' && isObject(node.properties)) return convertObject(node, context, path);
  const out = copyKeywords(node);
  if (isObject(node.patternProperties)) {
    const patterns: JsonSchema = {};
    for (const [pattern, value] of Object.entries(node.patternProperties)) patterns[pattern] = convert(value as JsonSchema, context, path);
    out.patternProperties = patterns;
  }
  if (Object.hasOwn(node, 'additionalProperties')) {
    out.additionalProperties = isObject(node.additionalProperties) ? convert(node.additionalProperties, context, path) : node.additionalProperties;
  }
  if (isObject(node.items)) out.items = convert(node.items, context, path);
  if (context.xml && !context.lenient && node.type === 'array' && typeof node.xmlItem === 'string' && isObject(out.items)) {
    out.xml = { wrapped: true };
    out.items = { ...out.items, xml: { name: node.xmlItem } };
  }
  if (Array.isArray(node.anyOf)) return mergeLiterals(out, node.anyOf.map((branch) => convert(branch as JsonSchema, context, path)), context.strict);
  return out;
}

/** Flattens nested unions and merges their literal branches into one `enum`. */
function mergeLiterals(outer: JsonSchema, branches: JsonSchema[], strict = false): JsonSchema {
  const flat: JsonSchema[] = [];
  for (const branch of branches) {
    const keys = Object.keys(branch);
    if (Array.isArray(branch.anyOf) && keys.every((key) => key === 'anyOf' || key === 'description')) flat.push(...(branch.anyOf as JsonSchema[]));
    else flat.push(branch);
  }
  const literals: unknown[] = [];
  const types = new Set<string>();
  const others: JsonSchema[] = [];
  for (const branch of flat) {
    const literal = Object.hasOwn(branch, 'const') ? [branch.const] : Array.isArray(branch.enum) ? branch.enum : undefined;
    if (literal === undefined) {
      others.push(branch);
      continue;
    }
    literals.push(...literal);
    for (const type of Array.isArray(branch.type) ? branch.type : [branch.type]) if (typeof type === 'string') types.add(type);
  }
  if (strict) {
    // The canonical form only: a digit string beside its integer, "true"/"false" beside a Boolean.
    const numbers = new Set(literals.filter((v) => typeof v === 'number').map(String));
    const booleans = others.some((branch) => branch.type === 'boolean');
    const kept = literals.filter((v) => typeof v !== 'string' || (!numbers.has(v) && !(booleans && (v === 'true' || v === 'false'))));
    literals.splice(0, literals.length, ...kept);
    // A digit string beside an integer member is the same value written loosely.
    if (others.some((branch) => branch.type === 'integer')) {
      const loose = others.filter((branch) => branch.type === 'string' && typeof branch.pattern === 'string' && branch.pattern.startsWith('^[0-9]'));
      for (const branch of loose) others.splice(others.indexOf(branch), 1);
    }
    types.clear();
    for (const v of kept) types.add(typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);
  }
  const merged: JsonSchema[] = [...others];
  if (literals.length > 0) {
    const typeList = [...types];
    // Literals of several types: the enum alone says it (a type list is valid but many tools refuse it).
    merged.push({ ...(typeList.length === 1 ? { type: typeList[0] } : {}), enum: literals });
  }
  const { description } = outer;
  if (merged.length === 1) return { ...(merged[0] as JsonSchema), ...(description === undefined ? {} : { description }) };
  return { ...(description === undefined ? {} : { description }), anyOf: merged };
}

/** A member of a decoded resource schema, in every JSON form its decoder reads. */
function lenientMember(member: JsonSchema, context: Context, path: string): JsonSchema {
  const base = convert(member, context, path);
  const { description, ...rest } = base;
  const wrap = (branches: JsonSchema[]): JsonSchema => ({ ...(description === undefined ? {} : { description }), anyOf: branches });
  switch (member.type) {
    case 'string':
      return member.wireNumber === true ? wrap([rest, { type: 'integer', minimum: 0 }]) : base;
    case 'integer':
      return wrap([rest, { type: 'string', pattern: digitsPattern(member.minimum) }]);
    case 'boolean':
      return wrap([{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }]);
    case 'array': {
      if (typeof member.xmlItem !== 'string' || !isObject(base.items)) return base;
      const item = base.items;
      const list: JsonSchema = { ...rest, ...(context.xml ? { xml: { wrapped: true } } : {}) };
      if (context.xml) item.xml = { name: member.xmlItem };
      const wrapper: JsonSchema = {
        type: 'object',
        required: [member.xmlItem],
        properties: { [member.xmlItem]: { anyOf: [{ ...list }, item] } },
      };
      return wrap([list, wrapper, item]);
    }
    default:
      return base;
  }
}

function convertObject(node: JsonSchema, context: Context, path: string): JsonSchema {
  const properties = node.properties as Record<string, JsonSchema>;
  const required = new Set(stringList(node.required));
  const outProperties: JsonSchema = {};
  const outRequired: string[] = [];
  const alternatives: JsonSchema[] = [];
  const nested: { into: string; names: string[]; schema: JsonSchema }[] = [];
  for (const key of Object.keys(properties)) {
    const member = properties[key] as JsonSchema;
    const memberPath = path === '' ? key : `${path}.${key}`;
    let converted = context.lenient ? lenientMember(member, context, memberPath) : convert(member, context, memberPath);
    if (context.xml && isScalar(member) && !context.elements.has(memberPath)) converted = { ...converted, xml: { attribute: true } };
    const names = [key, ...(context.lenient ? stringList(member.wireAliases) : [])];
    for (const name of names) outProperties[name] = converted;
    if (required.has(key)) {
      if (names.length === 1) outRequired.push(key);
      // Each branch names the member among its own properties too (Ajv's strictRequired).
      else alternatives.push({ anyOf: names.map((name) => ({ type: 'object', properties: { [name]: true }, required: [name] })) });
    }
    if (context.lenient && typeof member.wireNestedIn === 'string') nested.push({ into: member.wireNestedIn, names, schema: converted });
  }
  for (const { into, names, schema } of nested) {
    const sibling = outProperties[into];
    if (!isObject(sibling) || !isObject(sibling.properties)) continue;
    for (const name of names) if (!Object.hasOwn(sibling.properties, name)) sibling.properties[name] = schema;
  }
  const out: JsonSchema = { ...copyKeywords(node), type: 'object', properties: outProperties };
  if (outRequired.length > 0) out.required = outRequired;
  if (alternatives.length === 1) Object.assign(out, alternatives[0]);
  else if (alternatives.length > 1) out.allOf = alternatives;
  if (Object.hasOwn(node, 'additionalProperties')) {
    out.additionalProperties = isObject(node.additionalProperties) ? convert(node.additionalProperties, context, path) : node.additionalProperties;
  }
  return out;
}

import { wireBoolean, wireDigits } from '../codec/wire-values.js';
import { isJsonObject, own } from '../json/strict-json.js';
import { unescapeXml, xmlText, type XmlValue } from '../xml/xml-document.js';
import type { ArrayMember, ObjectMember, ScalarMember, WirePlan } from './wire-plan.js';

/**
 * Reads the members of a plan from a parsed JSON object (`xml` false) or XML element (`xml` true)
 * into a candidate value. This walk is the reference for the reader `compileReader` generates
 * (and what runs where code generation is forbidden):
 *
 * - Only known members are read; unknown members are never visited, and every read is an
 *   own-property read, so `__proto__`, `constructor` or `prototype` members are never seen.
 * - Scalars are normalised: digit strings to numbers, `"true"`/`"false"` to Booleans, XML references
 *   replaced, a JSON number to its digits for a `wireNumber` string. A value that does not convert
 *   is kept as it was, so the schema check that follows rejects it and names the member.
 * - `wireAliases`, `wireNestedIn`, `xmlItem` and `xmlElementText` are honoured (see `wire-plan.ts`);
 *   an `xmlElementText` member given both ways with different values is kept as both (refused).
 * - XML: an empty element reads as an empty object; a repeated element where one is expected is
 *   kept as the list (a repeated list container as `null`), which the schema check rejects. JSON:
 *   a non-object where an object is expected is kept as it was.
 */
export function readWire(plan: WirePlan, node: unknown, xml: boolean): unknown {
  if (xml) return Array.isArray(node) ? node : readObject(plan, node, true);
  return isJsonObject(node) ? readObject(plan, node, false) : node;
}

function readObject(plan: WirePlan, node: unknown, xml: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const member of plan) {
    const value =
      member.kind === 'object' ? readChild(member, node, xml) : member.kind === 'array' ? readList(member, node, xml) : readScalar(member, node, xml);
    if (value !== undefined) out[member.key] = value;
  }
  return out;
}

function readScalar(member: ScalarMember, node: unknown, xml: boolean): unknown {
  let raw = own(node, xml ? member.xmlKey : member.key);
  for (let i = 0; raw === undefined && i < member.aliases.length; i++) {
    const alias = member.aliases[i] as ScalarMember['aliases'][number];
    raw = own(node, xml ? alias.xmlKey : alias.key);
  }
  if (xml && typeof raw === 'string') {
    raw = unescapeXml(raw);
    if (member.elementText) raw = attributeAndElement(raw as string, own(node, member.key));
  } else if (raw === undefined && xml && member.elementText) {
    const child = own(node, member.key);
    raw = child === undefined || Array.isArray(child) ? child : xmlText(child as XmlValue);
  }
  switch (member.kind) {
    case 'integer':
      return typeof raw === 'string' ? (wireDigits(raw, 16) ?? raw) : raw;
    case 'boolean':
      return wireBoolean(raw) ?? raw;
    default:
      return member.numberAsText && typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw;
  }
}

/**
 * An `xmlElementText` member given both as an attribute and as a child element: the value when
 * both say the same; otherwise both, as a list the schema check refuses (as it refuses a repeated
 * element), so that neither is dropped silently.
 */
export function attributeAndElement(attribute: string, element: unknown): unknown {
  if (element === undefined) return attribute;
  const text = Array.isArray(element) ? element : xmlText(element as XmlValue);
  return text === attribute ? attribute : [attribute, text];
}

function lookup(node: unknown, member: ObjectMember): unknown {
  let raw = own(node, member.key);
  for (let i = 0; raw === undefined && i < member.aliases.length; i++) raw = own(node, member.aliases[i] as string);
  return raw;
}

function readChild(member: ObjectMember, node: unknown, xml: boolean): unknown {
  let raw = lookup(node, member);
  if (raw === undefined && member.nestedIn !== undefined) {
    const holder = own(node, member.nestedIn);
    if (!Array.isArray(holder)) raw = lookup(holder, member);
  }
  return raw === undefined ? undefined : readWire(member.plan, raw, xml);
}

function readList(member: ArrayMember, node: unknown, xml: boolean): unknown {
  const raw = own(node, member.key);
  if (raw === undefined) return undefined;
  if (xml) return Array.isArray(raw) ? null : readItems(member, own(raw, member.item) ?? [], true);
  if (Array.isArray(raw)) return readItems(member, raw, false);
  if (typeof raw !== 'object' || raw === null) return raw;
  return readItems(member, Object.hasOwn(raw, member.item) ? (raw as Record<string, unknown>)[member.item] : raw, false);
}

function readItems(member: ArrayMember, items: unknown, xml: boolean): unknown[] {
  if (!Array.isArray(items)) return [readWire(member.plan, items, xml)];
  return items.map((item) => readWire(member.plan, item, xml));
}

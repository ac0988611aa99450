import { wireDigits } from '../codec/wire-values.js';
import { unescapeXml, xmlText, type XmlValue } from '../xml/xml-document.js';
import { attributeAndElement, readWire } from './read-wire.js';
import type { ArrayMember, ObjectMember, ScalarMember, WirePlan } from './wire-plan.js';

/** Reads a parsed JSON object or XML element into a candidate value of a resource. */
export type WireReader = (node: unknown) => unknown;

/** The helpers the generated readers call. */
const helpers = {
  hasOwn: Object.hasOwn,
  isArray: Array.isArray,
  unescape: unescapeXml,
  both: attributeAndElement,
  text: (element: unknown): unknown => (Array.isArray(element) ? element : xmlText(element as XmlValue)),
  digits: (text: string): unknown => wireDigits(text, 16) ?? text,
  numberText: (value: unknown): unknown => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value),
};

const lit = (text: string): string => JSON.stringify(text);

/** An own-member read of `key` from `node` (any value), as an expression. */
const ownOf = (node: string, key: string): string =>
  `(typeof ${node} === 'object' && ${node} !== null && h.hasOwn(${node}, ${lit(key)}) ? ${node}[${lit(key)}] : undefined)`;

/**
 * Compiles the reader of a plan for one format, once, at module load: straight-line code with one
 * own-member read per known member (the member names are the schema's, written as string
 * literals; the generated source holds no data from any payload), so reading costs a fraction of
 * parsing. It reads exactly what {@link readWire} reads. Where code generation is forbidden
 * (Cloudflare Workers, pages with a strict Content Security Policy) it returns `readWire` itself.
 */
export function compileReader(plan: WirePlan, xml: boolean): WireReader {
  const functions: string[] = [];
  const objectReader = (members: WirePlan): string => {
    const index = functions.length;
    functions.push(''); // reserved: readers of child objects are added while this one is written
    const body: string[] = [
      xml ? 'if (h.isArray(n)) return n;' : "if (typeof n !== 'object' || n === null || h.isArray(n)) return n;",
      'const o = {};',
      'let v;',
    ];
    for (const member of members) {
      if (member.kind === 'object') body.push(...objectMember(member));
      else if (member.kind === 'array') body.push(...arrayMember(member));
      else body.push(...scalarMember(member));
    }
    body.push('return o;');
    functions[index] = `function read${index}(n) {\n${body.join('\n')}\n}`;
    return `read${index}`;
  };

  const scalarMember = (member: ScalarMember): string[] => {
    const keys = [member, ...member.aliases].map((m) => (xml ? m.xmlKey : m.key));
    const out = [`v = ${ownOf('n', keys[0] as string)};`];
    for (const key of keys.slice(1)) out.push(`if (v === undefined) v = ${ownOf('n', key)};`);
    if (xml) {
      if (member.elementText) {
        out.push(`if (typeof v === 'string') v = h.both(h.unescape(v), ${ownOf('n', member.key)});`);
        out.push(`else if (v === undefined) { v = ${ownOf('n', member.key)}; if (v !== undefined) v = h.text(v); }`);
      } else out.push(`if (typeof v === 'string') v = h.unescape(v);`);
    }
    if (member.kind === 'integer') out.push(`if (typeof v === 'string') v = h.digits(v);`);
    else if (member.kind === 'boolean') out.push(`if (v === 'true') v = true; else if (v === 'false') v = false;`);
    else if (member.numberAsText && !xml) out.push('v = h.numberText(v);');
    out.push(`if (v !== undefined) o[${lit(member.key)}] = v;`);
    return out;
  };

  const objectMember = (member: ObjectMember): string[] => {
    const reader = objectReader(member.plan);
    const out = [`v = ${ownOf('n', member.key)};`];
    for (const alias of member.aliases) out.push(`if (v === undefined) v = ${ownOf('n', alias)};`);
    if (member.nestedIn !== undefined) {
      out.push(`if (v === undefined) { const w = ${ownOf('n', member.nestedIn)};`);
      out.push(`if (!h.isArray(w)) { v = ${ownOf('w', member.key)};`);
      for (const alias of member.aliases) out.push(`if (v === undefined) v = ${ownOf('w', alias)};`);
      out.push('} }');
    }
    out.push(`if (v !== undefined) o[${lit(member.key)}] = ${reader}(v);`);
    return out;
  };

  const arrayMember = (member: ArrayMember): string[] => {
    const reader = objectReader(member.plan);
    const out = [`v = ${ownOf('n', member.key)};`, 'if (v !== undefined) {'];
    if (xml) {
      // A repeated container becomes null, which the schema check rejects at the container.
      out.push(`if (h.isArray(v)) v = null;`);
      out.push(`else { v = ${ownOf('v', member.item)}; v = v === undefined ? [] : h.isArray(v) ? v.map(${reader}) : [${reader}(v)]; }`);
    } else {
      out.push(`if (h.isArray(v)) v = v.map(${reader});`);
      out.push(`else if (typeof v === 'object' && v !== null) { if (h.hasOwn(v, ${lit(member.item)})) v = v[${lit(member.item)}]; v = h.isArray(v) ? v.map(${reader}) : [${reader}(v)]; }`);
    }
    out.push(`o[${lit(member.key)}] = v;`, '}');
    return out;
  };

  const root = objectReader(plan);
  const source = `'use strict';\n${functions.join('\n')}\nreturn ${root};`;
  try {
    return new Function('h', source)(helpers) as WireReader;
  } catch {
    return (node) => readWire(plan, node, xml);
  }
}

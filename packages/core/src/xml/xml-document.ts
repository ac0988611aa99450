import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { lazy } from '../lazy.js';
import { err, ok, type Result } from '../result.js';
import { readWellFormed, type WellFormedProblem } from './well-formed.js';
import { escapeXml } from './xml-escape.js';
import type { XmlDocument, XmlElement, XmlValue } from './xml-tree.js';

export type { XmlDocument, XmlElement, XmlValue } from './xml-tree.js';

/** Options of {@link parseXmlDocument}. */
export interface ParseXmlOptions {
  /** Deepest element nesting accepted (default 32). */
  readonly maxDepth?: number;
}

/** Why an XML document was refused. */
export type XmlProblem = WellFormedProblem | 'parser';

/** The namespace URIs of the API, as the real service writes them. */
export const XML_NAMESPACES = {
  mt: 'http://sms.openmarket.com/v4/mt',
  mo: 'http://sms.openmarket.com/v4/mo',
  preview: 'http://sms.openmarket.com/v4/preview',
} as const;

/** The local name of a qualified element name (`mt:status` → `status`). */
export const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

// Element prefixes are stripped by a name transform (fast-xml-parser's `removeNSPrefix` costs about
// a fifth of a parse more); attributes of the API are unqualified, so their names are kept as written
// and namespace declarations (`@xmlns`, `@xmlns:mt`) are simply attributes nobody reads.
const parserOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  transformTagName: localName,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

const DEFAULT_DEPTH = 32;
const defaultParser = lazy(() => new XMLParser({ ...parserOptions, maxNestedTags: DEFAULT_DEPTH + 1 }));

const references = /&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g;
const named: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Replaces the predefined entities and character references of an attribute value or text. */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(references, (_, ref: string) =>
    ref.charCodeAt(0) === 35
      ? String.fromCodePoint(ref.charCodeAt(1) === 120 ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10))
      : (named[ref] as string),
  );
}

/**
 * Parses an XML document with hardened settings: in one pass, the text is checked for well-formedness
 * (no DOCTYPE, no entity declarations, no undeclared references, bounded depth) and read into the
 * tree fast-xml-parser builds (see `xml-reader.ts`); a document using an element name
 * fast-xml-parser refuses or renames (the members of `Object.prototype`) is handed to fast-xml-parser
 * itself, with entity processing off. References are decoded by `unescapeXml` when a value is
 * read, so no expansion can happen.
 */
export function parseXmlDocument(text: string, { maxDepth = DEFAULT_DEPTH }: ParseXmlOptions = {}): Result<XmlDocument, XmlProblem> {
  return readXmlDocument(text, undefined, maxDepth);
}

/**
 * {@link parseXmlDocument} for a decoder that knows the attribute names it reads: their keys in the
 * tree are given made (see `readWellFormed`), the tree is the same.
 * @internal
 */
export function readXmlDocument(text: string, attributeKeys: ReadonlyMap<string, string> | undefined, maxDepth = DEFAULT_DEPTH): Result<XmlDocument, XmlProblem> {
  const read = readWellFormed(text, maxDepth, attributeKeys);
  if (read.problem !== undefined) return err(read.problem);
  if (read.tree !== undefined) return ok(read.tree);
  return parseWithFastXmlParser(text, maxDepth);
}

/**
 * The reference reading of a well-formed document: fast-xml-parser alone (CDATA inlined first).
 * `parseXmlDocument` uses it for the documents its own reader leaves to it; the tests hold the two
 * readings to the same trees.
 * @internal
 */
export function parseWithFastXmlParser(text: string, maxDepth = DEFAULT_DEPTH): Result<XmlDocument, XmlProblem> {
  // CDATA is literal text: escape it in place so that reading a value unescapes it exactly once.
  // Line ends are normalised first, as fast-xml-parser would: a CR and an LF that only an empty
  // CDATA section separates are two line ends, not one CRLF once the section is gone.
  if (text.includes('<![CDATA[')) text = inlineCdata(text.replace(/\r\n?/g, '\n'));
  let tree: Record<string, unknown>;
  try {
    const parser = maxDepth === DEFAULT_DEPTH ? defaultParser() : new XMLParser({ ...parserOptions, maxNestedTags: maxDepth + 1 });
    tree = parser.parse(text) as Record<string, unknown>;
  } catch {
    return err('parser');
  }
  for (const key of Object.keys(tree)) {
    if (key === '#text') continue;
    return ok({ rootName: key, root: tree[key] as XmlElement | string });
  }
  return err('no-root');
}

/**
 * Replaces each CDATA section (outside comments) by its content with `&`, `<` and `>` escaped, so the
 * document reads the same and values are unescaped exactly once. Runs on well-formed text only.
 */
function inlineCdata(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const cdata = text.indexOf('<![CDATA[', i);
    if (cdata === -1) return out + text.slice(i);
    // Comments and processing instructions may contain the CDATA opening as plain characters.
    const comment = text.indexOf('<!--', i);
    const pi = text.indexOf('<?', i);
    const skipFrom = comment !== -1 && comment < cdata && (pi === -1 || comment < pi) ? comment : pi !== -1 && pi < cdata ? pi : -1;
    if (skipFrom !== -1) {
      const close = skipFrom === comment ? text.indexOf('-->', comment + 4) : text.indexOf('?>', skipFrom + 2);
      if (close === -1) return out + text.slice(i);
      const end = close + (skipFrom === comment ? 3 : 2);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    const close = text.indexOf(']]>', cdata + 9);
    if (close === -1) return out + text.slice(i);
    out += text.slice(i, cdata) + text.slice(cdata + 9, close).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    i = close + 3;
  }
}

/** An attribute of an element, unescaped; `undefined` when absent. */
export function xmlAttribute(element: XmlValue | undefined, name: string): string | undefined {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const key = `@${name}`;
  const value = Object.hasOwn(element, key) ? (element as XmlElement)[key] : undefined;
  return typeof value === 'string' ? unescapeXml(value) : undefined;
}

/** The child elements of an element with a local name (zero, one or several). */
export function xmlChildren(element: XmlValue | undefined, name: string): readonly XmlValue[] {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return [];
  const value = Object.hasOwn(element, name) ? (element as XmlElement)[name] : undefined;
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as XmlValue];
}

/** The character data of an element, unescaped (`''` for an empty element). */
export function xmlText(element: XmlValue | undefined): string | undefined {
  if (typeof element === 'string') return unescapeXml(element);
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const text = Object.hasOwn(element, '#text') ? (element as XmlElement)['#text'] : '';
  return typeof text === 'string' ? unescapeXml(text) : undefined;
}

/** A node to serialise: attributes under `@name`, children under their name, text under `#text`. */
export type XmlBuildNode = { [key: string]: string | number | boolean | XmlBuildNode | XmlBuildNode[] | undefined };

const builderOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  format: false,
  // Values are escaped by escapeXml before building (references for CR, and for tab and LF in
  // attributes, which the builder's own escaping leaves for parsers to normalise away).
  processEntities: false,
} as const;

/**
 * Serialises one root element, with an XML declaration, omitting `undefined` members. Every value
 * is escaped so that any XML parser reads back exactly the string written.
 * @param encoder names the caller in the TypeError thrown for a character XML 1.0 cannot carry
 *   (default `encode` + the root name, e.g. `encodeMtStatus`).
 * @throws TypeError naming the member when a value holds a character XML 1.0 cannot carry.
 */
export function buildXmlDocument(rootName: string, root: XmlBuildNode, encoder = `encode${rootName[0]?.toUpperCase() ?? ''}${rootName.slice(1)}`): string {
  const body = new XMLBuilder(builderOptions).build({ [rootName]: prune(root, rootName, encoder) }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>${body}`;
}

function prune(node: XmlBuildNode, path: string, encoder: string): XmlBuildNode {
  const out: XmlBuildNode = {};
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (value === undefined) continue;
    const attribute = key.charCodeAt(0) === 64; /* @ */
    const member = key === '#text' ? path : `${path}.${attribute ? key.slice(1) : key}`;
    if (Array.isArray(value)) out[key] = value.map((item) => prune(item, member, encoder));
    else if (typeof value === 'object') out[key] = prune(value, member, encoder);
    else out[key] = escapeXml(String(value), { encoder, member }, attribute);
  }
  return out;
}

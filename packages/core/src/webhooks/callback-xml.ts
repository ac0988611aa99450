/**
 * A fast reading of the XML callbacks the service posts: flat documents of elements with
 * attributes, and one text element (`<content>`) at most. A document already checked well-formed
 * (`checkWellFormed`: no DOCTYPE, no entity declarations, balanced tags, valid references) is
 * turned into the JSON form of the same resource in one pass, which the JSON decoder then reads.
 * Anything outside that simple shape (CDATA, comments inside elements, mixed content, a repeated
 * element, a member named `__proto__`) returns `undefined`, and the caller uses the full XML decoder instead; so does any
 * document the JSON decoder refuses, so that errors are always the XML decoder's.
 */
import { unescapeXml } from '../xml/xml-document.js';

interface OpenElement {
  readonly name: string;
  readonly members: Record<string, unknown>;
  hasMembers: boolean;
  text: string;
}

const SPACE = /^[ \t\r\n]*$/;

const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

/** Names the full decoder refuses or treats with care: left to it. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** The value of a closed element: its text when it has neither attributes nor children (as fast-xml-parser reads it), else its members. */
function valueOf(element: OpenElement): unknown {
  if (!element.hasMembers) return unescapeXml(element.text);
  return SPACE.test(element.text) ? element.members : undefined;
}

const isSpaceCode = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;

/**
 * The JSON form (`{ "<root>": { ... } }`) of a well-formed XML document of the simple shape:
 * attributes become members (namespace prefixes and `xmlns` declarations dropped, references
 * replaced), child elements nested members, the text of an element without attributes or children
 * a string. `undefined` for any other document. The document must have passed `checkWellFormed`.
 */
export function simpleXmlAsJson(s: string): Record<string, unknown> | undefined {
  const n = s.length;
  const stack: OpenElement[] = [];
  let result: Record<string, unknown> | undefined;
  let i = 0;

  const close = (element: OpenElement): boolean => {
    const value = valueOf(element);
    if (value === undefined) return false;
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      result = { [element.name]: value };
      return true;
    }
    if (Object.hasOwn(parent.members, element.name)) return false;
    parent.members[element.name] = value;
    parent.hasMembers = true;
    return true;
  };

  while (i < n) {
    const lt = s.indexOf('<', i);
    const open = stack[stack.length - 1];
    if (lt === -1) {
      if (!SPACE.test(s.slice(i))) return undefined;
      break;
    }
    if (lt > i) {
      if (open !== undefined) open.text += s.slice(i, lt);
      // Text outside the root element: not a document the full decoder reads.
      else if (!SPACE.test(s.slice(i, lt))) return undefined;
    }
    const next = s.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      i = s.indexOf('?>', lt + 2) + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (open !== undefined || !s.startsWith('<!--', lt)) return undefined;
      i = s.indexOf('-->', lt + 4) + 3;
      continue;
    }
    if (next === 47 /* / */) {
      const element = stack.pop();
      if (element === undefined || !close(element)) return undefined;
      i = s.indexOf('>', lt + 2) + 1;
      continue;
    }
    let j = lt + 1;
    while (j < n && !isSpaceCode(s.charCodeAt(j)) && s.charCodeAt(j) !== 62 && s.charCodeAt(j) !== 47) j++;
    // Members live in an object without prototype, so that an element or attribute named __proto__ is plain data.
    const members = Object.create(null) as Record<string, unknown>;
    const element: OpenElement = { name: localName(s.slice(lt + 1, j)), members, hasMembers: false, text: '' };
    if (RESERVED.has(element.name)) return undefined;
    for (;;) {
      while (isSpaceCode(s.charCodeAt(j))) j++;
      const c = s.charCodeAt(j);
      if (c === 62 /* > */) {
        stack.push(element);
        i = j + 1;
        break;
      }
      if (c === 47 /* / */) {
        if (!close(element)) return undefined;
        i = j + 2;
        break;
      }
      const eq = s.indexOf('=', j);
      const name = s.slice(j, eq).trimEnd();
      j = eq + 1;
      while (isSpaceCode(s.charCodeAt(j))) j++;
      const quote = s[j] as string;
      const end = s.indexOf(quote, j + 1);
      const raw = s.slice(j + 1, end);
      j = end + 1;
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const key = localName(name);
      if (RESERVED.has(key) || Object.hasOwn(element.members, key)) return undefined;
      element.members[key] = unescapeXml(raw);
      element.hasMembers = true;
    }
  }
  return stack.length === 0 ? result : undefined;
}

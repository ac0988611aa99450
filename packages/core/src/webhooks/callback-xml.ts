/**
 * A fast reading of the XML callbacks the service posts: flat documents of elements with
 * attributes, and text elements (`<content>`) without attributes. A document already checked
 * well-formed (`checkWellFormed`: no DOCTYPE, no entity declarations, balanced tags, valid
 * references) is turned into the same tree fast-xml-parser builds for it (attributes under
 * `@name` as written, child elements under their local name, raw values), in one pass, so that the
 * resource's own reader reads it. Anything outside that simple shape (CDATA, processing
 * instructions, comments inside elements, mixed content, a repeated element, a member named
 * `__proto__`) returns `undefined`, and the caller uses the full XML decoder instead.
 */
import { XML_DECLARATION } from '../xml/well-formed.js';
import { localName, type XmlDocument, type XmlElement } from '../xml/xml-document.js';

interface OpenElement {
  readonly name: string;
  readonly members: Record<string, unknown>;
  hasMembers: boolean;
  text: string;
}

const SPACE = /^[ \t\r\n]*$/;

/** Names the full decoder refuses or treats with care: left to it. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', '@__proto__', '@constructor', '@prototype', '#text']);


const isSpaceCode = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;

/** The value of a closed element: its raw text when it has neither attributes nor children, else its members. */
function valueOf(element: OpenElement): unknown {
  if (!element.hasMembers) return element.text;
  return SPACE.test(element.text) ? element.members : undefined;
}

/**
 * The tree of a well-formed XML document of the simple shape, as `parseXmlDocument` gives it;
 * `undefined` for any other document. The document must have passed `checkWellFormed`.
 */
export function readSimpleXml(s: string): XmlDocument | undefined {
  const n = s.length;
  const stack: OpenElement[] = [];
  let result: XmlDocument | undefined;
  let i = 0;

  const close = (element: OpenElement): boolean => {
    const value = valueOf(element);
    if (value === undefined) return false;
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      if (result !== undefined) return false;
      result = { rootName: element.name, root: value as XmlElement | string };
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
      // Only a plain XML declaration at the very start; any other processing instruction is left to the full decoder.
      const declaration = lt === 0 ? XML_DECLARATION.exec(s) : null;
      if (declaration === null) return undefined;
      i = declaration[0].length;
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
    // Members live in an object without prototype, so that no name can reach Object.prototype.
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
      const key = `@${s.slice(j, eq).trimEnd()}`;
      j = eq + 1;
      while (isSpaceCode(s.charCodeAt(j))) j++;
      const quote = s[j] as string;
      const end = s.indexOf(quote, j + 1);
      if (RESERVED.has(key) || Object.hasOwn(members, key)) return undefined;
      members[key] = s.slice(j + 1, end);
      element.hasMembers = true;
      j = end + 1;
    }
  }
  return stack.length === 0 ? result : undefined;
}

/**
 * The reader of every XML decoder: a document already checked well-formed (`checkWellFormed`: no
 * DOCTYPE, no entity declarations, balanced tags, valid references, bounded depth) is turned in one
 * pass into the tree fast-xml-parser builds for it with the settings of `parseXmlDocument`:
 *
 * - an element with neither attributes nor child elements is its character data (`''` when empty);
 *   any other element is an object with its attributes under `@name` as written, its child elements
 *   under their local name (an array when repeated) and, when it holds any, its character data
 *   under `#text` (every run of it, in order, concatenated);
 * - values are raw (references are replaced when a value is read), line ends (`\r\n`, `\r`) read as
 *   `\n`, CDATA sections read as their content with `&`, `<` and `>` escaped, comments and
 *   processing instructions are skipped.
 *
 * Element names fast-xml-parser refuses or renames (the members of `Object.prototype`, `prototype`)
 * and names that are not namespace-well-formed (two colons, nothing after the colon) are left to
 * it: the reader answers `undefined` and the caller parses the document with fast-xml-parser.
 * Every other well-formed document is read here; a differential test holds the two to the same trees.
 */
import type { XmlDocument, XmlElement } from './xml-tree.js';

interface OpenElement {
  readonly name: string;
  /** Attributes and child elements, `undefined` until the first one. */
  members: Record<string, unknown> | undefined;
  text: string;
}

/** Element names read only by fast-xml-parser (it refuses or renames them). */
const isReservedName = (name: string): boolean => name in Object.prototype || name === 'prototype';

const isSpaceCode = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;

/** `&`, `<` and `>` of CDATA content as references, so that a value read later is unescaped exactly once. */
const escapeCdata = (text: string): string =>
  /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;

/** The value an element closes with: its text when it has neither attributes nor children, else its members. */
function valueOf(element: OpenElement): unknown {
  const members = element.members;
  if (members === undefined) return element.text;
  if (element.text !== '') members['#text'] = element.text;
  return members;
}

/** Adds a child element's value to its parent, as an array from the second of a name on. */
function addChild(parent: OpenElement, name: string, value: unknown): void {
  let members = parent.members;
  if (members === undefined) {
    members = {};
    parent.members = members;
  } else if (Object.hasOwn(members, name)) {
    const existing = members[name];
    if (Array.isArray(existing)) existing.push(value);
    else members[name] = [existing, value];
    return;
  }
  members[name] = value;
}

/**
 * The tree of a well-formed XML document, as `parseXmlDocument` gives it; `undefined` for a document
 * that uses a name left to fast-xml-parser. The document must have passed `checkWellFormed`
 * (the reader relies on it and checks nothing itself).
 */
export function readXmlTree(text: string): XmlDocument | undefined {
  const s = text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
  const n = s.length;
  const stack: OpenElement[] = [];
  let result: XmlDocument | undefined;
  let open: OpenElement | undefined;
  let i = 0;

  /** Closes the innermost element: its value goes to its parent, or becomes the root. */
  const close = (element: OpenElement): void => {
    stack.pop();
    const value = valueOf(element);
    open = stack[stack.length - 1];
    if (open === undefined) result ??= { rootName: element.name, root: value as XmlElement | string };
    else addChild(open, element.name, value);
  };

  while (i < n) {
    const lt = s.indexOf('<', i);
    if (lt === -1) break;
    // Character data; outside the root it is white space only (checked well-formed) and dropped.
    if (lt > i && open !== undefined) open.text += s.slice(i, lt);
    const next = s.charCodeAt(lt + 1);
    if (next === 47 /* / */) {
      close(open as OpenElement);
      i = s.indexOf('>', lt + 2) + 1;
      continue;
    }
    if (next === 63 /* ? */) {
      i = s.indexOf('?>', lt + 2) + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (s.charCodeAt(lt + 2) === 45 /* - */) {
        i = s.indexOf('-->', lt + 4) + 3;
        continue;
      }
      const end = s.indexOf(']]>', lt + 9);
      if (open !== undefined) open.text += escapeCdata(s.slice(lt + 9, end));
      i = end + 3;
      continue;
    }
    // A start tag: its name up to white space, `>` or `/`, then its attributes.
    let j = lt + 1;
    let colon = -1;
    let colons = 0;
    for (;;) {
      const c = s.charCodeAt(j);
      if (c === 62 || c === 47 || isSpaceCode(c)) break;
      if (c === 58 /* : */) {
        colon = j;
        colons++;
      }
      j++;
    }
    const name = s.slice(colon === -1 ? lt + 1 : colon + 1, j);
    // Names that are not namespace-well-formed (`a:b:c`, `a:`) fast-xml-parser reads in its own ways.
    if (colons > 1 || name === '' || isReservedName(name)) return undefined;
    const element: OpenElement = { name, members: undefined, text: '' };
    stack.push(element);
    open = element;
    for (;;) {
      let c = s.charCodeAt(j);
      while (isSpaceCode(c)) c = s.charCodeAt(++j);
      if (c === 62 /* > */) {
        i = j + 1;
        break;
      }
      if (c === 47 /* / */) {
        close(element);
        i = j + 2;
        break;
      }
      const nameStart = j;
      while (c !== 61 /* = */ && !isSpaceCode(c)) c = s.charCodeAt(++j);
      const key = `@${s.slice(nameStart, j)}`;
      while (c !== 34 && c !== 39) c = s.charCodeAt(++j);
      const end = s.indexOf(c === 34 ? '"' : "'", j + 1);
      (element.members ??= {})[key] = s.slice(j + 1, end);
      j = end + 1;
    }
  }
  return result;
}

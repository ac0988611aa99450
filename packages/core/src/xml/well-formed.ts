/**
 * A single-pass well-formedness check (fast-xml-parser is lenient by design: mismatched tags, several
 * roots and stray text parse without complaint), which in the same pass builds the tree of the
 * document (`readWellFormed`; the tree is described in `xml-reader.ts`), or checks alone
 * (`checkWellFormed`). It accepts what an XML 1.0
 * parser accepts for the documents of this API and refuses, among others: DOCTYPE and any other
 * markup declaration (so no entity can be declared), references other than the five predefined
 * entities and character references, unbalanced or mismatched tags, several roots, text outside the
 * root, unquoted or repeated attributes, more than {@link MAX_ATTRIBUTES} attributes on an element
 * and nesting deeper than `maxDepth`. Its work is linear in the length of the document, with the tree or without.
 */

import { addChild, escapeCdata, isReservedName, type OpenElement, valueOf } from './xml-reader.js';
import type { XmlDocument, XmlElement } from './xml-tree.js';

/** The first problem found, or `undefined` for a well-formed document. */
export type WellFormedProblem =
  | 'doctype' | 'markup-declaration' | 'entity' | 'mismatched-tag' | 'unclosed-tag' | 'no-root' | 'several-roots'
  | 'text-outside-root' | 'bad-name' | 'bad-attribute' | 'duplicate-attribute' | 'too-deep' | 'unterminated'
  | 'bad-character' | 'bad-declaration' | 'bad-comment' | 'too-many-attributes';

/** Most attributes an element may carry (the API's elements carry a dozen at most). */
export const MAX_ATTRIBUTES = 256;

/**
 * Up to this many attributes, a new one is compared in place with those before it (no string is
 * made); past it, the names go into a set, so the check stays linear in the length of the element.
 */
const COMPARED_IN_PLACE = 8;

const isNameStart = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 0xb7;
const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;

/** The XML declaration: version 1.x, an optional encoding name and an optional standalone flag. */
export const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.[0-9]+\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/;

/** `true` when a code point may appear in an XML 1.0 document. */
export function isXmlChar(cp: number): boolean {
  return cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * Checks the references (`&...;`) of a run of character data or an attribute value, from its first
 * `&` (`amp`). Answers the problem, or the position of the next `&` after the run (-1 >>> 0 when there
 * is none), which the caller keeps so that the document is searched for `&` once.
 */
function checkReferences(s: string, amp: number, to: number): WellFormedProblem | number {
  while (amp < to) {
    const semi = s.indexOf(';', amp);
    if (semi === -1 || semi >= to || semi - amp > 12) return 'entity';
    const name = s.slice(amp + 1, semi);
    if (name !== 'lt' && name !== 'gt' && name !== 'amp' && name !== 'quot' && name !== 'apos') {
      const cp = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : name.startsWith('#') ? Number.parseInt(name.slice(1), 10) : Number.NaN;
      const digits = name.startsWith('#x') ? /^#x[0-9a-fA-F]+$/ : /^#[0-9]+$/;
      if (!digits.test(name) || !isXmlChar(cp)) return 'entity';
    }
    amp = s.indexOf('&', semi) >>> 0;
  }
  return amp;
}

/**
 * Checks that character data contains only XML characters (no control characters, no lone
 * surrogates): 0 when it does not, 1 when it does, 2 when it does and holds a CR (a line end the
 * tree reads as `\n`).
 */
function checkChars(s: string, from: number, to: number): 0 | 1 | 2 {
  let found: 1 | 2 = 1;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0xd800) continue;
    if (c < 0x20) {
      if (c === 13) found = 2;
      else if (c !== 9 && c !== 10) return 0;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c > 0xdbff) return 0;
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return 0;
      i++;
    } else if (c === 0xfffe || c === 0xffff) return 0;
  }
  return found;
}

/**
 * Whether the name `s[from, to)` holds only XML characters: its surrogates in pairs, no U+FFFE or
 * U+FFFF (the name predicates take every code unit from U+00C0 up). Names rarely leave the BMP's
 * lower part, so the characters are checked only when one of them is a surrogate or above.
 */
function namedInChars(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) >= 0xd800) return checkChars(s, from, to) !== 0;
  return true;
}

/** Whether `s[a, a + length)` and `s[b, b + length)` hold the same characters (compared in place: no substring is made). */
function sameRun(s: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

/**
 * Runs the check; `undefined` means the document is well-formed. Names are compared where they
 * stand in the text (open elements and the attributes of an element are kept as start and end
 * positions), so checking a document makes no string.
 */
export function checkWellFormed(s: string, maxDepth = 32): WellFormedProblem | undefined {
  return scan(s, maxDepth, undefined);
}

/** What {@link readWellFormed} reads besides the verdict. */
interface Reading {
  /** The tree, once the root element closes. */
  tree: XmlDocument | undefined;
  /** The `@name` key of each attribute name the caller knows, made once (see {@link readWellFormed}). */
  readonly keys: ReadonlyMap<string, string> | undefined;
  /** A name left to fast-xml-parser was met: no tree is built (see `xml-reader.ts`). */
  leftToParser: boolean;
}

/**
 * Checks a document exactly as {@link checkWellFormed} does and, in the same pass, builds the tree
 * described in `xml-reader.ts`: the problem, or the tree of a well-formed document (`undefined` when
 * it uses a name left to fast-xml-parser). `attributeKeys` maps attribute names a caller expects to
 * their keys in the tree (`ticketId` → `@ticketId`), so that those keys are not made anew for each
 * document; any other name gets its key made as it is read.
 */
export function readWellFormed(
  s: string,
  maxDepth = 32,
  attributeKeys?: ReadonlyMap<string, string>,
): { readonly problem: WellFormedProblem } | { readonly problem: undefined; readonly tree: XmlDocument | undefined } {
  const reading: Reading = { tree: undefined, keys: attributeKeys, leftToParser: false };
  const problem = scan(s, maxDepth, reading);
  if (problem !== undefined) return { problem };
  return { problem, tree: reading.leftToParser ? undefined : reading.tree };
}

const LINE_ENDS = /\r\n?/g;

/**
 * Ends the innermost element (already off `elements`): its value goes to its parent, or becomes the
 * root. Answers the element now innermost.
 */
function end(element: OpenElement, elements: readonly OpenElement[], reading: Reading): OpenElement | undefined {
  const value = valueOf(element);
  const parent = elements[elements.length - 1];
  if (parent !== undefined) addChild(parent, element.name, value);
  else reading.tree ??= { rootName: element.name, root: value as XmlElement | string };
  return parent;
}

/**
 * The one pass: the well-formedness check and, when `reading` is given, the tree. Character data
 * and attribute values are sliced from the text as written, their line ends (`\r\n`, `\r`) read
 * as `\n` (the character check tells which runs hold a CR).
 */
function scan(s: string, maxDepth: number, reading: Reading | undefined): WellFormedProblem | undefined {
  const n = s.length;
  let i = 0;
  if (s.startsWith('<?xml', 0) && !isNameChar(s.charCodeAt(5))) {
    const declaration = XML_DECLARATION.exec(s);
    if (!declaration) return 'bad-declaration';
    i = declaration[0].length;
  }
  // The open elements, as the start and end of each name: [start0, end0, start1, end1, ...].
  const stack: number[] = [];
  let rootSeen = false;
  // The attributes of the element being read, the same way.
  const attrs: number[] = [];
  // How many of `attrs` hold the element being read (the array itself is reused, never shortened).
  let attrsEnd = 0;
  // The names of the attributes of the element being read, once it has more than COMPARED_IN_PLACE
  // (made for the first such element only).
  let names: Set<string> | undefined;
  // Position of the next `]]>` (forbidden in character data); -1 >>> 0 is past any index.
  let cdataEnd = -1;
  // Position of the next `<` after an attribute value's opening quote (forbidden in the value), kept
  // between attributes: each is looked for once, not once per attribute of a long start tag.
  let nextLt = -1;
  // Position of the next `&` (the start of a reference), kept the same way.
  let nextAmp = -1;
  // The tree being built: the open elements (in step with `stack`) and the innermost one.
  let building = reading !== undefined;
  const elements: OpenElement[] = [];
  let open: OpenElement | undefined;
  while (i < n) {
    const lt = s.indexOf('<', i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) {
      if (stack.length === 0) {
        for (let j = i; j < textEnd; j++) if (!isSpace(s.charCodeAt(j))) return 'text-outside-root';
      } else {
        const chars = checkChars(s, i, textEnd);
        if (chars === 0) return 'bad-character';
        if (cdataEnd < i) cdataEnd = s.indexOf(']]>', i) >>> 0;
        if (cdataEnd < textEnd) return 'bad-character';
        if (nextAmp < i) nextAmp = s.indexOf('&', i) >>> 0;
        if (nextAmp < textEnd) {
          const next = checkReferences(s, nextAmp, textEnd);
          if (typeof next === 'string') return next;
          nextAmp = next;
        }
        if (building) {
          const text = s.slice(i, textEnd);
          (open as OpenElement).text += chars === 2 ? text.replace(LINE_ENDS, '\n') : text;
        }
      }
    }
    if (lt === -1) break;
    const c = s.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      const gt = s.indexOf('>', lt + 2);
      if (gt === -1) return 'unterminated';
      let nameEnd = gt;
      while (nameEnd > lt + 2 && isSpace(s.charCodeAt(nameEnd - 1))) nameEnd--;
      const openEnd = stack.pop();
      const openStart = stack.pop();
      if (openStart === undefined || openEnd === undefined) return 'mismatched-tag';
      const length = nameEnd - lt - 2;
      if (openEnd - openStart !== length || !sameRun(s, openStart, lt + 2, length)) return 'mismatched-tag';
      if (building) open = end(elements.pop() as OpenElement, elements, reading as Reading);
      i = gt + 1;
    } else if (c === 33 /* ! */) {
      if (s.startsWith('<!--', lt)) {
        // A comment holds no "--" and does not end in "-" (so "--->" is refused too).
        const close = s.indexOf('--', lt + 4);
        if (close === -1 || s.charCodeAt(close + 2) !== 62) return close === -1 ? 'unterminated' : 'bad-comment';
        if (!checkChars(s, lt + 4, close)) return 'bad-character';
        i = close + 3;
      } else if (s.startsWith('<![CDATA[', lt)) {
        if (stack.length === 0) return 'text-outside-root';
        const close = s.indexOf(']]>', lt + 9);
        if (close === -1) return 'unterminated';
        const chars = checkChars(s, lt + 9, close);
        if (chars === 0) return 'bad-character';
        if (building) {
          const text = s.slice(lt + 9, close);
          (open as OpenElement).text += escapeCdata(chars === 2 ? text.replace(LINE_ENDS, '\n') : text);
        }
        i = close + 3;
      } else return s.startsWith('<!DOCTYPE', lt) ? 'doctype' : 'markup-declaration';
    } else if (c === 63 /* ? */) {
      // A processing instruction: a target name (never "xml" in any case), then data after white space.
      let j = lt + 2;
      if (!isNameStart(s.charCodeAt(j))) return 'bad-name';
      while (j < n && isNameChar(s.charCodeAt(j))) j++;
      if (!namedInChars(s, lt + 2, j)) return 'bad-name';
      if (j - lt - 2 === 3 && s.slice(lt + 2, j).toLowerCase() === 'xml') return 'bad-name';
      const close = s.indexOf('?>', j);
      if (close === -1) return 'unterminated';
      if (close > j && !isSpace(s.charCodeAt(j))) return 'bad-name';
      if (!checkChars(s, j, close)) return 'bad-character';
      i = close + 2;
    } else {
      if (!isNameStart(c)) return 'bad-name';
      let j = lt + 2;
      // The last colon of the name and how many it holds (for the tree's local name).
      let colon = c === 58 /* : */ ? lt + 1 : -1;
      let colons = c === 58 ? 1 : 0;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (!isNameChar(d)) break;
        if (d === 58 /* : */) {
          colon = j;
          colons++;
        }
        j++;
      }
      const nameEnd = j;
      if (!namedInChars(s, lt + 1, nameEnd)) return 'bad-name';
      if (stack.length === 0 && rootSeen) return 'several-roots';
      let element: OpenElement | undefined;
      if (building) {
        const name = s.slice(colon === -1 ? lt + 1 : colon + 1, nameEnd);
        // Names that are not namespace-well-formed (`a:b:c`, `a:`) fast-xml-parser reads in its own ways.
        if (colons > 1 || name === '' || isReservedName(name)) {
          building = false;
          (reading as Reading).leftToParser = true;
        } else element = { name, members: undefined, text: '' };
      }
      attrsEnd = 0;
      names?.clear();
      let closed = false;
      for (;;) {
        const before = j;
        while (j < n && isSpace(s.charCodeAt(j))) j++;
        if (j >= n) return 'unterminated';
        const d = s.charCodeAt(j);
        if (d === 62 /* > */) {
          j++;
          break;
        }
        if (d === 47 /* / */) {
          if (s.charCodeAt(j + 1) !== 62) return 'bad-attribute';
          j += 2;
          closed = true;
          break;
        }
        if (j === before || !isNameStart(d)) return 'bad-attribute';
        const attrStart = j;
        while (j < n && isNameChar(s.charCodeAt(j))) j++;
        if (!namedInChars(s, attrStart, j)) return 'bad-attribute';
        const length = j - attrStart;
        let attrName: string | undefined;
        if (attrsEnd < 2 * COMPARED_IN_PLACE) {
          for (let k = 0; k < attrsEnd; k += 2) {
            if ((attrs[k + 1] as number) - (attrs[k] as number) === length && sameRun(s, attrs[k] as number, attrStart, length)) return 'duplicate-attribute';
          }
          attrs[attrsEnd++] = attrStart;
          attrs[attrsEnd++] = j;
        } else {
          names ??= new Set<string>();
          if (attrsEnd === 2 * COMPARED_IN_PLACE) {
            for (let k = 0; k < attrsEnd; k += 2) names.add(s.slice(attrs[k] as number, attrs[k + 1] as number));
            attrsEnd += 2;
          }
          if (names.size >= MAX_ATTRIBUTES) return 'too-many-attributes';
          attrName = s.slice(attrStart, j);
          if (names.has(attrName)) return 'duplicate-attribute';
          names.add(attrName);
        }
        while (j < n && isSpace(s.charCodeAt(j))) j++;
        if (s.charCodeAt(j) !== 61 /* = */) return 'bad-attribute';
        j++;
        while (j < n && isSpace(s.charCodeAt(j))) j++;
        const q = s.charCodeAt(j);
        if (q !== 34 && q !== 39) return 'bad-attribute';
        const close = s.indexOf(q === 34 ? '"' : "'", j + 1);
        if (close === -1) return 'unterminated';
        if (nextLt <= j) nextLt = s.indexOf('<', j + 1) >>> 0;
        if (nextLt < close) return 'bad-attribute';
        const chars = checkChars(s, j + 1, close);
        if (chars === 0) return 'bad-character';
        if (nextAmp <= j) nextAmp = s.indexOf('&', j + 1) >>> 0;
        if (nextAmp < close) {
          const next = checkReferences(s, nextAmp, close);
          if (typeof next === 'string') return next;
          nextAmp = next;
        }
        if (element !== undefined) {
          const value = s.slice(j + 1, close);
          const name = attrName ?? s.slice(attrStart, attrStart + length);
          (element.members ??= {})[(reading as Reading).keys?.get(name) ?? `@${name}`] = chars === 2 ? value.replace(LINE_ENDS, '\n') : value;
        }
        j = close + 1;
      }
      if (closed) {
        if (stack.length === 0) rootSeen = true;
        if (element !== undefined) open = end(element, elements, reading as Reading);
      } else {
        if (element !== undefined) {
          elements.push(element);
          open = element;
        }
        stack.push(lt + 1, nameEnd);
        if (stack.length > 2 * maxDepth) return 'too-deep';
        rootSeen = true;
      }
      i = j;
    }
  }
  if (stack.length > 0) return 'unclosed-tag';
  return rootSeen ? undefined : 'no-root';
}

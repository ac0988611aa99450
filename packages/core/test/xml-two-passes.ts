/**
 * The reading of XML bodies before it was one pass, kept as the oracle of the tests: the
 * well-formedness check (`checkWellFormed`), then a second pass over the checked text that builds
 * the tree (`readXmlTree`). `readWellFormed` must give the same verdict and the same tree.
 */
import { checkWellFormed, type WellFormedProblem } from '../src/xml/well-formed.js';
import { addChild, escapeCdata, isReservedName, type OpenElement, valueOf } from '../src/xml/xml-reader.js';
import type { XmlDocument, XmlElement } from '../src/xml/xml-tree.js';

const isSpaceCode = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;

/** The verdict and tree of the two passes, in the shape `readWellFormed` answers. */
export function readTwoPasses(text: string, maxDepth = 32): { readonly problem: WellFormedProblem } | { readonly problem: undefined; readonly tree: XmlDocument | undefined } {
  const problem = checkWellFormed(text, maxDepth);
  if (problem !== undefined) return { problem };
  return { problem, tree: readXmlTree(text) };
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

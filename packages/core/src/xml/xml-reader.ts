/**
 * The tree of every XML decoder, built in the same pass as the well-formedness check (`readWellFormed`
 * in `well-formed.ts`: no DOCTYPE, no entity declarations, balanced tags, valid references, bounded
 * depth): the tree fast-xml-parser builds for a document with the settings of `parseXmlDocument`:
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
 * Every other well-formed document is read in that pass; a differential test holds the two to the same trees.
 */
export interface OpenElement {
  readonly name: string;
  /** Attributes and child elements, `undefined` until the first one. */
  members: Record<string, unknown> | undefined;
  text: string;
}

/** Element names read only by fast-xml-parser (it refuses or renames them). */
export function isReservedName(name: string): boolean {
  // The standard members of Object.prototype, and `prototype`, all begin with one of `_chiptv`:
  // other names are answered without a look-up.
  const c = name.charCodeAt(0);
  if (c !== 95 && c !== 99 && c !== 104 && c !== 105 && c !== 112 && c !== 116 && c !== 118) return false;
  return name in Object.prototype || name === 'prototype';
}

/** `&`, `<` and `>` of CDATA content as references, so that a value read later is unescaped exactly once. */
export const escapeCdata = (text: string): string =>
  /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;

/** The value an element closes with: its text when it has neither attributes nor children, else its members. */
export function valueOf(element: OpenElement): unknown {
  const members = element.members;
  if (members === undefined) return element.text;
  if (element.text !== '') members['#text'] = element.text;
  return members;
}

/** Adds a child element's value to its parent, as an array from the second of a name on. */
export function addChild(parent: OpenElement, name: string, value: unknown): void {
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

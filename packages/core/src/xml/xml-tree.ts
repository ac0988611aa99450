/** The tree of a parsed XML document, as every XML decoder reads it. */

/**
 * An element as decoded: attributes under `@name`, children under their local name (an array when
 * repeated), character data under `#text`. Element prefixes are removed, so `<mt:status>` and
 * `<status xmlns="...">` read the same; attribute names are kept as written. An element with neither attributes nor children is a string.
 */
export type XmlElement = { readonly [key: string]: XmlValue };
/** A decoded element, its text, or the repetitions of an element. */
export type XmlValue = string | XmlElement | readonly XmlValue[];

/** A parsed document: the local name of its root element and the root. */
export interface XmlDocument {
  readonly rootName: string;
  readonly root: XmlElement | string;
}

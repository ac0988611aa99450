import { bodyToText, type BodyInput } from '../body/body-text.js';
import { parseStrictJson } from '../json/strict-json.js';
import { err, ok, type Result } from '../result.js';
import { readXmlDocument, type XmlDocument } from '../xml/xml-document.js';

/** The two wire formats of the API. */
export type WireFormat = 'json' | 'xml';

/** The default largest body a decoder reads, in bytes (checked before parsing). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Options shared by every decoder. */
export interface DecodeOptions {
  /** Largest body accepted, in UTF-8 bytes, checked before parsing (default 64 KiB). */
  readonly maxBytes?: number;
}

/** Options shared by every encoder. */
export interface EncodeOptions {
  /**
   * XML only: the namespace URI written on the root element. Defaults to the URI the real service
   * uses for the resource; `null` writes no namespace.
   */
  readonly namespace?: string | null;
}

/** Why a body could not be read as a document of its format, before any resource rule applies. */
export type BodyProblem = 'too-large' | 'invalid-encoding' | 'syntax' | 'duplicate-member' | 'too-deep' | 'not-an-object';

/** A body read in its format: a parsed JSON object, or an XML document. */
export type ReadBody =
  | { readonly format: 'json'; readonly json: Record<string, unknown> }
  | { readonly format: 'xml'; readonly xml: XmlDocument };

/**
 * Reads a body of a given format: size limit first, then UTF-8, then a strict parse (JSON: no
 * repeated member; XML: well-formed, no DOCTYPE, no entities). A JSON body must be an object.
 */
export function readBody(body: BodyInput, format: WireFormat, { maxBytes = DEFAULT_MAX_BODY_BYTES }: DecodeOptions = {}): Result<ReadBody, BodyProblem> {
  return readBodyOf(body, format, maxBytes, undefined);
}

/**
 * {@link readBody} for a decoder that knows the XML attribute names it reads (`attributeKeys`: each
 * name to its `@name` key in the tree, see `readWellFormed`); the result is the same.
 * @internal
 */
export function readBodyOf(body: BodyInput, format: WireFormat, maxBytes: number, attributeKeys: ReadonlyMap<string, string> | undefined): Result<ReadBody, BodyProblem> {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  const text = bodyToText(body, maxBytes);
  if (!text.ok) return err(text.error === 'too-large' ? 'too-large' : 'invalid-encoding');
  if (format === 'json') {
    const parsed = parseStrictJson(text.value);
    if (!parsed.ok) return err(parsed.error === 'syntax' ? 'syntax' : parsed.error);
    const value = parsed.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return err('not-an-object');
    return ok({ format, json: value as Record<string, unknown> });
  }
  const doc = readXmlDocument(text.value, attributeKeys);
  if (!doc.ok) return err(doc.error === 'too-deep' ? 'too-deep' : 'syntax');
  return ok({ format, xml: doc.value });
}

/**
 * What every builder returns, and the wire forms the service really sends beyond what core's
 * encoders write: the other namespace URI, a prefixed namespace, `xs:dateTime` offsets.
 */
import { contentTypeFor, XML_NAMESPACES, type WireFormat } from '@smsv4/core';
import { formatDateTime, type TimestampForm } from './timestamps.js';

/** The resources the builders make (the root element or root member of each). */
export type PayloadResource = 'deliveryReceipt' | 'mobileOriginate' | 'mtStatus' | 'error' | 'preview' | 'mobileTerminate';

/** A built payload: a body ready to post or to answer with, its format and the value it carries. */
export interface Payload<T = unknown> {
  /** The resource (root element / root member). */
  readonly resource: PayloadResource;
  readonly format: WireFormat;
  /** `application/xml; charset=UTF-8` or `application/json; charset=UTF-8`. */
  readonly contentType: string;
  /** The document, as text. */
  readonly body: string;
  /**
   * The value given to core's encoder (timestamps in UTC with milliseconds; the body may write them
   * with an offset or other fraction digits).
   */
  readonly value: T;
}

/** Which namespace URI an XML document declares. */
export type NamespaceChoice = 'http' | 'https' | 'none';

/** Wire options shared by every builder. */
export interface WireOptions {
  /** `xml` (default: callbacks and status are XML unless the account sends JSON) or `json`. */
  readonly format?: WireFormat;
  /**
   * XML: the namespace URI on the root: `http` (default, `http://sms.openmarket.com/v4/...`),
   * `https` (the form the public docs also print) or `none`.
   */
  readonly namespace?: NamespaceChoice;
  /** XML: a namespace prefix for every element (`mt` gives `<mt:deliveryReceipt xmlns:mt="...">`). */
  readonly prefix?: string;
  /** How timestamps are written (offset and fraction digits); UTC with milliseconds by default. */
  readonly timestamps?: TimestampForm;
  /**
   * The spelling of the country code member of `destination`: `alpha2Code` (default, as JSON and
   * the schema have it) or `alpha2code` (as the spec prints it for receipts and lookups).
   */
  readonly alpha2Spelling?: 'alpha2Code' | 'alpha2code';
}

/** The namespace URI of a choice, for a resource whose `http:` URI is `uri`. */
export function namespaceUri(uri: string, choice: NamespaceChoice = 'http'): string | null {
  if (choice === 'none') return null;
  if (choice === 'https') return uri.replace(/^http:/, 'https:');
  if (choice === 'http') return uri;
  throw new TypeError(`namespace must be 'http', 'https' or 'none', got ${JSON.stringify(choice)}`);
}

/** The `http:` namespace URI of each resource. */
export const RESOURCE_NAMESPACES: Readonly<Record<PayloadResource, string>> = {
  deliveryReceipt: XML_NAMESPACES.mt,
  mtStatus: XML_NAMESPACES.mt,
  error: XML_NAMESPACES.mt,
  mobileTerminate: XML_NAMESPACES.mt,
  mobileOriginate: XML_NAMESPACES.mo,
  preview: XML_NAMESPACES.preview,
};

const TIMESTAMP_MEMBERS = '(deliveryDate|submittedDate)';

/**
 * Rewrites the timestamps of an encoded document in another form. Only the values of the
 * timestamp members are touched (`deliveryDate="…"` in XML, `"deliveryDate":"…"` in JSON), so free
 * text that happens to hold a date stays as it is.
 */
export function rewriteTimestamps(body: string, format: WireFormat, form: TimestampForm | undefined): string {
  if (form === undefined) return body;
  formatDateTime(0, form); // checks the options once, even for a document without timestamps
  const pattern =
    format === 'xml'
      ? new RegExp(`(\\s${TIMESTAMP_MEMBERS}=")([^"]+)(")`, 'g')
      : new RegExp(`("${TIMESTAMP_MEMBERS}":")([^"]+)(")`, 'g');
  return body.replace(pattern, (_all, before: string, _name: string, text: string, after: string) => `${before}${formatDateTime(text, form)}${after}`);
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

/**
 * Puts every element of an encoded XML document in a prefixed namespace: `<a xmlns="u"><b/></a>`
 * becomes `<p:a xmlns:p="u"><p:b/></p:a>`. Attributes stay unqualified, as the service writes them.
 * Markup characters in values are always escaped by core's encoders, so every `<` starts a tag.
 */
export function prefixElements(xml: string, prefix: string): string {
  if (!XML_NAME.test(prefix) || prefix.toLowerCase().startsWith('xml')) throw new TypeError(`prefix must be an XML name not starting with "xml", got ${JSON.stringify(prefix)}`);
  if (!/\sxmlns="/.test(xml)) throw new TypeError('a prefix needs a namespace: namespace "none" cannot be prefixed');
  return xml.replace(/<(\/?)([A-Za-z_][A-Za-z0-9._-]*)(?=[\s/>])/g, `<$1${prefix}:$2`).replace(/\sxmlns="/, ` xmlns:${prefix}="`);
}

/** A payload of a body, with the wire forms of the options applied to the encoder's output. */
export function finishPayload<T>(resource: PayloadResource, value: T, encoded: string, { format = 'xml', prefix, timestamps, alpha2Spelling = 'alpha2Code' }: WireOptions): Payload<T> {
  let body = rewriteTimestamps(encoded, format, timestamps);
  if (alpha2Spelling === 'alpha2code') body = format === 'xml' ? body.replaceAll(' alpha2Code="', ' alpha2code="') : body.replaceAll('"alpha2Code":', '"alpha2code":');
  else if (alpha2Spelling !== 'alpha2Code') throw new TypeError(`alpha2Spelling must be 'alpha2Code' or 'alpha2code', got ${JSON.stringify(alpha2Spelling)}`);
  if (format === 'xml' && prefix !== undefined) body = prefixElements(body, prefix);
  return { resource, format, contentType: contentTypeFor(format), body, value };
}

/** The encoder options of a wire choice. */
export function encodeOptions(resource: PayloadResource, { namespace }: WireOptions): { namespace: string | null } {
  return { namespace: namespaceUri(RESOURCE_NAMESPACES[resource], namespace) };
}

/** Checks the format option (`TypeError` for anything but `json` and `xml`). */
export function formatOf({ format = 'xml' }: WireOptions): WireFormat {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', got ${String(format)}`);
  return format;
}

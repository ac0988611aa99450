/**
 * The MT request (`mobileTerminate`) codec, JSON and XML.
 *
 * JSON: `{"mobileTerminate": {...}}`. XML: root `<mobileTerminate interaction promotional>` with the
 * children `<options programId note1 note2 flash/>`, `<destination address mobileOperatorId/>`,
 * `<source address ton/>`, `<message type charset udh url validityPeriod mlc><content>…</content></message>`
 * and `<delivery receiptRequested url/>`, in any order, in any namespace or none.
 */
import { bodyToText } from '../body/body-text.js';
import { DEFAULT_MAX_BODY_BYTES, readBody, type DecodeOptions, type EncodeOptions, type WireFormat } from '../codec/wire-format.js';
import type { MtInvalidRule } from '../errors/catalogue.js';
import { isJsonObject, own } from '../json/strict-json.js';
import { err, ok, type Result } from '../result.js';
import { XML_NAMESPACES, xmlAttribute, xmlChildren, xmlText, type XmlDocument, type XmlValue } from '../xml/xml-document.js';
import { readMtRequestJson } from './read-json.js';
import type { MtRequest } from './schema.js';
import { checkMtRequest, mtRequestError, type MtRequestError } from './validate.js';
import { escapeXml } from '../xml/xml-escape.js';

/** The root element of the XML form and the root member of the JSON form. */
const ROOT = 'mobileTerminate';
/** How the XML encoder names itself and what it advises for text XML cannot carry. */
const ENCODER = 'encodeMtRequest';
const ADVICE = 'send such text as hexEncodedText content, or encode the request as JSON';

/**
 * Decodes and validates an MT request body (what a client sends to `POST /sms/v4/mt`).
 *
 * The body's size is checked first (`maxBytes`, default 64 KiB), then its UTF-8, then its syntax
 * (JSON: no repeated member anywhere; XML: well-formed, no DOCTYPE or entity declarations), then
 * every 540 rule in a fixed order. The error carries code `'540'`, the spec's description and the
 * rule. Booleans may be JSON Booleans or `"true"`/`"false"`; `mobileOperatorId`, `ton` and
 * `validityPeriod` may be JSON numbers or strings of digits; the value is normalised. Unknown
 * members, attributes and elements are dropped. Never throws on any body.
 * @throws TypeError when `format` is not `'json'` or `'xml'`.
 */
export function decodeMtRequest(body: string | Uint8Array, format: WireFormat, options: DecodeOptions = {}): Result<MtRequest, MtRequestError> {
  if (format === 'json') {
    // One walk for the common case (see read-json.ts); anything else takes the general path below.
    const { maxBytes = DEFAULT_MAX_BODY_BYTES } = options;
    const text = bodyToText(body, maxBytes);
    const fast = text.ok ? readMtRequestJson(text.value) : undefined;
    if (fast !== undefined) return ok(fast);
  }
  const read = readBody(body, format, options);
  const invalidBody: MtInvalidRule = format === 'json' ? 'invalidJson' : 'invalidXml';
  if (!read.ok) return err(mtRequestError(invalidBody));
  let mt: unknown;
  if (read.value.format === 'json') {
    mt = own(read.value.json, ROOT);
    if (!isJsonObject(mt)) return err(mtRequestError(invalidBody));
  } else {
    mt = xmlToWire(read.value.xml);
    if (mt === undefined) return err(mtRequestError(invalidBody));
  }
  const result = checkMtRequest(mt);
  return result.ok ? result : err(mtRequestError(result.error));
}

/** Marks a member whose element is repeated where one is expected. */
const REPEATED = null;

/** The one child element of a name: `undefined` when absent, {@link REPEATED} when repeated. */
function single(parent: XmlValue, name: string): XmlValue | undefined | typeof REPEATED {
  const children = xmlChildren(parent, name);
  if (children.length > 1) return REPEATED;
  return children[0];
}

/**
 * The text of `<content>`; `null` (not a string: "content value is invalid") when the element holds
 * child elements, which would otherwise be dropped silently.
 */
function contentText(element: XmlValue): string | null | undefined {
  if (typeof element === 'object' && element !== null && !Array.isArray(element)) {
    for (const key of Object.keys(element)) if (key !== '#text' && key.charCodeAt(0) !== 64 /* @ */) return null;
  }
  return xmlText(element);
}

/**
 * Maps the XML form to the JSON form's members (attribute values as strings), or `undefined` for a
 * document that is not an MT request: another root element, or a repeated element where one is
 * expected (`options`, `destination`, `source`, `message`, `content`, `delivery`).
 */
function xmlToWire(doc: XmlDocument): Record<string, unknown> | undefined {
  if (doc.rootName !== ROOT) return undefined;
  const root = doc.root;
  const options = single(root, 'options');
  const destination = single(root, 'destination');
  const source = single(root, 'source');
  const message = single(root, 'message');
  const delivery = single(root, 'delivery');
  if (options === REPEATED || destination === REPEATED || source === REPEATED || message === REPEATED || delivery === REPEATED) return undefined;
  let content: unknown;
  if (message !== undefined) {
    const element = single(message, 'content');
    if (element === REPEATED) return undefined;
    content = element === undefined ? undefined : contentText(element);
  }
  return {
    interaction: xmlAttribute(root, 'interaction'),
    promotional: xmlAttribute(root, 'promotional'),
    options:
      options === undefined
        ? undefined
        : {
            programId: xmlAttribute(options, 'programId'),
            note1: xmlAttribute(options, 'note1'),
            note2: xmlAttribute(options, 'note2'),
            flash: xmlAttribute(options, 'flash'),
          },
    destination:
      destination === undefined
        ? undefined
        : { address: xmlAttribute(destination, 'address'), mobileOperatorId: xmlAttribute(destination, 'mobileOperatorId') },
    source: source === undefined ? undefined : { address: xmlAttribute(source, 'address'), ton: xmlAttribute(source, 'ton') },
    message:
      message === undefined
        ? undefined
        : {
            type: xmlAttribute(message, 'type'),
            content,
            charset: xmlAttribute(message, 'charset'),
            validityPeriod: xmlAttribute(message, 'validityPeriod'),
            url: xmlAttribute(message, 'url'),
            mlc: xmlAttribute(message, 'mlc'),
            udh: xmlAttribute(message, 'udh'),
          },
    delivery:
      delivery === undefined ? undefined : { receiptRequested: xmlAttribute(delivery, 'receiptRequested'), url: xmlAttribute(delivery, 'url') },
  };
}

/**
 * Encodes an MT request as a body for `POST /sms/v4/mt`. JSON: `{"mobileTerminate": {...}}` with
 * JSON Booleans and numbers. XML: an XML declaration and `<mobileTerminate>` in the namespace of
 * `options.namespace` (default `http://sms.openmarket.com/v4/mt`; `null` for none), scalar members
 * as attributes and the text in `<message><content>`. Members appear in the spec's order; members
 * the spec does not define are not written. The value is not validated (see `validateMtRequest`).
 * @throws TypeError when `format` is not `'json'` or `'xml'`, when `value` is not an object, or,
 *   for XML, when a string holds a character XML 1.0 cannot carry (a C0 control other than tab,
 *   line feed and carriage return, U+FFFE, U+FFFF or a lone surrogate): send such text as
 *   `hexEncodedText`, or use JSON.
 */
export function encodeMtRequest(value: MtRequest, format: WireFormat, { namespace = XML_NAMESPACES.mt }: EncodeOptions = {}): string {
  if (format !== 'json' && format !== 'xml') throw new TypeError(`encodeMtRequest: format must be 'json' or 'xml', got ${String(format)}`);
  if (!isJsonObject(value)) throw new TypeError('encodeMtRequest: value must be an MT request object');
  if (format === 'json') return JSON.stringify({ [ROOT]: toJsonMembers(value) });
  if (namespace !== null && typeof namespace !== 'string') throw new TypeError('encodeMtRequest: namespace must be a string or null');
  return toXml(value, namespace);
}

/** The members of the JSON form in the spec's order, without members the spec does not define. */
function toJsonMembers(v: MtRequest): Record<string, unknown> {
  const { options: o, destination: d, source: s, message: m, delivery: dl } = v;
  return {
    interaction: v.interaction,
    promotional: v.promotional,
    options: o && { programId: o.programId, note1: o.note1, note2: o.note2, flash: o.flash },
    destination: d && { address: d.address, mobileOperatorId: d.mobileOperatorId },
    source: s && { address: s.address, ton: s.ton },
    message: m && {
      type: m.type,
      content: m.content,
      charset: m.charset,
      validityPeriod: m.validityPeriod,
      url: m.url,
      mlc: m.mlc,
      udh: m.udh,
    },
    delivery: dl && { receiptRequested: dl.receiptRequested, url: dl.url },
  };
}

/** ` name="value"`, or nothing for an absent member. */
function attr(name: string, value: string | number | boolean | undefined, member: string): string {
  return value === undefined ? '' : ` ${name}="${escapeXml(String(value), { encoder: ENCODER, member, advice: ADVICE }, true)}"`;
}

function toXml(v: MtRequest, namespace: string | null): string {
  const { options: o, destination: d, source: s, message: m, delivery: dl } = v;
  let x = `<?xml version="1.0" encoding="UTF-8"?><${ROOT}`;
  if (namespace !== null) x += attr('xmlns', namespace, 'namespace');
  x += `${attr('interaction', v.interaction, 'interaction')}${attr('promotional', v.promotional, 'promotional')}>`;
  if (o) {
    x += `<options${attr('programId', o.programId, 'options.programId')}${attr('note1', o.note1, 'options.note1')}`;
    x += `${attr('note2', o.note2, 'options.note2')}${attr('flash', o.flash, 'options.flash')}/>`;
  }
  if (d) x += `<destination${attr('address', d.address, 'destination.address')}${attr('mobileOperatorId', d.mobileOperatorId, 'destination.mobileOperatorId')}/>`;
  if (s) x += `<source${attr('address', s.address, 'source.address')}${attr('ton', s.ton, 'source.ton')}/>`;
  if (m) {
    x += `<message${attr('type', m.type, 'message.type')}${attr('charset', m.charset, 'message.charset')}${attr('udh', m.udh, 'message.udh')}`;
    x += `${attr('url', m.url, 'message.url')}${attr('validityPeriod', m.validityPeriod, 'message.validityPeriod')}${attr('mlc', m.mlc, 'message.mlc')}>`;
    if (m.content !== undefined) x += `<content>${escapeXml(String(m.content), { encoder: ENCODER, member: 'message.content', advice: ADVICE }, false)}</content>`;
    x += '</message>';
  }
  if (dl) x += `<delivery${attr('receiptRequested', dl.receiptRequested, 'delivery.receiptRequested')}${attr('url', dl.url, 'delivery.url')}/>`;
  return `${x}</${ROOT}>`;
}

// For any valid callback carrying any lexical form of any instant, the callback decoder succeeds,
// keeps the text as sent and gives the instant the form denotes; what it decoded encodes again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampFormArb, type GeneratedForm } from '../../test/timestamp-forms.js';
import { encodeDeliveryReceipt, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { encodeMobileOriginate, type MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { bytesToHex } from '../text/hex.js';
import { buildUserDataHeader } from '../text/udh.js';
import { decodeCallback } from './decode-callback.js';
import { runs } from '../../test/property-runs.js';

const digits = fc.stringMatching(/^[0-9]{5,15}$/);
/**
 * 1 to `most` bytes of at most `max` each, as upper-case hex (what `/^(?:[0-9A-F]{2}){1,n}$/` matches
 * when `max` is 0xff): built from bytes, as fast-check's pattern arbitrary unmaps every value it
 * meets inside `oneof` and `option`, token by token.
 */
const hexBytes = (max: number, most: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max }), { minLength: 1, maxLength: most }).map((bytes) => bytesToHex(Uint8Array.from(bytes)));
const ticketId = fc.stringMatching(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5,6}$/);
const text = fc.string({ unit: fc.constantFrom(...'abc XYZ 0123 &<>"\'é€👋'), maxLength: 40 });
const namespace = fc.constantFrom<string | null | undefined>(undefined, null, 'https://sms.openmarket.com/v4/mt', 'https://sms.openmarket.com/v4/mo');

const receiptArb = (form: GeneratedForm): fc.Arbitrary<DeliveryReceipt> =>
  fc
    .record(
      {
        ticketId,
        code: fc.constantFrom(0, 4, 811, 341),
        description: text,
        segment: fc.integer({ min: 1, max: 4 }).chain((total) => fc.tuple(fc.integer({ min: 1, max: total }), fc.constant(total))),
        destination: fc.record({ address: digits, mobileOperatorId: fc.nat({ max: 999 }), alpha2Code: fc.constantFrom('US', 'GB') }, { requiredKeys: ['address'], noNullPrototype: true }),
        source: fc.record({ address: digits, ton: fc.constantFrom(1, 3, 5) }, { requiredKeys: [], noNullPrototype: true }),
      },
      { requiredKeys: ['ticketId', 'code'], noNullPrototype: true },
    )
    .map(({ ticketId: id, code, description, segment, destination, source }) => ({
      type: 'final' as const,
      mtStatus: {
        ticketId: id,
        deliveryDate: form.text,
        code,
        ...(description === undefined ? {} : { description }),
        ...(segment === undefined ? {} : { totalSegments: segment[1], segmentNumber: segment[0] }),
      },
      ...(destination === undefined ? {} : { destination }),
      ...(source === undefined ? {} : { source }),
    }));

const inboundArb = (form: GeneratedForm): fc.Arbitrary<MobileOriginate> =>
  fc
    .record({
      ticketId,
      source: fc.record({ ton: fc.constantFrom(1, 3), address: digits, mobileOperatorId: fc.nat({ max: 999 }) }, { requiredKeys: ['address'], noNullPrototype: true }),
      destination: fc.record({ ton: fc.constantFrom(1, 3), address: digits }, { requiredKeys: ['address'], noNullPrototype: true }),
      message: fc.oneof(
        text.map((content) => ({ type: 'text', content: content === '' ? 'x' : content })),
        fc
          .record({ reference: fc.integer({ min: 0, max: 255 }), total: fc.integer({ min: 2, max: 4 }), payload: hexBytes(0x7f, 20) })
          .chain(({ reference, total, payload }) =>
            fc.integer({ min: 1, max: total }).map((sequence) => ({
              type: 'hexEncodedText',
              udh: true,
              content: bytesToHex(buildUserDataHeader({ concatenation: { reference, total, sequence } })) + payload,
            })),
          ),
      ),
    }, { noNullPrototype: true })
    .map((message) => ({ submittedDate: form.text, ...message }));

describe('callbacks with any xs:dateTime', () => {
  it('a receipt decodes, keeps the text, gives the instant, and encodes again', () => {
    fc.assert(
      fc.property(
        timestampFormArb.chain((form) => fc.tuple(fc.constant(form), receiptArb(form))),
        fc.constantFrom('json', 'xml' as const),
        namespace,
        ([form, receipt], format, ns) => {
          const decoded = decodeCallback(encodeDeliveryReceipt(receipt, format, ns === undefined ? {} : { namespace: ns }), format);
          if (!decoded.ok || decoded.value.kind !== 'delivery-receipt') throw new Error(`not decoded: ${JSON.stringify(decoded)}`);
          expect(decoded.value.receipt).toStrictEqual(receipt);
          expect(decoded.value.receipt.mtStatus.deliveryDate).toBe(form.text);
          expect(decoded.value.deliveryInstant).toBe(form.expected);
          const again = decodeCallback(encodeDeliveryReceipt(decoded.value.receipt, format), format);
          expect(again.ok && again.value.kind === 'delivery-receipt' && again.value.receipt).toStrictEqual(receipt);
        },
      ),
      { numRuns: runs(400) },
    );
  });

  it('an inbound message (whole or one part) decodes, keeps the text, gives the instant, and encodes again', () => {
    fc.assert(
      fc.property(
        timestampFormArb.chain((form) => fc.tuple(fc.constant(form), inboundArb(form))),
        fc.constantFrom('json', 'xml' as const),
        namespace,
        ([form, message], format, ns) => {
          const decoded = decodeCallback(encodeMobileOriginate(message, format, ns === undefined ? {} : { namespace: ns }), format);
          if (!decoded.ok || decoded.value.kind !== 'inbound-message') throw new Error(`not decoded: ${JSON.stringify(decoded)}`);
          expect(decoded.value.message).toStrictEqual(message);
          expect(decoded.value.message.submittedDate).toBe(form.text);
          expect(decoded.value.submittedInstant).toBe(form.expected);
          expect(decoded.value.concatenation !== undefined).toBe(message.message.udh === true);
          const again = decodeCallback(encodeMobileOriginate(decoded.value.message, format), format);
          expect(again.ok && again.value.kind === 'inbound-message' && again.value.message).toStrictEqual(message);
        },
      ),
      { numRuns: runs(400) },
    );
  });
});

// The same callbacks in the layouts the service sends, not only the encoders' canonical one: each
// encoded body rewritten losslessly (core README, "The inbound rule" and "Wire forms accepted").

/** How a body is laid out, beside what the encoders write. */
interface Layout {
  /** Receipts: `destination` and `source` inside `mtStatus` (a published schema) instead of beside it. */
  readonly nested: boolean;
  readonly alpha2: 'alpha2Code' | 'alpha2code';
  /** JSON: numbers and Booleans as strings (`"383"`, `"true"`). */
  readonly strings: boolean;
  /** XML: every element prefixed (`<ns2:deliveryReceipt xmlns:ns2="…">`), where there is a namespace. */
  readonly prefix: boolean;
  /** Line breaks and indentation between elements (XML) or members (JSON). */
  readonly pretty: boolean;
  /** XML: without the XML declaration. */
  readonly bare: boolean;
  /** XML, inbound: the content as the attribute, a `<content>` element, CDATA, or both ways alike. */
  readonly content: 'attribute' | 'element' | 'cdata' | 'both';
}

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  nested: fc.boolean(),
  alpha2: fc.constantFrom('alpha2Code', 'alpha2code'),
  strings: fc.boolean(),
  prefix: fc.boolean(),
  pretty: fc.boolean(),
  bare: fc.boolean(),
  content: fc.constantFrom('attribute', 'element', 'cdata', 'both'),
});

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** JSON members: numbers and Booleans as strings, everywhere below `value`. */
function asStrings(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(asStrings);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asStrings(v)]));
  return value;
}

function rewriteJson(body: string, layout: Layout): string {
  const document = JSON.parse(body) as Record<string, Record<string, Record<string, unknown>>>;
  const receipt = document.deliveryReceipt;
  if (receipt !== undefined && layout.nested) {
    const { destination, source, ...rest } = receipt;
    document.deliveryReceipt = { ...rest, mtStatus: { ...receipt.mtStatus, ...(destination === undefined ? {} : { destination }), ...(source === undefined ? {} : { source }) } };
  }
  let text = JSON.stringify(layout.strings ? asStrings(document) : document, null, layout.pretty ? 2 : undefined);
  if (layout.alpha2 === 'alpha2code') text = text.replace(/"alpha2Code":/g, '"alpha2code":');
  return text;
}

function rewriteXml(body: string, layout: Layout, content: string | undefined): string {
  let xml = body;
  if (layout.alpha2 === 'alpha2code') xml = xml.replace(/ alpha2Code="/g, ' alpha2code="');
  if (layout.nested && xml.includes('<deliveryReceipt')) {
    const inner = [/<destination [^>]*\/>/.exec(xml)?.[0], /<source [^>]*\/>/.exec(xml)?.[0]].filter((e) => e !== undefined);
    for (const element of inner) xml = xml.replace(element, '');
    if (inner.length > 0) xml = xml.replace(/<mtStatus ([^>]*)\/>/, `<mtStatus $1>${inner.join('')}</mtStatus>`);
  }
  if (layout.pretty) xml = xml.replace(/></g, '>\n  <').concat('\n');
  const declared = /<(deliveryReceipt|mobileOriginate) xmlns="([^"]+)"/.exec(xml);
  const p = layout.prefix && declared !== null ? 'ns2:' : '';
  if (p !== '') xml = xml.replace(/<(\/?)([A-Za-z]\w*)/g, `<$1${p}$2`).replace(' xmlns="', ' xmlns:ns2="');
  if (content !== undefined && layout.content !== 'attribute') {
    const element = `<${p}content>${layout.content === 'cdata' ? `<![CDATA[${content}]]>` : escapeText(content)}</${p}content>`;
    xml = xml.replace(new RegExp(`<${p}message ([^>]*?) ?content="[^"]*"([^>]*)/>`), (attributes: string, before: string, after: string) => {
      void attributes;
      const kept = layout.content === 'both' ? ` content="${escapeText(content).replace(/"/g, '&quot;')}"` : '';
      return `<${p}message ${before}${after}${kept}>${element}</${p}message>`;
    });
  }
  if (layout.bare) xml = xml.replace(/^<\?xml[^>]*\?>\s*/, '');
  return xml;
}

const rewrite = (body: string, format: 'json' | 'xml', layout: Layout, content?: string): string =>
  format === 'json' ? rewriteJson(body, layout) : rewriteXml(body, layout, content);

/** Inbound messages of every type the service sends: text, hex text and binary, whole or one part with its header. */
const anyInboundArb = (form: GeneratedForm): fc.Arbitrary<MobileOriginate> =>
  fc.oneof(
    inboundArb(form),
    fc
      .record({
        ticketId,
        type: fc.constantFrom('binary', 'hexEncodedText'),
        payload: hexBytes(0xff, 30),
        part: fc.option(fc
            .record({ referenceBits: fc.constantFrom(8 as const, 16 as const), reference: fc.integer({ min: 0, max: 65_535 }), total: fc.integer({ min: 2, max: 5 }) })
            .chain(({ referenceBits, reference, total }) => fc.integer({ min: 1, max: total }).map((sequence) => ({ referenceBits, reference: referenceBits === 8 ? reference % 256 : reference, total, sequence }))),
          { nil: undefined },
        ),
      })
      .map(({ ticketId: id, type, payload, part }) => ({
        submittedDate: form.text,
        ticketId: id,
        source: { address: '14155550100', ton: 1 },
        destination: { address: '24273' },
        message: part === undefined ? { type, content: payload } : { type, udh: true, content: bytesToHex(buildUserDataHeader({ concatenation: part })) + payload },
      })),
  );

describe('callbacks in the layouts the service sends, with any xs:dateTime', () => {
  it('a receipt (nested or not, alpha2code, digit strings, any namespace or prefix, with or without deliveryDate) decodes to the same value and instant, and encodes again', () => {
    fc.assert(
      fc.property(
        timestampFormArb.chain((form) => fc.tuple(fc.constant(form), receiptArb(form), fc.boolean())),
        fc.constantFrom('json', 'xml' as const),
        namespace,
        layoutArb,
        ([form, dated, withDate], format, ns, layout) => {
          const { deliveryDate, ...undated } = dated.mtStatus;
          const receipt: DeliveryReceipt = withDate ? dated : { ...dated, mtStatus: undated };
          const body = rewrite(encodeDeliveryReceipt(receipt, format, ns === undefined ? {} : { namespace: ns }), format, layout);
          const decoded = decodeCallback(body, format);
          if (!decoded.ok || decoded.value.kind !== 'delivery-receipt') throw new Error(`not decoded: ${JSON.stringify(decoded)}\n${body}`);
          expect(decoded.value.receipt).toStrictEqual(receipt);
          expect(decoded.value.receipt.mtStatus.deliveryDate).toBe(withDate ? deliveryDate : undefined);
          expect(decoded.value.deliveryInstant).toBe(withDate ? form.expected : undefined);
          expect('deliveryInstant' in decoded.value).toBe(withDate);
          const again = decodeCallback(encodeDeliveryReceipt(decoded.value.receipt, format), format);
          expect(again.ok && again.value.kind === 'delivery-receipt' && again.value.receipt).toStrictEqual(receipt);
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('an inbound message (text, hex text or binary; content as attribute, element or CDATA; digit strings; any namespace or prefix) decodes to the same value and instant, and encodes again', () => {
    fc.assert(
      fc.property(
        timestampFormArb.chain((form) => fc.tuple(fc.constant(form), anyInboundArb(form))),
        fc.constantFrom('json', 'xml' as const),
        namespace,
        layoutArb,
        ([form, message], format, ns, layout) => {
          const body = rewrite(encodeMobileOriginate(message, format, ns === undefined ? {} : { namespace: ns }), format, layout, message.message.content);
          const decoded = decodeCallback(body, format);
          if (!decoded.ok || decoded.value.kind !== 'inbound-message') throw new Error(`not decoded: ${JSON.stringify(decoded)}\n${body}`);
          expect(decoded.value.message).toStrictEqual(message);
          expect(decoded.value.submittedInstant).toBe(form.expected);
          expect(decoded.value.headerProblem).toBeUndefined();
          expect(decoded.value.concatenation !== undefined).toBe(message.message.udh === true);
          const again = decodeCallback(encodeMobileOriginate(decoded.value.message, format), format);
          expect(again.ok && again.value.kind === 'inbound-message' && again.value.message).toStrictEqual(message);
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('the rewrites are the layouts they claim to be', () => {
    const receipt: DeliveryReceipt = {
      type: 'final',
      mtStatus: { ticketId: 'A1-B2', deliveryDate: '2015-08-29T15:10:03.029-05:00', code: 4, segmentNumber: 1, totalSegments: 2 },
      destination: { address: '1', alpha2Code: 'US', mobileOperatorId: 383 },
      source: { address: '2' },
    };
    const all: Layout = { nested: true, alpha2: 'alpha2code', strings: true, prefix: true, pretty: false, bare: true, content: 'cdata' };
    expect(rewrite(encodeDeliveryReceipt(receipt, 'xml', { namespace: 'https://sms.openmarket.com/v4/mt' }), 'xml', all)).toBe(
      '<ns2:deliveryReceipt xmlns:ns2="https://sms.openmarket.com/v4/mt" type="final"><ns2:mtStatus ticketId="A1-B2" deliveryDate="2015-08-29T15:10:03.029-05:00" code="4" totalSegments="2" segmentNumber="1"><ns2:destination address="1" mobileOperatorId="383" alpha2code="US"/><ns2:source address="2"/></ns2:mtStatus></ns2:deliveryReceipt>',
    );
    expect(JSON.parse(rewrite(encodeDeliveryReceipt(receipt, 'json'), 'json', all))).toStrictEqual({
      deliveryReceipt: {
        type: 'final',
        mtStatus: { ticketId: 'A1-B2', deliveryDate: '2015-08-29T15:10:03.029-05:00', code: '4', totalSegments: '2', segmentNumber: '1', destination: { address: '1', mobileOperatorId: '383', alpha2code: 'US' }, source: { address: '2' } },
      },
    });
    const message: MobileOriginate = { ticketId: 'A1-B2', source: { address: '1' }, destination: { address: '2' }, message: { type: 'text', content: 'a <b> & "c"' } };
    expect(rewrite(encodeMobileOriginate(message, 'xml'), 'xml', all, message.message.content)).toContain('<ns2:message type="text"><ns2:content><![CDATA[a <b> & "c"]]></ns2:content></ns2:message>');
    expect(rewrite(encodeMobileOriginate(message, 'xml'), 'xml', { ...all, prefix: false, content: 'both' }, message.message.content)).toContain(
      '<message type="text" content="a &lt;b&gt; &amp; &quot;c&quot;"><content>a &lt;b&gt; &amp; "c"</content></message>',
    );
  });
});

import {
  createInboundReassembler,
  decodeCallback,
  decodeDeliveryReceipt,
  decodeErrorRecord,
  decodeMobileOriginate,
  decodeMtRequest,
  decodeMtStatus,
  decodePreview,
  inboundHeader,
  type WireFormat,
} from '@smsv4/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDeliveryReceipt, buildMultipartReceipts } from './delivery-receipt.js';
import { buildErrorRecord, buildMtRequest, buildPreview, buildStatusDocument } from './documents.js';
import { buildInboundMessage, buildMultipartInbound } from './inbound-message.js';
import type { NamespaceChoice } from './payload.js';

const FORMATS: WireFormat[] = ['xml', 'json'];

/** Every XML form a builder offers: namespace URI, default or prefixed. */
const XML_FORMS: Array<{ namespace: NamespaceChoice; prefix?: string }> = [{ namespace: 'http' }, { namespace: 'https' }, { namespace: 'none' }, { namespace: 'http', prefix: 'mt' }, { namespace: 'https', prefix: 'ns0' }];

describe('buildDeliveryReceipt', () => {
  it('builds the spec layout by default, with the catalogue description', () => {
    const receipt = buildDeliveryReceipt({ ticketId: '44101-0922I-13413-21GDL', code: 811, deliveredAt: '2024-03-31T10:15:02.114Z' });
    expect(receipt).toMatchObject({ resource: 'deliveryReceipt', format: 'xml', contentType: 'application/xml; charset=UTF-8' });
    expect(receipt.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><deliveryReceipt xmlns="http://sms.openmarket.com/v4/mt" type="final"><mtStatus ticketId="44101-0922I-13413-21GDL" deliveryDate="2024-03-31T10:15:02.114Z" code="811" description="Message expired before it reached handset"/><destination address="14155550100" mobileOperatorId="383" alpha2Code="US"/><source address="24273" ton="3"/></deliveryReceipt>',
    );
  });

  it.each(FORMATS)('decodes back to its value in every %s form and layout', (format) => {
    const forms = format === 'xml' ? XML_FORMS : [{ namespace: 'http' as const }];
    for (const form of forms) {
      for (const layout of ['beside', 'nested'] as const) {
        const receipt = buildDeliveryReceipt({ format, ...form, layout, segmentNumber: 2, totalSegments: 3, note1: 'a & b <c> "d"\n', note2: 'ü' });
        const decoded = decodeDeliveryReceipt(receipt.body, format);
        expect(decoded, `${format} ${JSON.stringify(form)} ${layout}`).toEqual({ ok: true, value: receipt.value });
      }
    }
  });

  it('spells the country code as the spec prints it, when asked', () => {
    for (const format of FORMATS) {
      const receipt = buildDeliveryReceipt({ format, alpha2Spelling: 'alpha2code' });
      expect(receipt.body).toContain(format === 'xml' ? ' alpha2code="US"' : '"alpha2code":"US"');
      expect(receipt.body).not.toContain('alpha2Code');
      expect(decodeDeliveryReceipt(receipt.body, format)).toEqual({ ok: true, value: receipt.value });
      const preview = buildPreview({ format, alpha2Spelling: 'alpha2code' });
      expect(decodePreview(preview.body, format)).toEqual({ ok: true, value: preview.value });
    }
  });

  it('writes the nested layout inside mtStatus', () => {
    const xml = buildDeliveryReceipt({ layout: 'nested' }).body;
    expect(xml).toMatch(/<mtStatus [^>]*><destination [^>]*\/><source [^>]*\/><\/mtStatus>/);
    const json = JSON.parse(buildDeliveryReceipt({ layout: 'nested', format: 'json' }).body) as { deliveryReceipt: Record<string, Record<string, unknown>> };
    expect(Object.keys(json.deliveryReceipt)).toEqual(['type', 'mtStatus']);
    expect(json.deliveryReceipt.mtStatus).toHaveProperty('destination.address', '14155550100');
  });

  it('writes every timestamp with the offset asked for, denoting the same instant', () => {
    for (const format of FORMATS) {
      const receipt = buildDeliveryReceipt({ format, deliveredAt: '2015-08-29T20:10:03.029Z', timestamps: { offset: '-05:00' }, note1: '2015-08-29T20:10:03.029Z' });
      expect(receipt.body).toContain('2015-08-29T15:10:03.029-05:00');
      // Free text is never rewritten, and the value keeps UTC.
      expect(receipt.body).toContain('2015-08-29T20:10:03.029Z');
      expect(receipt.value.mtStatus.deliveryDate).toBe('2015-08-29T20:10:03.029Z');
    }
  });

  it('refuses what the service never sends', () => {
    expect(() => buildDeliveryReceipt({ ticketId: 'not a ticket' })).toThrow(/not a valid deliveryReceipt: .*ticketId/);
    expect(() => buildDeliveryReceipt({ namespace: 'none', prefix: 'mt' })).toThrow('a prefix needs a namespace');
    expect(() => buildDeliveryReceipt({ prefix: 'xmlns' })).toThrow('prefix must be an XML name not starting with "xml"');
    expect(() => buildDeliveryReceipt({ format: 'yaml' as WireFormat })).toThrow("format must be 'json' or 'xml', got yaml");
  });

  it('decodes any receipt it builds (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          code: fc.integer({ min: 0, max: 99_999 }),
          note1: fc.option(fc.string({ unit: 'grapheme', maxLength: 30 }), { nil: undefined }),
          mobileOperatorId: fc.option(fc.nat(), { nil: undefined }),
          deliveredAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
        }),
        fc.constantFrom(...FORMATS),
        fc.constantFrom(...XML_FORMS),
        fc.constantFrom('beside' as const, 'nested' as const),
        (members, format, form, layout) => {
          const receipt = buildDeliveryReceipt({ ...members, format, ...form, layout });
          expect(decodeDeliveryReceipt(receipt.body, format)).toEqual({ ok: true, value: receipt.value });
        },
      ),
    );
  });
});

describe('buildMultipartReceipts', () => {
  it.each([
    [[4, 4, 4], 4, 'Message delivered'],
    [[4, 811, 4], 830, 'Partial message delivery failure'],
    [[0, 4], 4, 'Message delivered'],
    [[811, 811], 811, 'Message expired before it reached handset'],
  ])('gives one receipt per part of %j and the summary %i', (parts, code, description) => {
    const built = buildMultipartReceipts({ parts, ticketId: '03155-0331L-1439U-51SLFX', format: 'json' });
    expect(built.summary).toEqual({ code, description });
    expect(built.receipts.map((r) => decodeDeliveryReceipt(r.body, 'json'))).toEqual(
      parts.map((part, i) => ({ ok: true, value: expect.objectContaining({ mtStatus: expect.objectContaining({ ticketId: '03155-0331L-1439U-51SLFX', code: part, segmentNumber: i + 1, totalSegments: parts.length }) }) })),
    );
  });

  it('needs two parts', () => {
    expect(() => buildMultipartReceipts({ parts: [4] })).toThrow('a multipart message has at least two parts');
  });
});

describe('buildInboundMessage', () => {
  it('sends plain text as text, control characters as hex, hex as hex or binary', () => {
    expect(buildInboundMessage({ text: 'STOP' }).value.message).toEqual({ type: 'text', udh: false, content: 'STOP' });
    expect(buildInboundMessage({ text: 'a\u0001b' }).value.message).toEqual({ type: 'hexEncodedText', udh: false, content: '006100010062' });
    expect(buildInboundMessage({ text: 'a\u0001b', charset: 'Latin-1' }).value.message).toEqual({ type: 'hexEncodedText', udh: false, content: '610162' });
    expect(buildInboundMessage({ text: 'Привет\u0007' }).value.message).toMatchObject({ type: 'hexEncodedText', content: '041F04400438043204350442' + '0007' });
    expect(buildInboundMessage({ hex: 'c0ffee', binary: true }).value.message).toEqual({ type: 'binary', udh: false, content: 'C0FFEE' });
    expect(() => buildInboundMessage({ text: 'a', hex: '00' })).toThrow('give either text or hex');
    expect(() => buildInboundMessage({ hex: 'abc' })).toThrow('hex must be an even number of hexadecimal digits');
  });

  it('puts the text in a content attribute or a content element, and both decode the same', () => {
    const text = 'Quotes " & <tags> and\nlines';
    const attribute = buildInboundMessage({ text, ticketId: '31QX9-0314A-0000A-77PQR', submittedAt: 0 });
    const element = buildInboundMessage({ text, ticketId: '31QX9-0314A-0000A-77PQR', submittedAt: 0, content: 'element', prefix: 'mo' });
    expect(attribute.body).toMatch(/<message type="text" udh="false" content="[^"]+"\/>/);
    expect(element.body).toMatch(/<mo:message type="text" udh="false"><mo:content>Quotes &quot; &amp; &lt;tags&gt; and&#10;lines<\/mo:content><\/mo:message>/);
    expect(decodeMobileOriginate(element.body, 'xml')).toEqual({ ok: true, value: attribute.value });
    expect(decodeMobileOriginate(attribute.body, 'xml')).toEqual({ ok: true, value: attribute.value });
  });
});

describe('buildMultipartInbound', () => {
  it.each([
    [8, 'GSM', 'Long message from a handset: '.repeat(12)],
    [16, 'GSM', 'Another long one, with a 16-bit reference. '.repeat(8)],
    [16, 'UTF-16', 'Привет! Это длинное сообщение, которое не помещается в одну часть. '.repeat(3)],
    [8, 'UTF-16', 'Emoji 😀 never split across parts. '.repeat(6)],
  ] as const)('splits with real %i-bit concatenation headers (%s), and core reassembles the text', (referenceBits, charset, text) => {
    for (const format of FORMATS) {
      const built = buildMultipartInbound({ text, referenceBits, reference: 0x4a, format, content: 'element' });
      expect(built).toMatchObject({ charset, referenceBits, reference: 0x4a });
      expect(built.partTexts.join('')).toBe(text);
      const total = built.parts.length;
      expect(total).toBeGreaterThan(1);
      const reassembler = createInboundReassembler();
      const outcomes = [];
      for (const [i, part] of [...built.parts.entries()].reverse()) {
        const decoded = decodeMobileOriginate(part.body, format);
        if (!decoded.ok) throw new Error(decoded.error.description);
        expect(decoded.value.message).toMatchObject({ type: 'hexEncodedText', udh: true });
        const header = inboundHeader(decoded.value.message);
        expect(header).toMatchObject({ ok: true, value: { header: { concatenation: { reference: 0x4a, total, sequence: i + 1, referenceBits } } } });
        const callback = decodeCallback(part.body, format);
        if (!callback.ok || callback.value.kind !== 'inbound-message') throw new Error('not an inbound callback');
        outcomes.push(reassembler.add(callback.value));
      }
      expect(outcomes.slice(0, -1).map((o) => o.status)).toEqual(Array(total - 1).fill('stored'));
      expect(outcomes.at(-1)).toMatchObject({ status: 'complete', message: { text, complete: true } });
      reassembler.close();
    }
  });

  it('refuses text that fits in one part, and references out of range', () => {
    expect(() => buildMultipartInbound({ text: 'short' })).toThrow('the text fits in one part: use buildInboundMessage');
    expect(() => buildMultipartInbound({ text: 'x'.repeat(400), reference: 256 })).toThrow('reference must be an integer from 0 to 255');
    expect(() => buildMultipartInbound({ text: 'x'.repeat(400), ticketIds: ['A-1'] })).toThrow('ticketIds must name 3 parts');
  });
});

describe('documents', () => {
  it('builds single and multipart status with the summary rules', () => {
    const single = buildStatusDocument({ code: 811, format: 'json' });
    expect(decodeMtStatus(single.body, 'json')).toEqual({ ok: true, value: single.value });
    expect(single.value).toMatchObject({ code: 811, description: 'Message expired before it reached handset' });
    for (const [parts, code] of [
      [[4, null, 4], 831],
      [[4, null, 811], 830],
      [[4, 4], 4],
    ] as const) {
      const status = buildStatusDocument({ parts, prefix: 'mt' });
      const decoded = decodeMtStatus(status.body, 'xml');
      expect(decoded).toEqual({ ok: true, value: status.value });
      expect(status.value).toMatchObject({ code, totalSegments: parts.length });
      expect(status.value.segments?.map((s) => s.code)).toEqual(parts.map((p) => p ?? 2));
      expect(status.value.segments?.map((s) => s.deliveryDate !== undefined)).toEqual(parts.map((p) => p !== null));
    }
  });

  it('builds error records with the catalogue and the rule', () => {
    const rejected = buildErrorRecord({ rule: 'destinationAddress' });
    expect(rejected).toMatchObject({ httpStatus: 400, value: { code: '540', description: 'Invalid request - destination address value is invalid' } });
    expect(decodeErrorRecord(rejected.body, 'xml')).toEqual({ ok: true, value: rejected.value });
    expect(buildErrorRecord({ code: '711', format: 'json' })).toMatchObject({ httpStatus: 404, value: { description: 'Ticket ID not found' } });
    expect(() => buildErrorRecord({ code: '999' })).toThrow('code 999 is not in the catalogue: give its description');
    expect(() => buildErrorRecord({ code: '420', rule: 'mlc' })).toThrow(/rule must be a key of MT_INVALID, with code 540/);
  });

  it('builds lookups and MT requests that decode', () => {
    for (const format of FORMATS) {
      const preview = buildPreview({ format, namespace: 'https' });
      expect(decodePreview(preview.body, format)).toEqual({ ok: true, value: preview.value });
      const mt = buildMtRequest({ destination: { address: '14155550100' }, message: { type: 'text', content: 'Hi' } }, { format });
      expect(decodeMtRequest(mt.body, format)).toEqual({ ok: true, value: mt.value });
    }
  });
});

describe('timestamps with an offset, as the service may write them', () => {
  const forms = [{ offset: '-05:00' }, { offset: '+05:30', fractionDigits: 3 }, { offset: 'Z', fractionDigits: 0 }, { offset: 840, fractionDigits: 9 }] as const;

  it.each(forms)('are decoded by core to the same instant (%j)', (form) => {
    const instant = Date.parse('2015-08-29T20:10:03.000Z');
    for (const format of FORMATS) {
      const receipt = buildDeliveryReceipt({ format, deliveredAt: instant, timestamps: form });
      const decodedReceipt = decodeDeliveryReceipt(receipt.body, format);
      if (!decodedReceipt.ok) throw new Error(`${format} receipt: ${decodedReceipt.error.description}`);
      expect(Date.parse(decodedReceipt.value.mtStatus.deliveryDate ?? '')).toBe(instant);
      const { parts } = buildMultipartInbound({ text: 'x'.repeat(200), format, submittedAt: instant, timestamps: form });
      for (const part of parts) {
        const decoded = decodeMobileOriginate(part.body, format);
        if (!decoded.ok) throw new Error(`${format} inbound: ${decoded.error.description}`);
        expect(Date.parse(decoded.value.submittedDate ?? '')).toBe(instant);
      }
      const status = buildStatusDocument({ format, parts: [4, 4], deliveredAt: instant, timestamps: form });
      const decodedStatus = decodeMtStatus(status.body, format);
      if (!decodedStatus.ok) throw new Error(`${format} status: ${decodedStatus.error.description}`);
      expect(decodedStatus.value.segments?.map((s) => Date.parse(s.deliveryDate ?? ''))).toEqual([instant, instant]);
    }
  });
});

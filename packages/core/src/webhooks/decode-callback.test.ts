import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { singleInboundMessage } from './inbound-reassembler.js';
import { loadFixture, loadFixtureBytes } from '../../test/fixtures.js';
import { heldBytes } from '../../test/heap.js';
import { decodeCallback, inboundKey, receiptKey, storedInboundPart } from './decode-callback.js';

describe('decodeCallback', () => {
  it.each([
    ['delivery-receipt/single-delivered.json', 'json', 'receipt:44101-0922I-13413-21GDL:1'],
    ['delivery-receipt/single-delivered.xml', 'xml', 'receipt:44101-0922I-13413-21GDL:1'],
    ['delivery-receipt/multipart-part2-expired.xml', 'xml', 'receipt:03155-0331L-1439U-51SLFX:2'],
    ['delivery-receipt/nested-layout.xml', 'xml', 'receipt:44101-0922I-13413-21GDL:1'],
    ['webhooks/receipt-comment-before-root.xml', 'xml', 'receipt:44101-0922I-13413-21GDM:1'],
  ] as const)('reads %s as a delivery receipt keyed %s', (path, format, key) => {
    const result = decodeCallback(loadFixtureBytes(path), format);
    expect(result.ok && result.value.kind).toBe('delivery-receipt');
    expect(result.ok && result.value.key).toBe(key);
  });

  it('reads a single-part inbound message with no header', () => {
    const result = decodeCallback(loadFixture('mobile-originate/text-attribute.xml'), 'xml');
    if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('expected an inbound message');
    expect(result.value.key).toBe('inbound:2213K-0122M-1347B-28U4E');
    expect(result.value.concatenation).toBeUndefined();
    expect(result.value.message.message.content).toBe('STOP & unsubscribe 👋');
  });

  it('reads the concatenation of an 8-bit part and keys it with reference and part number', () => {
    const result = decodeCallback(loadFixture('mobile-originate/udh8-part2.xml'), 'xml');
    if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('expected an inbound message');
    expect(result.value.concatenation).toEqual({ reference: 0x4a, total: 2, sequence: 2, referenceBits: 8 });
    expect(result.value.key).toBe('inbound:31QX9-0314A-0000B-77PQS:8-74:2');
    expect(result.value.payload).toBe('776F726C64');
  });

  it('reads the concatenation of a 16-bit part in JSON with string Booleans and numbers', () => {
    const result = decodeCallback(loadFixture('mobile-originate/udh16-part2.json'), 'json');
    if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('expected an inbound message');
    expect(result.value.concatenation).toEqual({ reference: 0x1a2b, total: 2, sequence: 2, referenceBits: 16 });
    expect(result.value.key).toBe('inbound:5KD0P-0314C-1A2B3-00002:16-6699:2');
  });

  it('keeps a single-part header that is not a concatenation (WAP Push ports) out of the key', () => {
    const result = decodeCallback(loadFixture('webhooks/inbound-wap-port-binary.xml'), 'xml');
    if (!result.ok || result.value.kind !== 'inbound-message') throw new Error('expected an inbound message');
    expect(result.value.header?.ports).toEqual({ destination: 2948, source: 9200, portBits: 16 });
    expect(result.value.concatenation).toBeUndefined();
    expect(result.value.key).toBe('inbound:4WQ2X-0314B-9PP0A-00C11');
  });

  it('takes a message whose user data header does not parse, whole, with the reason (never refused)', () => {
    const result = decodeCallback(loadFixture('webhooks/inbound-bad-udh.xml'), 'xml');
    expect(result.ok).toBe(true);
    if (!result.ok || result.value.kind !== 'inbound-message') return;
    const { key, concatenation, header, payload, headerProblem, message } = result.value;
    expect({ key, concatenation, header, payload }).toEqual({ key: `inbound:${message.ticketId}`, concatenation: undefined, header: undefined, payload: message.message.content });
    expect(headerProblem).toMatch(/^mobileOriginate\.message\.content does not start with a valid user data header \(udh is true\): .+/);
    const whole = singleInboundMessage(result.value);
    expect(whole).toMatchObject({ content: message.message.content, headerProblem, complete: true });
    expect(whole.text).toBeUndefined();
  });

  it('says which member is missing', () => {
    const result = decodeCallback(loadFixture('webhooks/receipt-missing-ticket.json'), 'json');
    expect(!result.ok && result.error.code).toBe('missing-member');
    expect(!result.ok && result.error.description).toMatch(/ticketId/);
  });

  it('refuses other resources, hostile XML, oversize and non-UTF-8 bodies', () => {
    expect(decodeCallback(loadFixture('webhooks/status-not-a-callback.xml'), 'xml')).toMatchObject({ ok: false, error: { code: 'wrong-resource' } });
    expect(decodeCallback(loadFixture('delivery-receipt/hostile-billion-laughs.xml'), 'xml')).toMatchObject({ ok: false, error: { code: 'invalid-xml' } });
    expect(decodeCallback(loadFixture('delivery-receipt/single-delivered.xml'), 'xml', { maxBytes: 100 })).toMatchObject({ ok: false, error: { code: 'too-large' } });
    expect(decodeCallback(new Uint8Array([0x7b, 0xff, 0x7d]), 'json')).toMatchObject({ ok: false, error: { code: 'invalid-encoding' } });
    expect(decodeCallback('{"deliveryReceipt":{},"deliveryReceipt":{}}', 'json')).toMatchObject({ ok: false, error: { code: 'invalid-json' } });
  });

  it('refuses at once a CDATA section without its end, on which the XML parser would loop', () => {
    const xml = '<?<![CDATA[]>ml version="1.0"?>\n<deliveryReceipt type="final"><mtStatus ticketId="A-B" code="4"/></deliveryReceipt>';
    expect(decodeCallback(xml, 'xml')).toMatchObject({ ok: false, error: { code: 'invalid-xml' } });
    expect(decodeCallback('<r><!-- x <![CDATA[ y ]]></r>', 'xml')).toMatchObject({ ok: false, error: { code: 'invalid-xml' } });
  });

  it('never throws on arbitrary input in either format', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.uint8Array({ maxLength: 200 })), fc.constantFrom('json' as const, 'xml' as const), (body, format) => {
        const result = decodeCallback(body, format);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });

  it('throws TypeError for a format that is not json or xml', () => {
    expect(() => decodeCallback('{}', 'yaml' as never)).toThrow(TypeError);
  });
});

describe('storedInboundPart', () => {
  const part = (): { format: 'xml' | 'json'; message: Record<string, unknown> } => {
    const decoded = decodeCallback(loadFixture('mobile-originate/udh8-part2.xml'), 'xml');
    if (!decoded.ok || decoded.value.kind !== 'inbound-message') throw new Error('expected an inbound message');
    return { format: decoded.value.format, message: JSON.parse(JSON.stringify(decoded.value.message)) as Record<string, unknown> };
  };

  it('gives back the part a store kept, its instant worked out anew', () => {
    const { format, message } = part();
    const stored = storedInboundPart({ ...message, submittedDate: '2015-08-29T15:10:03.029-05:00' }, format);
    expect(stored).toMatchObject({ kind: 'inbound-message', concatenation: { reference: 0x4a, sequence: 2 }, submittedInstant: '2015-08-29T20:10:03.029Z' });
  });

  it.each([
    ['a day February lacks', '2015-02-30T15:10:03.029-05:00'],
    ['no time zone', '2015-08-29T15:10:03.029'],
    ['an instant after 9999 in UTC', '9999-12-31T23:59:59-14:00'],
  ])('is undefined for a stored submittedDate the reader refuses (%s), instead of throwing', (_name, submittedDate) => {
    const { format, message } = part();
    expect(storedInboundPart({ ...message, submittedDate }, format)).toBeUndefined();
  });
});

describe('duplicate keys', () => {
  it('count a single-part receipt as segment 1 and tell the parts of a message apart', () => {
    const status = { ticketId: 'AAAAA-BBBBB', code: 4 };
    expect(receiptKey({ type: 'final', mtStatus: status })).toBe('receipt:AAAAA-BBBBB:1');
    expect(receiptKey({ type: 'final', mtStatus: { ...status, segmentNumber: 3, totalSegments: 3 } })).toBe('receipt:AAAAA-BBBBB:3');
  });

  it('separate the 8- and 16-bit reference spaces', () => {
    const message = { ticketId: 'T-1', source: { address: '1' }, destination: { address: '2' }, message: { type: 'hexEncodedText', content: '' } };
    expect(inboundKey(message, { reference: 5, total: 2, sequence: 1, referenceBits: 8 })).not.toBe(
      inboundKey(message, { reference: 5, total: 2, sequence: 1, referenceBits: 16 }),
    );
  });

  it.each([
    ['a receipt', 'delivery-receipt/single-delivered.xml', /ticketId="([^"]+)"/],
    ['an inbound part', 'mobile-originate/udh8-part2.xml', /ticketId="([^"]+)"/],
  ])('of %s read from XML do not hold the body alive (a duplicate store keeps thousands of them)', (_name, path, ticket) => {
    const fixture = loadFixture(path);
    const id = ticket.exec(fixture)?.[1] ?? '';
    expect(id).not.toBe('');
    // 400 bodies of 60 kB each (whitespace after the root): 24 MB should the keys hold them.
    const padding = ' '.repeat(60_000);
    const { value: keys, bytes } = heldBytes(() => {
      const made: string[] = [];
      for (let i = 0; i < 400; i++) {
        const result = decodeCallback(fixture.replace(id, `${id.slice(0, -4)}${String(i).padStart(4, '0')}`) + padding, 'xml');
        if (!result.ok) throw new Error(result.error.description);
        made.push(result.value.key);
      }
      return made;
    });
    expect(new Set(keys).size).toBe(400);
    expect(bytes).toBeLessThan(4 * 1024 * 1024);
  });
});

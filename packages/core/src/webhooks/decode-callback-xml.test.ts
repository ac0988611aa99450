import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, loadFixture } from '../../test/fixtures.js';
import { decodeDeliveryReceipt, encodeDeliveryReceipt, type DeliveryReceipt } from '../delivery-receipt/delivery-receipt.js';
import { decodeMobileOriginate, encodeMobileOriginate, type MobileOriginate } from '../mobile-originate/mobile-originate.js';
import { decodeCallback } from './decode-callback.js';
import { runs } from '../../test/property-runs.js';

/** The XML decoders alone (and the user data header rule of inbound messages): what decodeCallback must agree with. */
function reference(xml: string): { ok: boolean; value?: unknown } {
  const receipt = decodeDeliveryReceipt(xml, 'xml');
  if (receipt.ok) return { ok: true, value: receipt.value };
  const inbound = decodeMobileOriginate(xml, 'xml');
  // An inbound message is taken whatever its header (one that does not parse is handed over as received).
  if (inbound.ok) return { ok: true, value: inbound.value };
  return { ok: false };
}

function viaCallback(xml: string): { ok: boolean; value?: unknown } {
  const result = decodeCallback(xml, 'xml');
  if (!result.ok) return { ok: false };
  return { ok: true, value: result.value.kind === 'delivery-receipt' ? result.value.receipt : result.value.message };
}

/** Text with the characters XML must escape, line ends, and some beyond ASCII. */
const text = fc.string({ unit: fc.constantFrom(...Array.from('ab <>&"\'é€👋\n\r\t;#x')), maxLength: 20 });
const ticketId = fc.stringMatching(/^[A-Z0-9]{3,6}(-[A-Z0-9]{3,6}){1,4}$/);
const timestamp = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
const integer = fc.nat({ max: 99999 });

const receipts: fc.Arbitrary<DeliveryReceipt> = fc.record(
  {
    type: fc.constant('final' as const),
    mtStatus: fc.record(
      {
        ticketId,
        deliveryDate: timestamp,
        code: integer,
        description: text,
        mobileOperatorId: integer,
        note1: text,
        note2: text,
        totalSegments: fc.integer({ min: 1, max: 10 }),
        segmentNumber: fc.integer({ min: 1, max: 10 }),
      },
      { requiredKeys: ['ticketId', 'code'] },
    ),
    destination: fc.record({ address: fc.stringMatching(/^[0-9]{5,15}$/), mobileOperatorId: integer, alpha2Code: fc.constantFrom('US', 'GB') }, { requiredKeys: [] }),
    source: fc.record({ address: text, ton: fc.constantFrom(1, 3, 5) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['type', 'mtStatus'] },
);

const inbound: fc.Arbitrary<MobileOriginate> = fc.record(
  {
    submittedDate: timestamp,
    ticketId,
    source: fc.record({ ton: fc.constantFrom(1, 3), address: fc.stringMatching(/^[0-9]{5,15}$/), mobileOperatorId: integer }, { requiredKeys: ['address'] }),
    destination: fc.record({ ton: fc.constantFrom(1, 3, 5), address: fc.stringMatching(/^[0-9A-Za-z]{1,11}$/) }, { requiredKeys: ['address'] }),
    message: fc.oneof(
      fc.record({ type: fc.constant('text'), udh: fc.constant(false), content: text.filter((t) => t.length > 0) }),
      fc.record({ type: fc.constant('hexEncodedText'), udh: fc.constant(false), content: fc.constantFrom('48656C6C6F', '0D0A') }),
      fc.record({ type: fc.constant('hexEncodedText'), udh: fc.constant(true), content: fc.constantFrom('0500034A0201414243', '060804BEEF0201004100') }),
    ),
  },
  { requiredKeys: ['ticketId', 'source', 'destination', 'message'] },
);

/** Spellings of the same document the service or its docs may use. */
const variants: ReadonlyArray<(xml: string) => string> = [
  (xml) => xml,
  (xml) => xml.replace(/<(\/?)(?=[a-zA-Z])/g, '<$1ns2:').replace(/xmlns="/, 'xmlns:ns2="'),
  (xml) => xml.replace(/alpha2Code=/g, 'alpha2code='),
  (xml) => xml.replace(/^<\?xml[^>]*\?>/, '').replace(/"/g, "'"),
  (xml) => xml.replace(/ (\w+)=/g, '\n   $1 = '),
  (xml) => xml.replace(/^(<\?xml[^>]*\?>)?/, '$1\n<!-- captured -->\n') + '\n',
  (xml) => xml.replace(/<message ([^>]*) content="([^"]*)"\/>/, '<message $1><content>$2</content></message>'),
  (xml) => xml.replace(/\n/g, '\r\n').replace(/></g, '>\r\n  <'),
];

describe('decodeCallback on XML, against the XML decoders alone', () => {
  it('reads any receipt exactly as the XML decoder does, in every spelling', () => {
    fc.assert(
      fc.property(receipts, fc.constantFrom(...variants), (receipt, variant) => {
        const xml = variant(encodeDeliveryReceipt(receipt, 'xml'));
        const expected = reference(xml);
        expect(expected.ok).toBe(true);
        expect(viaCallback(xml)).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('reads any inbound message exactly as the XML decoder does, in every spelling', () => {
    fc.assert(
      fc.property(inbound, fc.constantFrom(...variants), (message, variant) => {
        const xml = variant(encodeMobileOriginate(message, 'xml'));
        const expected = reference(xml);
        expect(expected.ok).toBe(true);
        expect(viaCallback(xml)).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  it('agrees with the XML decoder on every fixture and on random damage to them', () => {
    const documents = [...listFixtures('delivery-receipt'), ...listFixtures('mobile-originate'), ...listFixtures('webhooks')]
      .filter((path) => path.endsWith('.xml'))
      .map(loadFixture);
    const damage = fc.tuple(fc.nat(), fc.constantFrom('', '<', '>', '"', '/', '<!-- x -->', '<![CDATA[x]]>', '<mtStatus/>', ' x="1"', ' m:code="1"', 'ns:', 'é', '&amp;', '&bogus;', '\u0001'), fc.nat({ max: 3 }));
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.array(damage, { maxLength: 3 }), (doc, edits) => {
        let xml = doc;
        for (const [at, insert, remove] of edits) {
          const p = at % (xml.length + 1);
          xml = xml.slice(0, p) + insert + xml.slice(p + remove);
        }
        const expected = reference(xml);
        const actual = viaCallback(xml);
        expect(actual).toEqual(expected);
      }),
      { numRuns: runs(2000) },
    );
  });
});

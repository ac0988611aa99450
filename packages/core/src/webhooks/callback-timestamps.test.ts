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

const digits = fc.stringMatching(/^[0-9]{5,15}$/);
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
          .record({ reference: fc.integer({ min: 0, max: 255 }), total: fc.integer({ min: 2, max: 4 }), payload: fc.stringMatching(/^(?:[0-7][0-9A-F]){1,20}$/) })
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
      { numRuns: 400 },
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
      { numRuns: 400 },
    );
  });
});
